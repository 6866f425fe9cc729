"""No tables of its own: the reports read the other apps' rows.

``Report`` is only the admin's entry for the reports (``reports.admin``):
an unmanaged model, so the admin's index lists it under its app, with no
table behind it and no permissions of its own (``reports.access`` says
who reads the reports)."""

from __future__ import annotations

from django.db import models


class Report(models.Model):
    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = "report"

    def __str__(self) -> str:
        return "report"
