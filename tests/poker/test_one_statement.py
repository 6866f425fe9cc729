"""An action inside a hand as one statement (``kernel.commands``).

On PostgreSQL a process that holds a table's work as current
(``poker.work.CURRENT``: what it last read under the lock or wrote)
appends an action inside the hand in one statement, in autocommit, with
no lock.  The store's unique keys catch any other writer since: the
statement fails whole, and the command runs again under the lock.  What
it writes, and when its frames go, is what the locked path writes.  The
races are run between two processes, each with its own current work
(``crash_driver.py``), on a database they share: on SQLite too, where
every command takes the locked path.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction
from prometheus_client import REGISTRY

from kernel.api_errors import ApiError
from kernel.eventstore import Batch, NewEvent, append, command_id_clash
from kernel.models import Clock, Command, Event
from poker import clocks, projections, services, work
from poker.models import Hand, Seat, Table
from tests.poker.api_support import Room, seat_players
from tests.poker.concurrency import assert_log_sound
from tests.poker.processes import (
    BACKENDS,
    Child,
    Refused,
    SharedDatabase,
    children,
    shared_database,
)

PASSIVE = ("check", "call", "stand", "decline", "show")


def tries(outcome: str) -> float:
    """This process's hand actions tried as one statement with ``outcome``."""
    labels = {"kind": "hand.act", "outcome": outcome}
    return REGISTRY.get_sample_value("poker_one_statement_total", labels) or 0.0


def counted() -> dict[str, float]:
    return {o: tries(o) for o in ("written", "conflict", "answered", "declined")}


def more(before: dict[str, float], **outcomes: int) -> dict[str, float]:
    """``before`` with ``outcomes`` added."""
    return {o: n + outcomes.get(o, 0) for o, n in before.items()}


def _act(room: Room, command_id: uuid.UUID | None = None, **more: Any) -> dict[str, Any]:
    """The player to act plays passively through the service."""
    name, _, view = room.to_act()
    hand = view["hand"]
    action = next(a for a in PASSIVE if a in hand["legal"]["actions"])
    return services.hand_act(
        by=room.users[name],
        table_id=room.table,
        hand=hand["id"],
        version=hand["version"],
        action=action,
        command_id=command_id or uuid.uuid4(),
        **more,
    )


def _stored(table: int) -> dict[str, Any]:
    """The table's read models and clocks as stored."""
    hands = Hand.objects.filter(table=table).order_by("number")
    return {
        "table": Table.objects.filter(pk=table).values().get(),
        "seats": list(Seat.objects.filter(table=table).order_by("number").values()),
        "hands": list(hands.values()),
    }


def _stale(room: Room) -> work.Work:
    """The table's current work now, taken out: a copy that goes stale."""
    held = work.CURRENT.take(room.table)
    assert held is not None
    return held


def _hold(stale: work.Work) -> None:
    """This process holds ``stale`` as current (another process wrote since)."""
    work.CURRENT.forget()
    work.CURRENT.keep(stale)


# --------------------------------------------------------------------------
# In one process, on PostgreSQL

pg = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("clocks_on", [False, True])
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_one_statement_writes_what_the_locked_path_writes(
    pg_default, open_table, make_user, client_for, settings, clocks_on
):
    """Action by action, one statement and the locked path alternating: the
    read models are what a rebuild from the log makes, and the turn's
    clock row is set at the hand's new version."""
    settings.CLOCKS_ENABLED = clocks_on
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    before = counted()
    for n in range(6):
        if n % 2:
            work.CURRENT.forget()  # a cold process: the locked path
        reply = _act(room)
        hand = Hand.objects.get(pk=reply["hand"]["id"])
        assert hand.ended_at is None
        stored = _stored(room.table)
        projections.rebuild()
        assert _stored(room.table) == stored
        turns = Clock.objects.filter(stream=hand.stream, kind=clocks.TURN)
        assert list(turns.values_list("version", flat=True)) == (
            [hand.version] if clocks_on else []
        )
    assert counted() == more(before, written=3)
    assert_log_sound(room.table)


def _race(room: Room) -> tuple[Callable[[], dict[str, Any]], work.Work]:
    """The action of the player to act at the version he sees, to send
    twice, and the table's current work as it is now, taken out: another
    process current at that version."""
    name, _, view = room.to_act()
    hand = view["hand"]
    action = next(a for a in PASSIVE if a in hand["legal"]["actions"])

    def send() -> dict[str, Any]:
        return services.hand_act(
            by=room.users[name],
            table_id=room.table,
            hand=hand["id"],
            version=hand["version"],
            action=action,
            command_id=uuid.uuid4(),
        )

    return send, _stale(room)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_frames_go_once_and_only_after_the_statement_committed(
    pg_default, open_table, make_user, client_for, monkeypatch
):
    """Each action's frames are sent once, when another session already
    sees its events; a statement that lost its race sends none."""
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    seen: list[tuple[list[int], list[int]]] = []
    db = connection.settings_dict
    params = {"dbname": db["NAME"], "user": db["USER"], "host": db["HOST"], "port": db["PORT"]}

    def publish(*, table: int, rows: list[Any], **more: Any) -> None:
        streams = {r.stream for r in rows}
        with psycopg.connect(**params, autocommit=True) as other:
            stored = other.execute(
                "SELECT version FROM poker_event WHERE stream = ANY(%s) ORDER BY version",
                [list(streams)],
            ).fetchall()
        seen.append(([r.version for r in rows], [v for (v,) in stored]))

    monkeypatch.setattr(work, "publish", publish)
    _act(room)  # one statement
    send, stale = _race(room)
    work.CURRENT.keep(stale)
    send()  # one statement
    _hold(stale)
    before = counted()
    with pytest.raises(ApiError):
        send()  # at the same version: its statement conflicts; refused under the lock
    assert counted() == more(before, conflict=1)
    _act(room)  # one statement: the locked run left the process current
    assert counted() == more(before, conflict=1, written=1)
    assert len(seen) == 3
    for versions, stored in seen:
        assert set(versions) <= set(stored)  # committed before the frames went
    sent = [v for versions, _ in seen for v in versions]
    assert sent == sorted(set(sent))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_lost_race_conflicts_and_the_command_is_judged_again_under_the_lock(
    pg_default, open_table, make_user, client_for
):
    """Another process wrote the next version since this one's work was
    current: the one statement fails whole on that version's unique key,
    nothing of it stays, and the command is judged again under the lock
    (here: stale, as the other process's action took its version); the
    process is current again after it."""
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    send, stale = _race(room)
    work.CURRENT.keep(stale)
    send()
    events, commands = Event.objects.count(), Command.objects.count()
    _hold(stale)
    before = counted()
    with pytest.raises(ApiError) as refused:
        send()
    assert refused.value.code == "stale_version"
    assert counted() == more(before, conflict=1)
    assert (Event.objects.count(), Command.objects.count()) == (events, commands)
    _act(room)
    assert counted() == more(before, conflict=1, written=1)
    assert_log_sound(room.table)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_stale_process_judges_a_newer_version_again_under_the_lock(
    pg_default, open_table, make_user, client_for
):
    """A client that saw a version newer than this process's work: the
    process's state refuses it (a stale version), so the command is
    judged again under the lock, and carried out there."""
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    stale = _stale(room)
    work.CURRENT.keep(stale)
    _act(room)
    _hold(stale)
    before = counted()
    _act(room)
    assert counted() == more(before, declined=1)
    assert_log_sound(room.table)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_retried_command_id_gets_its_first_answer_from_a_stale_process(
    pg_default, open_table, make_user, client_for
):
    """A command carried out by one process, retried on another whose work
    is from before it: the retry's one statement fails (the command's key,
    or the version it would take), and the retry gets the first answer;
    nothing is appended twice."""
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    name, _, view = room.to_act()
    hand = view["hand"]
    action = next(a for a in PASSIVE if a in hand["legal"]["actions"])
    ask = {"table_id": room.table, "hand": hand["id"], "version": hand["version"]}
    command_id = uuid.uuid4()
    stale = _stale(room)
    work.CURRENT.keep(stale)
    first = services.hand_act(by=room.users[name], action=action, command_id=command_id, **ask)
    events = Event.objects.count()
    _hold(stale)
    before = counted()
    again = services.hand_act(by=room.users[name], action=action, command_id=command_id, **ask)
    assert again == first
    assert Event.objects.count() == events
    after = counted()
    assert after["answered"] + after["conflict"] == before["answered"] + before["conflict"] + 1
    assert after["written"] == before["written"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_command_id_with_other_content_is_refused_on_the_one_statement_path(
    pg_default, open_table, make_user, client_for
):
    """An id carried out, sent again with another action that the state
    now allows: the one statement fails on the command's key (not a
    version: the process is current) and the command is refused."""
    room = seat_players(open_table, make_user, client_for, ("ann", "bob", "cid"))
    command_id = uuid.uuid4()
    first = room.to_act()[0]
    _act(room, command_id)
    while room.to_act()[0] != first:  # his turn again
        _act(room)
    events, before = Event.objects.count(), counted()
    with pytest.raises(ApiError) as refused:
        _act(room, command_id)
    assert refused.value.code == "command_id_reused"
    assert Event.objects.count() == events
    assert counted() == before  # neither written nor a conflict


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_command_key_is_told_from_a_version_by_the_constraint_name(pg_default):
    """``command_id_clash``: the command's key, yes; a stream's version, no."""
    taken = uuid.uuid4()
    append([Batch("s-1", 0, [NewEvent("e", {})])], command_id=taken)
    for batch, command_id, clash in (
        (Batch("s-2", 0, [NewEvent("e", {})]), taken, True),
        (Batch("s-1", 0, [NewEvent("e", {})]), uuid.uuid4(), False),
    ):
        with pytest.raises(IntegrityError) as error, transaction.atomic():
            append([batch], command_id=command_id)
        assert command_id_clash(error.value) is clash
    assert Command.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_hand_end_takes_the_locked_path_and_sqlite_always_does(open_table, make_user, client_for):
    """The action that ends a hand (it settles the pot on the table, and
    deals) is declined before any statement and runs under the lock; on
    SQLite nothing is held and every command takes the locked path."""
    room = seat_players(open_table, make_user, client_for)  # heads up: a fold ends the hand
    postgres = connection.vendor == "postgresql"
    before = counted()
    name, _, view = room.to_act()
    hand = view["hand"]
    services.hand_act(
        by=room.users[name],
        table_id=room.table,
        hand=hand["id"],
        version=hand["version"],
        action="fold",
    )
    assert Hand.objects.get(pk=hand["id"]).ended_at is not None
    assert counted() == more(before, declined=int(postgres))
    assert (work.CURRENT.take(room.table) is not None) is postgres  # the next hand's


# --------------------------------------------------------------------------
# Two processes, each with its own current work, on one table


@pytest.fixture(scope="module", params=BACKENDS)
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SharedDatabase]:
    yield from shared_database(request.param, tmp_path_factory, "one-statement")


@pytest.fixture
def start(shared: SharedDatabase) -> Iterator[Callable[[], Child]]:
    yield from children(shared)


ROUNDS = 6


def _move(play: dict[str, Any]) -> dict[str, Any]:
    legal = play["legal"]["actions"]
    return {"seat": play["to_act_seat"], "action": next(a for a in PASSIVE if a in legal)}


def _versions(picture: dict[str, Any]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for stream, version, *_ in picture["events"]:
        out.setdefault(stream, []).append(version)
    return out


def test_two_processes_racing_on_one_table_lose_no_version_and_conserve_chips(shared, start):
    """Two processes both current at a hand's version send the same action
    at once, round after round: one is carried out, the other is told its
    version is stale, never both, never neither.  On PostgreSQL both try
    one statement; the loser's conflicts on the version's unique key and
    runs again under the lock (which leaves it current for the next
    round).  Every stream runs 1..n, the hand plays on to its end, and
    chips are conserved."""
    one, two = start(), start()
    table = one.call("setup", prefix="race", players=["ann", "bob", "cy"], buy_in=100)["table"]
    seen = one.call("look", table=table)
    while len(seen["play"]["cards"]) < 3:  # a three-handed hand: rounds to play
        seen = one.call("finish", table=table, hand=seen["play"]["hand"])
    hand = seen["play"]["hand"]
    for child in (one, two):  # each reads the table under its lock: current
        with pytest.raises(Refused, match="stale_version"):
            child.call("act", table=table, version=0, **_move(seen["play"]))
    rounds = 0
    while rounds < ROUNDS:
        play = seen["play"]
        if play is None or play["hand"] != hand or play["phase"] == "complete":
            break
        rounds += 1
        ask = {"table": table, "version": play["version"], **_move(play)}
        for child in (one, two):
            child.send("act", **ask)
        replies = [child.receive() for child in (one, two)]
        won = [r["ok"] for r in replies if "ok" in r]
        lost = [r["refused"] for r in replies if "refused" in r]
        assert len(won) == 1 and lost in (["stale_version"], ["out_of_turn"]), replies
        seen = one.call("look", table=table)
        assert won[0]["version"] == seen["play"]["version"]
    end = one.call("finish", table=table, hand=hand)
    for stream, versions in _versions(end).items():
        assert versions == list(range(1, len(versions) + 1)), stream
    chips = end["chips"]
    assert chips["seated"] == chips["brought"] - chips["taken"], chips
    counts = [child.call("tries") for child in (one, two)]
    conflicts = sum(c.get("conflict", 0) for c in counts)
    written = sum(c.get("written", 0) for c in counts)
    assert rounds >= 3
    if shared.vendor == "postgres":
        assert conflicts >= rounds and written >= rounds, counts
    else:
        assert conflicts == written == 0, counts
    assert one.call("rebuilt", table=table)
