"""What one action costs the database: the SQL statements of one
``hand_act`` at a cash table on PostgreSQL, BEGIN and COMMIT included.

Issue 12 set the budget at 5 for every action; the command path takes 4
(the table and its hand locked and read in one statement, the command,
its events and the read models it changes written in one, and the
transaction's ends), the action that ends a hand included: settling a hand
reads nothing of its past (the hand's state carries who timed out).  At
a raked cash table the action that ends a hand also posts the rake: one
statement more, its accounts locked and read (``accounts.postings``), as
its writes join the command's.

On a warm process (its work at the table current: ``poker.work.CURRENT``)
an action inside a hand that moves no money is ONE statement, in
autocommit: no BEGIN, no lock, no COMMIT (``kernel.commands``).  The 4
above are the locked path's: a cold process, a hand's end, money moved.
The tests fail if a change makes an action dearer."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import ledger
from accounts.audit import ledger_audit
from accounts.models import Transfer
from accounts.selectors import account_balance
from poker import clocks, services, streams
from poker.models import Hand, Seat, Table
from poker.work import CURRENT
from tests.poker.api_support import Room, ok, seat_players

WARM_BUDGET = 1
"""An action inside a hand on a warm process: its command, events, the
hand's row, the table's feed position and the turn's clock in one
statement, in autocommit."""

BUDGET = 4
"""One action on the locked path: BEGIN, the table and its hand locked and read in one
statement, the command and its events inserted and the read models
updated in one, COMMIT (a seat emptied adds a delete)."""

RAKED_BUDGET = 5
"""The action that ends a raked hand: the budget, and the rake's accounts
(the table's escrow, the house's rake account) locked in id order and read
with whether the transfer's id is taken, so the rake is decided before the
command writes; the transfer, its entries and the balances go in the
command's one write."""

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _statements(sql: list[str]) -> Counter[str]:
    return Counter(s.split()[0].upper() for s in sql)


def _act(room: Room, action: Callable[[list[str]], str]) -> tuple[Hand, list[str]]:
    """The player to act takes ``action(legal actions)`` through the
    service; the hand he acted in and the SQL the command ran."""
    name, _, view = room.to_act()
    hand = Hand.objects.get(pk=view["hand"]["id"])
    with CaptureQueriesContext(connection) as captured:
        services.hand_act(
            by=room.users[name],
            table_id=room.table,
            hand=hand.pk,
            version=view["hand"]["version"],
            action=action(view["hand"]["legal"]["actions"]),
            command_id=uuid.uuid4(),
        )
    return hand, [q["sql"] for q in captured.captured_queries]


def _within_budget(sql: list[str], budget: int = BUDGET) -> None:
    kinds = _statements(sql)
    assert kinds["BEGIN"] + kinds["SAVEPOINT"] <= 1, kinds  # one transaction
    assert len(sql) <= budget, f"{len(sql)} statements ({dict(kinds)}):\n" + "\n".join(sql)


def _call_or_check(actions: list[str]) -> str:
    return "call" if "call" in actions else "check"


def _passive(actions: list[str]) -> str:
    """What keeps the hand going: call, check or stand pat."""
    return next(a for a in ("call", "check", "stand") if a in actions)


def _fold(actions: list[str]) -> str:
    return "fold"


def _ended(hand: Hand) -> bool:
    return Hand.objects.get(pk=hand.pk).ended_at is not None


def test_an_action_inside_a_hand_on_a_warm_process_is_one_statement(
    pg_default: None, open_table, make_user, client_for
) -> None:
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    for _ in range(3):  # each action leaves the process current for the next
        hand, sql = _act(room, _passive)
        assert not _ended(hand)
        assert len(sql) == WARM_BUDGET, sql
        (statement,) = sql
        assert statement.startswith("WITH ") and "FOR UPDATE" not in statement, statement


def test_an_action_on_a_cold_process_takes_the_locked_path_within_the_budget(
    pg_default: None, open_table, make_user, client_for
) -> None:
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    CURRENT.forget()  # another process's table: nothing current here
    hand, sql = _act(room, _call_or_check)
    assert not _ended(hand)
    _within_budget(sql)
    assert _statements(sql)["BEGIN"] == 1 and any("FOR UPDATE" in s for s in sql), sql
    hand, sql = _act(room, _passive)  # the locked path left it current
    assert len(sql) == WARM_BUDGET, sql


def test_the_action_that_ends_a_hand_and_deals_the_next_keeps_the_budget(
    pg_default: None, open_table, make_user, client_for
) -> None:
    room = seat_players(open_table, make_user, client_for)  # heads up: a fold ends it
    hand, sql = _act(room, _fold)
    assert _ended(hand)
    assert Table.objects.get(pk=room.table).hand_number == hand.number + 1  # dealt in it
    _within_budget(sql)


def test_the_action_that_ends_a_hand_before_its_pause_keeps_the_budget(
    pg_default: None, open_table, make_user, client_for, settings: Any
) -> None:
    settings.CLOCKS_ENABLED = True  # the pause holds the next deal; timers to the memory broker
    room = seat_players(open_table, make_user, client_for, pause_seconds=60)
    hand, sql = _act(room, _fold)
    assert _ended(hand)
    assert Table.objects.get(pk=room.table).hand_number == hand.number  # nothing dealt
    _within_budget(sql)


def test_a_player_timed_out_in_an_earlier_command_sits_out_at_the_hand_end_from_a_cold_fold(
    pg_default: None, open_table, make_user, client_for
) -> None:
    """What settling the hand no longer reads (the timed-out events) comes
    from the hand's state, folded from the events alone by a process that
    never saw them (the folds forgotten)."""
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    room.play_until(lambda view: len(view["hand"]["players"]) == 3)  # cid waits to be dealt in
    hand = Hand.objects.get(pk=room.view()["hand"]["id"])
    idle = hand.to_act_seat
    long_ago = timezone.now() - timedelta(hours=1)
    Hand.objects.filter(pk=hand.pk).update(turn_started_at=long_ago)
    hand.refresh_from_db()
    clocks.clock_expire(table_id=room.table, stream=hand.stream, version=hand.version)
    streams.hands.forget()
    streams.tables.forget()
    CURRENT.forget()
    ended, sql = _act(room, _fold)
    assert ended == hand and _ended(hand)
    _within_budget(sql)
    sitting_out = dict(Seat.objects.filter(table=room.table).values_list("number", "sitting_out"))
    assert sitting_out == {n: n == idle for n in (1, 2, 3)}


def test_the_action_that_ends_a_raked_hand_keeps_the_raked_budget(
    pg_default: None, open_table, make_user, client_for
) -> None:
    """At a raked cash table the hand's end also posts the rake (the table's
    escrow to the house's rake account), balanced, within ``RAKED_BUDGET``."""
    rake = {"rake_basis_points": 2500, "rake_cap": 3, "rake_min_pot": 0}
    room = seat_players(open_table, make_user, client_for, game="five-card-draw", **rake)
    with transaction.atomic():  # as any hand raked before made it (the escrow: the buy-ins)
        ledger.accounts_lock([ledger.rake()])
    for action in ("call", "check", "stand", "stand", "check", "check", "show"):
        ok(room.act(action))
    hand, sql = _act(room, lambda actions: "show")
    assert _ended(hand)
    _within_budget(sql, RAKED_BUDGET)
    (transfer,) = Transfer.objects.filter(kind=Transfer.Kind.RAKE)
    entries = dict(transfer.entries.values_list("account__key", "amount"))
    assert entries == {ledger.table(room.table).key: -1, ledger.rake().key: 1}
    assert account_balance(ledger.rake()) == 1
    assert ledger_audit() == []
