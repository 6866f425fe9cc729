"""Static files (the admin's, Swagger UI's) are served by WhiteNoise from
the process's one index of them: a new request handler (each test client
is one) does not walk every app's files again, and serves the same."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from config.middleware import StaticFiles

CSS = "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css"


def test_a_second_handler_reuses_the_index_and_serves_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = Client().get(CSS, HTTP_HOST="localhost")
    assert first.status_code == 200
    walked: list[Any] = []
    real = finders.get_finders

    def counted() -> Any:
        walked.append(1)
        return real()

    monkeypatch.setattr(finders, "get_finders", counted)
    files = StaticFiles(lambda request: None).files
    again = Client().get(CSS, HTTP_HOST="localhost")
    assert walked == []  # the index was made once
    assert CSS in files and again.status_code == 200
    assert b"".join(again.streaming_content) == b"".join(first.streaming_content)
