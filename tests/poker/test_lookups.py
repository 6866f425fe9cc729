"""``kernel.lookups``: one query, the same rows on every backend."""

from __future__ import annotations

import pytest
from django.utils import timezone

from casino.models import CasinoRound, CasinoTable

BACKENDS = [
    pytest.param("sqlite", marks=pytest.mark.django_db(databases=["sqlite"]), id="sqlite"),
    pytest.param(
        "postgres",
        marks=[pytest.mark.postgres, pytest.mark.django_db(databases=["postgres"])],
        id="postgres",
    ),
]


@pytest.mark.parametrize("alias", BACKENDS)
def test_has_finds_the_arrays_holding_the_value_and_no_others(alias: str) -> None:
    limits = {"min_bet": 1, "max_bet": 2, "bet_seconds": 1, "decision_seconds": 1}
    table = CasinoTable.objects.using(alias).create(
        name="t", jokers=0, pay_table={}, boxes=4, **limits
    )
    players = {"a": [3, 30], "b": [13], "c": [], "d": [30, 3, 7]}
    for number, (pk, ids) in enumerate(players.items()):
        boxes = list(range(len(ids)))
        CasinoRound.objects.using(alias).create(
            id=pk,
            table=table,
            number=number,
            boxes=boxes,
            players=ids,
            phase="betting",
            started_at=timezone.now(),
        )
    rounds = CasinoRound.objects.using(alias)

    def holding(value: int) -> list[str]:
        return sorted(rounds.filter(players__has=value).values_list("pk", flat=True))

    assert holding(3) == ["a", "d"]
    assert holding(30) == ["a", "d"]
    assert holding(13) == ["b"]
    assert holding(1) == []
    assert sorted(rounds.exclude(players__has=3).values_list("pk", flat=True)) == ["b", "c"]
