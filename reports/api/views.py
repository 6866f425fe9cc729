"""The reports over REST, for staff (``reports.access``): one GET each,
over a period of days, answered in JSON or CSV."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.api import validated
from reports.access import reports_readable
from reports.api.renderers import CsvRenderer
from reports.api.serializers import PeriodQuery, report_out
from reports.catalog import REPORTS, Report


class ReportReaders(permissions.BasePermission):
    message = "Only staff read the reports."

    def has_permission(self, request: Request, view: Any) -> bool:
        return reports_readable(request.user)


class ReportView(APIView):
    """A report (``report``) over the period the query names."""

    permission_classes = [permissions.IsAuthenticated, ReportReaders]
    renderer_classes = [JSONRenderer, CsvRenderer]
    report: Report
    out: type[Any]
    """The answer's shape (``serializers.report_out``)."""

    def get(self, request: Request) -> Response:
        period = validated(PeriodQuery, request.query_params)["period"]
        body = {"from": period.first, "to": period.last, "rows": self.report.rows(period)}
        response = Response(self.out(body).data)
        if isinstance(request.accepted_renderer, CsvRenderer):
            name = f"{self.report.name}-{period.first}-{period.last}.csv"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    def handle_exception(self, exc: Exception) -> Response:
        """A refusal is JSON (``{code, message}``), even to a CSV request."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response


def report_view(report: Report) -> type[ReportView]:
    """The view of ``report``, with its own operation in the schema."""
    out = report_out(report.name, report.row)

    class View(ReportView):
        @extend_schema(
            parameters=[PeriodQuery],
            responses={
                (200, "application/json"): out,
                (200, "text/csv"): OpenApiResponse(
                    OpenApiTypes.STR, description="The rows, under a header of their fields."
                ),
            },
            operation_id=f"reports_{report.name}",
            description=report.description,
        )
        def get(self, request: Request) -> Response:
            return super().get(request)

    View.report, View.out = report, out
    View.__doc__ = report.title
    View.__name__ = View.__qualname__ = f"{report.name.title()}ReportView"
    return View


VIEWS = {name: report_view(report) for name, report in REPORTS.items()}
