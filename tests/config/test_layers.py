"""The apps' layers hold: ``lint-imports`` (the contracts in pyproject.toml,
also run by ``make lint``) finds no lower app importing a higher one and
no framework in the pure rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept() -> None:
    linter = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 broken" in done.stdout
