"""The reports as pages of the admin: a list of them, and each one over the
days the staff member picks, as a table, with its CSV download (the REST
endpoint, which the admin's session may read).  Read-only: nothing here
writes."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import escape, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe

from kernel.admin import ReadOnly
from reports.access import reports_readable
from reports.api.serializers import PeriodQuery
from reports.catalog import REPORTS
from reports.models import Report


@admin.register(Report)
class ReportAdmin(ReadOnly):
    """The list of reports and a page for each."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return reports_readable(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return reports_readable(request.user)

    def get_urls(self) -> list[URLPattern]:
        label, model = self.opts.app_label, self.opts.model_name
        view = self.admin_site.admin_view
        return [
            path("", view(self.changelist_view), name=f"{label}_{model}_changelist"),
            path("<slug:name>/", view(self.report_view), name=f"{label}_{model}_report"),
        ]

    def _context(self, request: HttpRequest, title: str) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "opts": self.opts, "title": title}

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise Http404
        listed = [
            {"title": r.title, "description": docstring_html(r.description), "url": _page(r.name)}
            for r in REPORTS.values()
        ]
        context = {**self._context(request, "Reports"), "reports": listed}
        return TemplateResponse(request, "admin/reports/index.html", context)

    def report_view(self, request: HttpRequest, name: str) -> HttpResponse:
        report = REPORTS.get(name)
        if report is None or not self.has_view_permission(request):
            raise Http404
        asked = {k: v for k, v in request.GET.items() if k in ("from", "to") and v}
        query = PeriodQuery(data=asked)
        context = self._context(request, report.title)
        context.update(
            report=report,
            description=docstring_html(report.description),
            columns=report.columns,
            asked=asked,
        )
        if query.is_valid():
            period = query.validated_data["period"]
            rows = report.rows(period)
            dates = {"from": str(period.first), "to": str(period.last)}
            context.update(
                period=period,
                rows=[[row[c] for c in report.columns] for row in rows],
                csv=reverse(f"report-{name}") + "?" + urlencode({**dates, "format": "csv"}),
            )
        else:
            context["errors"] = [m for ms in query.errors.values() for m in ms]
        return TemplateResponse(request, "admin/reports/report.html", context)


LITERAL = re.compile(r"``(.+?)``", re.S)
"""A docstring's inline literal (reST): ``period``."""


def docstring_html(text: str) -> SafeString:
    """A docstring as a reader's HTML: paragraphs at blank lines, the lines
    of one paragraph joined, ``literals`` as code, everything else escaped."""
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]
    as_html = (LITERAL.sub(r"<code>\1</code>", escape(p)) for p in paragraphs)
    return format_html_join("", "<p>{}</p>", ((mark_safe(p),) for p in as_html))


def _page(name: str) -> str:
    return reverse("admin:reports_report_report", kwargs={"name": name})
