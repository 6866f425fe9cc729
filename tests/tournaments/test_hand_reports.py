"""A hand's end at a tournament table reaches the tournament after the
table's command has committed, in a command of the tournament's own
(``poker.work.hand_finished``, ``tournaments.play.hand_over``):
the table never calls into the tournament inside its transaction.  A
report lost between the two commits (the process died, the report
failed) is made by the deal sweep, and the player's answer stands."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from bench.simulation import Passive
from poker import streams, work
from poker.engine.rules import Game
from poker.engine.table import TableConfig
from poker.models import Hand, Table
from tests.tournaments.service_support import (
    bot_act,
    create,
    register,
    state,
    tournament_tables,
)
from tournaments import play
from tournaments.rules import queries as q

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pools_paid", "pg_default"),
    pytest.mark.postgres,
]


@pytest.fixture
def only_receiver() -> Iterator[Callable[[Any], None]]:
    """Have one receiver alone hear of finished hands while the test runs:
    the tournaments' own is connected again after it (``ready`` connects
    each receiver once, by its ``dispatch_uid``)."""
    signal, mine = work.hand_finished, "test-hand-finished"
    signal.disconnect(dispatch_uid="tournament-hand-over")

    def connect(receiver: Any) -> None:
        signal.connect(receiver, weak=False, dispatch_uid=mine)

    yield connect
    signal.disconnect(dispatch_uid=mine)
    apps.get_app_config("tournaments").ready()


def _heads_up(director: Any, players: Any, settings: Any) -> tuple[Any, Table, dict[str, Any]]:
    settings.TOURNAMENT_TABLES = True
    people = players(2)
    t = create(director, game=Game.THIRTY_TWO_CARD_DRAW, sit_and_go=True, max_players=2)
    register(t, *people)
    (table,) = tournament_tables(t)
    return t, table, {str(u.pk): u for u in people}


def _play_to_the_end(table: Table, users: dict[str, Any]) -> list[Any]:
    """Passive bots play the hand at ``table`` to its end; their answers."""
    table.refresh_from_db()
    hand = table.current_hand_id
    answers = []
    for _ in range(200):
        if Hand.objects.get(pk=hand).ended_at is not None:
            return answers
        act = bot_act(table, users, Passive())
        assert act is not None
        answers.append(act())
    raise AssertionError("the hand never ended")


def _stacks_agree(t: Any) -> bool:
    tables = Table.objects.filter(tournament=t.pk).exclude(status=Table.Status.CLOSED)
    chips = sum(streams.tables.state(x.stream, x.version).chips for x in tables)
    return chips == sum(e.stack for e in q.alive(state(t)))


def test_the_tournament_hears_of_a_hand_once_the_table_has_committed(
    director: Any, players: Any, settings: Any, only_receiver: Callable[[Any], None]
) -> None:
    t, table, users = _heads_up(director, players, settings)
    heard: list[tuple[int, bool]] = []
    hand_over = play.hand_over

    def listener(sender: Any, table_id: int, config: TableConfig, **_: Any) -> None:
        heard.append((table_id, connection.in_atomic_block))
        hand_over(sender, table_id=table_id, config=config)

    only_receiver(listener)
    before = state(t).tables[1].hand
    assert before is not None
    _play_to_the_end(table, users)
    assert heard == [(table.pk, False)]  # after the commit, outside any transaction
    after = state(t)
    assert after.tables[1].hand != before  # reported (and the next hand dealt, or none)
    assert _stacks_agree(t)


def test_a_lost_report_is_made_by_the_sweep_and_the_answer_stands(
    director: Any, players: Any, settings: Any, only_receiver: Callable[[Any], None]
) -> None:
    t, table, users = _heads_up(director, players, settings)

    def dies(sender: Any, table_id: int, config: TableConfig, **_: Any) -> None:
        raise RuntimeError("the process died before the tournament heard")

    only_receiver(dies)
    running = state(t).tables[1].hand
    answers = _play_to_the_end(table, users)
    assert answers and all(isinstance(a, dict) for a in answers)  # no error reached the player
    assert state(t).tables[1].hand == running  # the tournament never heard
    table.refresh_from_db()
    assert table.next_hand_at is not None

    play.sweep_deals(timezone.now() + timedelta(hours=1))
    assert state(t).tables[1].hand != running  # reported by the sweep
    assert _stacks_agree(t)
    play.sweep_deals(timezone.now() + timedelta(hours=1))  # nothing more to report: no error
    assert _stacks_agree(t)
