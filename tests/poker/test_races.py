"""Commands racing on one table over real database connections.

Every racer runs on its own thread, so Django gives it its own connection,
and a barrier starts them at the same instant.  Each race is repeated
``REPEATS`` times on a fresh table, after one round in lock-step (the loser
queued on the table lock behind the winner's open transaction: the
interleaving a race produces only sometimes).  The services race on the ``default``
database, which must be PostgreSQL for the table lock to mean anything
(SQLite ignores SELECT ... FOR UPDATE): those tests ask for ``pg_default``
(tests/conftest.py), which points ``default`` at the ``postgres`` alias when
``DATABASE_URL`` is not PostgreSQL; the event-store race runs on the
``postgres`` alias directly and needs no table lock at all.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.forms.models import model_to_dict

from kernel.api_errors import ApiError
from kernel.eventstore import AlreadyDone, Batch, NewEvent, StreamConflict, append, classify, load
from kernel.models import Command, Event
from poker import projections, services
from poker.consumers import TableConsumer
from poker.models import Hand, Seat, Table
from tests.funds import fund
from tests.poker.concurrency import Outcome, assert_log_sound, lockstep, race

REPEATS = 30

LOSING_CODES = {"stale_version", "out_of_turn"}
"""What the loser of two actions at one hand version may be told."""

ENDED_HAND_CODE = "not_found"
"""What he is told today when the winner's action ended the hand (a bug:
see ``test_an_action_at_a_version_of_a_hand_that_has_since_ended_is_stale``)."""

EVENT_OF = {
    "call": "hand.called",
    "fold": "hand.folded",
    "raise": "hand.raised",
    "check": "hand.checked",
}


# --------------------------------------------------------------------------
# A fresh table per round: ann and bob in hand 1 (heads-up), cy seated
# after the deal and not in it, dee standing by.


@dataclass
class Room:
    table: int
    hand: str
    version: int
    users: dict[int, Any]
    """Seat number -> user."""
    to_act: Any
    other: Any
    """The other player in the hand."""

    def act(self, user: Any, action: str, command_id: uuid.UUID | None = None) -> Any:
        verb, _, amount = action.partition(" ")
        return services.hand_act(
            by=user,
            table_id=self.table,
            hand=self.hand,
            version=self.version,
            action=verb,
            amount=int(amount) if amount else None,
            command_id=command_id or uuid.uuid4(),
        )


@pytest.fixture
def people() -> dict[str, Any]:
    model = get_user_model()
    names = ("boss", "ann", "bob", "cy", "dee")
    return {n: fund(model.objects.create(username=n, is_staff=n == "boss")) for n in names}


@pytest.fixture
def new_room(people: dict[str, Any]) -> Callable[[], Room]:
    def make() -> Room:
        table = services.table_create(
            by=people["boss"],
            name="race",
            game="32-card-draw",
            betting="no-limit",
            small_blind=1,
            big_blind=2,
        )
        users = {1: people["ann"], 2: people["bob"], 3: people["cy"]}
        for seat, user in users.items():
            view = services.seat_sit(
                by=user, table_id=table.pk, seat=seat, buy_in=100, command_id=uuid.uuid4()
            )
        hand = view["hand"]
        to_act = users[hand["to_act_seat"]]
        other = users[next(s for s in hand["seats"] if s != hand["to_act_seat"])]
        return Room(table.pk, hand["id"], hand["version"], users, to_act, other)

    return make


def last_event_id() -> int:
    return Event.objects.order_by("-id").values_list("id", flat=True).first() or 0


def hand_events_after(room: Room) -> list[Event]:
    return list(
        Event.objects.filter(stream=f"hand-{room.hand}", version__gt=room.version).order_by(
            "version"
        )
    )


def as_json(value: Any) -> Any:
    """What a client would receive."""
    return json.loads(json.dumps(value))


def projections_rebuilt_unchanged() -> None:
    """The read models equal a replay of the whole log."""

    def snapshot() -> dict[str, Any]:
        return {
            "tables": {t.pk: model_to_dict(t) for t in Table.objects.all()},
            "seats": {
                (s.table_id, s.number): model_to_dict(s, exclude=["id"]) for s in Seat.objects.all()
            },
            "hands": {
                h.pk: model_to_dict(h) | {"started_at": h.started_at, "ended_at": h.ended_at}
                for h in Hand.objects.all()
            },
        }

    before = snapshot()
    projections.rebuild()
    assert snapshot() == before


# --------------------------------------------------------------------------
# Two players, one instant


def side_moves(people: dict[str, Any]) -> dict[str, tuple[Callable[..., Any], Callable[..., Any]]]:
    """Commands of somebody other than the player to act: (who and which
    seat, the command)."""
    cy, dee = people["cy"], people["dee"]

    def other(room: Room) -> tuple[Any, int]:
        return room.other, next(s for s, u in room.users.items() if u == room.other)

    return {
        # cy is not in hand 1 but is dealt into hand 2 if a fold ends hand 1
        # first: then his top-up waits for that hand to finish.
        "cy tops up": (
            lambda room: (cy, 3),
            lambda room, cid: services.seat_top_up(
                by=cy, table_id=room.table, amount=20, command_id=cid
            ),
        ),
        "other tops up": (
            other,
            lambda room, cid: services.seat_top_up(
                by=room.other, table_id=room.table, amount=20, command_id=cid
            ),
        ),
        "dee sits": (
            lambda room: (dee, 4),
            lambda room, cid: services.seat_sit(
                by=dee, table_id=room.table, seat=4, buy_in=100, command_id=cid
            ),
        ),
        "cy sits out": (
            lambda room: (cy, 3),
            lambda room, cid: services.seat_sit_out(by=cy, table_id=room.table, command_id=cid),
        ),
    }


SIDE_EVENTS = {
    "cy tops up": {"table.topped_up", "table.top_up_queued"},
    "other tops up": {"table.topped_up", "table.top_up_queued"},
    "dee sits": {"table.player_seated"},
    "cy sits out": {"table.sat_out"},
}

Runner = Callable[..., list[Outcome]]


def two_players_round(
    room: Room, people: dict[str, Any], action: str, name: str, run: Runner
) -> str:
    """The player to act and someone else, each with his command; both must
    be carried out and recorded once.  Which one went first."""
    whom, command = side_moves(people)[name]
    _, seat = whom(room)
    ids = uuid.uuid4(), uuid.uuid4()
    before = last_event_id()
    outcomes = run(partial(room.act, room.to_act, action, ids[0]), partial(command, room, ids[1]))

    assert all(o.ok for o in outcomes), (action, name, [o.code for o in outcomes])
    assert Command.objects.filter(id__in=ids).count() == 2
    acted = hand_events_after(room)[0]
    assert acted.type == EVENT_OF[action] and acted.command_id == ids[0]
    side = [e.type for e in Event.objects.filter(command_id=ids[1]) if e.data["seat"] == seat]
    assert len(side) == 1 and side[0] in SIDE_EVENTS[name], (name, side)
    assert all(e.command_id in ids for e in Event.objects.filter(id__gt=before))
    assert_log_sound(room.table)
    came_first = Event.objects.filter(id__gt=before).order_by("id").first()
    return "action first" if came_first.command_id == ids[0] else "other first"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("pg_default")
def test_two_players_commands_at_one_instant_both_apply_in_some_order(new_room, people):
    """The player to act and another player send commands at the same
    instant: both are carried out, one after the other, and neither is lost.
    Half the actions are folds, which end the hand, so both commands append
    to the table stream at what was the same version.  The first round is in
    lock-step: a top-up queued behind the fold that ends the hand (it must
    read the hand rows as that fold left them, not as its own statement
    started: 5f4b98a fixed an AssertionError there)."""
    two_players_round(new_room(), people, "fold", "cy tops up", lockstep)
    orders: Counter[str] = Counter()
    names = sorted(SIDE_EVENTS)
    for k in range(REPEATS):
        action = ("call", "fold")[k % 2]
        name = names[(k // 2) % len(names)]
        orders[two_players_round(new_room(), people, action, name, race)] += 1
    print(f"\nwho went first over {REPEATS} rounds: {dict(orders)}")
    projections_rebuilt_unchanged()


# --------------------------------------------------------------------------
# One player, two actions at one hand version

PAIRS = [("call", "fold"), ("call", "raise 6"), ("fold", "raise 6"), ("raise 4", "raise 8")]


def two_actions_round(room: Room, actions: tuple[str, str], run: Runner) -> str | None:
    """The player to act sends two actions at one version: exactly one is
    carried out, nothing of the other is written.  The loser's answer."""
    ids = uuid.uuid4(), uuid.uuid4()
    before = last_event_id()
    outcomes = run(
        *(partial(room.act, room.to_act, a, c) for a, c in zip(actions, ids, strict=True))
    )

    winners = [k for k, o in enumerate(outcomes) if o.ok]
    assert len(winners) == 1, [o.code for o in outcomes]
    (win,) = winners
    lose = 1 - win
    acted = hand_events_after(room)
    ended = acted[-1].type == "hand.ended"
    allowed = LOSING_CODES | ({ENDED_HAND_CODE} if ended else set())
    assert outcomes[lose].code in allowed, (actions, win, outcomes[lose].code)
    assert acted[0].type == EVENT_OF[actions[win].split()[0]]
    assert set(Command.objects.filter(id__in=ids).values_list("id", flat=True)) == {ids[win]}
    assert not Event.objects.filter(command_id=ids[lose]).exists()
    assert set(Event.objects.filter(id__gt=before).values_list("command_id", flat=True)) == {
        ids[win]
    }
    assert_log_sound(room.table)
    return outcomes[lose].code


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("pg_default")
def test_one_player_two_actions_at_one_version_exactly_one_wins(new_room):
    """The player to act sends two different actions at the same hand
    version: exactly one is carried out, the other is refused as stale, and
    nothing of the loser is written.  The first round is in lock-step: a
    raise queued behind a call is told stale_version (before 5f4b98a it read
    the old hand version, was decided on the old state and collided on
    append: 409 conflict)."""
    assert two_actions_round(new_room(), ("call", "raise 6"), lockstep) == "stale_version"
    losers: Counter[str | None] = Counter()
    for k in range(REPEATS):
        losers[two_actions_round(new_room(), PAIRS[k % len(PAIRS)], race)] += 1
    print(f"\nlosers' answers over {REPEATS} rounds: {dict(losers)}")
    projections_rebuilt_unchanged()


@pytest.mark.django_db
def test_an_action_at_a_version_of_a_hand_that_has_since_ended_is_stale(new_room):
    """The loser of a race whose winner ended the hand (a fold heads-up) saw
    a real hand at a real version, like any other loser: he is told the hand
    moved on (409 stale_version, with the current view to resync from), not
    that it does not exist."""
    room = new_room()
    room.act(room.to_act, "fold")
    assert Hand.objects.get(pk=room.hand).ended_at is not None
    with pytest.raises(ApiError) as refused:
        room.act(room.to_act, "call")
    assert (refused.value.status, refused.value.code) == (409, "stale_version")
    assert "current" in refused.value.extra


# --------------------------------------------------------------------------
# One command id, twice at once


def same_id_round(room: Room, action: str, run: Runner) -> None:
    """One command sent twice at once: carried out once, both senders get
    the same answer, its events are written once."""
    command_id = uuid.uuid4()
    before = last_event_id()
    outcomes = run(*[partial(room.act, room.to_act, action, command_id)] * 2)

    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    first, second = (as_json(o.value) for o in outcomes)
    assert first == second
    assert Command.objects.filter(id=command_id).count() == 1
    assert {e.command_id for e in Event.objects.filter(id__gt=before)} == {command_id}
    acted = hand_events_after(room)
    assert [e.type for e in acted].count(EVENT_OF[action.split()[0]]) == 1
    assert acted[0].type == EVENT_OF[action.split()[0]]
    assert_log_sound(room.table)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("pg_default")
def test_one_command_id_sent_twice_at_once_runs_once_and_answers_both_alike(new_room):
    """A client fires the same command twice at the same instant: it is
    carried out once, both callers get that one answer, its events are
    written once.  The first round is in lock-step: a fold that ends the
    hand, and its twin queued behind it."""
    same_id_round(new_room(), "fold", lockstep)
    for k in range(REPEATS):
        same_id_round(new_room(), ("call", "fold", "raise 6")[k % 3], race)
    projections_rebuilt_unchanged()


RETRIED = {
    "act": lambda room, user, cid: room.act(user, "call", cid),
    "sit": lambda room, user, cid: services.seat_sit(
        by=user, table_id=room.table, seat=4, buy_in=100, command_id=cid
    ),
    "top_up": lambda room, user, cid: services.seat_top_up(
        by=user, table_id=room.table, amount=20, command_id=cid
    ),
}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("pg_default")
@pytest.mark.parametrize("kind", sorted(RETRIED))
def test_a_retry_queued_behind_its_first_run_gets_the_first_answer(kind, new_room, people):
    """In lock-step: the first run holds the table lock with its events
    appended while the retry, past anything done before the lock, waits on
    it.  The retry must find the first answer, not a refusal from running
    the command again (a stale version, a seat now taken)."""
    room = new_room()
    user = {"act": room.to_act, "sit": people["dee"], "top_up": people["cy"]}[kind]
    command_id = uuid.uuid4()
    before = last_event_id()
    outcomes = lockstep(*[partial(RETRIED[kind], room, user, command_id)] * 2)
    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    first, second = (as_json(o.value) for o in outcomes)
    assert first == second
    assert Command.objects.filter(id=command_id).count() == 1
    assert {e.command_id for e in Event.objects.filter(id__gt=before)} == {command_id}
    assert_log_sound(room.table)


# --------------------------------------------------------------------------
# The event store itself, without the table lock


def events(*types: str) -> list[NewEvent]:
    return [NewEvent(t, {"n": k}) for k, t in enumerate(types)]


def try_append(batches: list[Batch], command_id: uuid.UUID, answer: dict[str, Any]) -> Any:
    """Append in a transaction of its own; the records, or the classified error."""
    try:
        with transaction.atomic(using="postgres"):
            return append(batches, command_id=command_id, answer=answer, using="postgres")
    except IntegrityError as error:
        return classify(error, command_id, using="postgres")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, databases=["postgres"])
def test_two_appends_at_one_expected_version_one_wins_the_other_conflicts():
    """Two connections append to one stream at the same expected version,
    with no lock around them: the unique (stream, version) lets exactly one
    in, the other's IntegrityError is classified as a StreamConflict, and
    the stream stays 1..n."""
    for k in range(REPEATS):
        stream = f"race-{k}"
        with transaction.atomic(using="postgres"):
            append([Batch(stream, 0, events("A", "B")[: 1 + k % 2])], using="postgres")
        at = 1 + k % 2
        writes = [("X", "Y"), ("Z",)]
        ids = uuid.uuid4(), uuid.uuid4()
        outcomes = race(
            *(
                partial(try_append, [Batch(stream, at, events(*w))], c, {"w": list(w)})
                for w, c in zip(writes, ids, strict=True)
            )
        )
        results = [o.value for o in outcomes]
        assert all(o.ok for o in outcomes), [o.error for o in outcomes]
        won = [k for k, r in enumerate(results) if isinstance(r, list)]
        assert len(won) == 1, results
        (win,) = won
        assert isinstance(results[1 - win], StreamConflict), results
        stored = load(stream, using="postgres")
        assert [e.version for e in stored] == list(range(1, at + len(writes[win]) + 1))
        assert [e.type for e in stored[at:]] == list(writes[win])
        done = Command.objects.using("postgres").filter(id__in=ids)
        assert list(done.values_list("id", flat=True)) == [ids[win]]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, databases=["postgres"])
def test_one_command_id_appended_twice_at_once_is_already_done_for_the_second():
    """The same command id appended by two connections at once (to
    different streams, so only the id clashes): one writes, the other waits
    for it, then gets AlreadyDone with the first answer and writes nothing."""
    for k in range(REPEATS):
        command_id = uuid.uuid4()
        streams = f"one-{k}", f"two-{k}"
        outcomes = race(
            *(
                partial(try_append, [Batch(s, 0, events("A"))], command_id, {"by": s})
                for s in streams
            )
        )
        results = [o.value for o in outcomes]
        won = [k for k, r in enumerate(results) if isinstance(r, list)]
        assert len(won) == 1, results
        (win,) = won
        other = results[1 - win]
        assert isinstance(other, AlreadyDone) and other.answer == {"by": streams[win]}
        assert [e.type for e in load(streams[win], using="postgres")] == ["A"]
        assert load(streams[1 - win], using="postgres") == []


# --------------------------------------------------------------------------
# A socket's snapshot beside a command


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("pg_default")
def test_a_snapshot_is_not_held_up_by_a_command_holding_the_table_row(new_room):
    """A socket's snapshot reads one snapshot of the database and takes no
    lock: a command holding the table's row (``FOR UPDATE``, as the locked
    path does) does not hold it up, and it shows the table at its position."""
    room = new_room()
    locked, release, held_too_long = threading.Event(), threading.Event(), []

    def hold() -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=room.table)
                locked.set()
                held_too_long.append(not release.wait(timeout=20))
        finally:
            connection.close()  # this thread's own

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(timeout=10)
        consumer = TableConsumer()
        consumer.feed_id, consumer.user, consumer.viewer = room.table, None, None
        snapshot, *after = consumer.snapshot()
    finally:
        release.set()
        holder.join()
    assert held_too_long == [False]  # the snapshot came while the row was held
    assert snapshot["position"] == Table.objects.get(pk=room.table).position and after == []
    assert snapshot["view"]["hand"]["version"] == room.version
