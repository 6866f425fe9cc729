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


def test_no_exception_lets_a_lower_app_import_a_higher_one() -> None:
    """The layers contract's ignored imports may only reach down (the pure
    engine sits below every app): none carries control back up."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")
    top = len(layers["layers"])
    rank = {
        name.strip(): top - i
        for i, layer in enumerate(layers["layers"])
        for name in layer.split("|")  # independent siblings share their layer
    }
    rank["config"] = top + 1  # the project's top: it may import every app
    rank["poker.engine"] = 0
    for ignored in layers.get("ignore_imports", []):
        importer, imported = (side.strip().removesuffix(".**") for side in ignored.split("->"))
        lower = rank.get(importer, rank[importer.split(".")[0]])
        higher = rank.get(imported, rank[imported.split(".")[0]])
        assert higher < lower, f"{ignored}: reaches up"
