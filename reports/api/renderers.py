"""CSV: a report's rows, one line each under a header of its columns.

Chosen like any DRF renderer: ``?format=csv`` or ``Accept: text/csv``.
A refusal is answered in JSON whatever was asked (``views.ReportView``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer

FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""How a spreadsheet cell may start a formula: a text (a screen name) that
starts so is written with a leading ``'``, so opening the file runs nothing."""


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        view = (renderer_context or {})["view"]
        columns: list[str] = view.report.columns
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(columns)
        for row in data["rows"]:
            writer.writerow([_cell(row[column]) for column in columns])
        return out.getvalue().encode(self.charset)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA):
        return "'" + value
    return value
