"""The browser tests need Debian's Chromium: without it they are skipped
with the reason, except under ``CI=true``, where they fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import require_chromium


def test_without_chromium_a_browser_test_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CI", raising=False)
    missing = tmp_path / "chromium"
    with pytest.raises(pytest.skip.Exception, match=f"{missing} is missing"):
        require_chromium(missing)


def test_without_chromium_under_ci_a_browser_test_fails(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        require_chromium(tmp_path / "chromium")


def test_with_chromium_nothing_stands_in_the_way(tmp_path: Path) -> None:
    present = tmp_path / "chromium"
    present.touch()
    require_chromium(present)  # neither skips nor fails
