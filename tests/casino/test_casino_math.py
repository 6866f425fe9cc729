"""``manage.py casino_math``: the game math of a table's settings, its
refusals of settings out of bounds, and ``--store``: the guard's figures
stored and written."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from casino.edge import shipped_figures
from casino.models import CasinoMath
from poker.engine.casino.edge import EdgeFigures
from poker.engine.casino.report import variations
from poker.engine.casino.solve import Settings


def test_the_command_reports_the_best_response_and_the_references_for_the_settings() -> None:
    out = StringIO()
    call_command(
        "casino_math",
        "--pay=five-of-a-kind=30",
        "--rounds=300",
        "--processes=1",
        "--dealer-samples=5000",
        "--no-sensitivity",
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert "five-of-a-kind 30:1" in lines[0]
    assert "largest payout of one round: 180 B beyond the stakes" in lines
    assert [
        line.split(":")[0]
        for line in lines
        if line.endswith(("poker.engine.casino.solve)", "or better"))
    ] == [
        "best response",
        "plain",
        "sharp",
    ]
    assert sum(line.strip().startswith("house edge on the original bet:") for line in lines) == 3
    card = lines.index("strategy card (the best response in plain words):")
    assert lines[card + 1].startswith("  Play with a pair of ")
    assert any(line.startswith("  Dealt three of a kind: change ") for line in lines[card:])
    assert "  Never throw a joker." in lines[card:]


@pytest.mark.parametrize(
    "bad", [["--pay=three-pair=2"], ["--pay=pair=x"], ["--jokers=9"], ["--rounds=0"]]
)
def test_settings_out_of_bounds_are_refused(bad: list[str]) -> None:
    with pytest.raises(CommandError):
        call_command("casino_math", *bad, "--no-sensitivity", stdout=StringIO())


def test_the_sensitivity_table_changes_one_setting_at_a_time() -> None:
    base = Settings()
    changed = dict(variations(base))
    assert len(changed) == 10 + 2 + 4 + 2
    assert changed["full-house 3:1"].pay_table.full_house == 3
    assert changed["0 jokers"].jokers == 0 and changed["0 jokers"].pay_table == base.pay_table
    assert changed["not qualified 1:1"].not_qualified == 1
    assert changed["qualifier pair of queens"].qualifier > base.qualifier


@pytest.mark.django_db
def test_store_keeps_the_guards_figures_and_they_agree_with_the_shipped_ones(tmp_path) -> None:
    """The shipped default figures against a fresh, smaller run of the same
    command: the model edge within 1% of B (5,000 dealer samples move it
    by about half of that), the strategy card's first line the same."""
    written = tmp_path / "figures.json"
    call_command(
        "casino_math",
        "--store",
        f"--json={written}",
        "--rounds=300",
        "--processes=1",
        "--dealer-samples=5000",
        stdout=StringIO(),
    )
    shipped = shipped_figures()
    stored = CasinoMath.objects.get(digest=shipped.digest)
    assert (stored.rounds, stored.dealer_samples) == (300, 5000)
    fresh = EdgeFigures.from_json(json.loads(written.read_text()))
    assert fresh.digest == shipped.digest and fresh.model_edge == stored.model_edge
    assert abs(fresh.model_edge - shipped.model_edge) < 0.01
    assert fresh.strategy_card[0] == shipped.strategy_card[0]
    assert fresh.largest_payout == shipped.largest_payout == 120
