"""Helpers for the API tests (tests/poker/test_api_*.py): requests, refusals
that must change nothing, playing hands through the API, and what card
codes a viewer may see.

Players are addressed by their client; ``Room.clients`` maps a user's id
(the ``player`` of a seat in a table view) to his client, so the driver can
always find the client whose turn it is.
"""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

from accounts.models import Account, Transfer
from kernel.models import Command, Event
from poker.engine.cards import SEED_BITS
from poker.models import Hand, Seat, Table

# --------------------------------------------------------------------------
# Requests


def post(client: APIClient, path: str, body: Any = None, **more: Any) -> Any:
    """POST ``body`` (or the keyword arguments) as JSON."""
    return client.post(path, more if body is None else body, format="json")


def command(client: APIClient, table: int, name: str, **body: Any) -> Any:
    """A seat command (sit, leave, top-up, sit-out, sit-in) with a fresh command id."""
    body.setdefault("command_id", str(uuid.uuid4()))
    return post(client, f"/api/tables/{table}/{name}/", body)


def view_of(client: APIClient, table: int) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table}/")
    assert response.status_code == 200, response.content
    return response.json()


def ok(response: Any, status: int = 200) -> Any:
    """The JSON body of a response that must have succeeded."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    """The body of a refusal: ``status``, a JSON body with ``code`` and a message."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    return body


def action_body(view: dict[str, Any], action: str, **more: Any) -> dict[str, Any]:
    hand = view["hand"]
    return {
        "hand": hand["id"],
        "version": hand["version"],
        "command_id": str(uuid.uuid4()),
        "action": action,
        **more,
    }


# --------------------------------------------------------------------------
# Nothing changes


def snapshot(table: int | None, clients: tuple[APIClient, ...] = ()) -> dict[str, Any]:
    """Everything a refused request must leave as it was: the event log, the
    command log, the read models, the ledger and the table as each client
    sees it."""
    state: dict[str, Any] = {
        "events": Event.objects.count(),
        "last_event": Event.objects.order_by("-id").values_list("id", flat=True).first(),
        "commands": Command.objects.count(),
        "tables": list(Table.objects.order_by("id").values()),
        "seats": list(Seat.objects.order_by("id").values()),
        "hands": list(Hand.objects.order_by("id").values()),
        "transfers": Transfer.objects.count(),
        "balances": list(Account.objects.order_by("id").values_list("key", "balance")),
    }
    if table is not None:
        state["views"] = [view_of(c, table) for c in (APIClient(), *clients)]
    return state


@contextmanager
def unchanged(table: int | None, *clients: APIClient) -> Iterator[None]:
    """Assert the block changed nothing at all."""
    before = snapshot(table, clients)
    yield
    assert snapshot(table, clients) == before


# --------------------------------------------------------------------------
# A table with players


@dataclass
class Room:
    """One table and the clients of its players (and of a few onlookers)."""

    table: int
    clients: dict[int, APIClient] = field(default_factory=dict)
    users: dict[str, Any] = field(default_factory=dict)

    def client(self, name: str) -> APIClient:
        return self.clients[self.users[name].pk]

    def view(self, name: str | None = None) -> dict[str, Any]:
        """The table as ``name`` (a spectator for None) sees it."""
        return view_of(APIClient() if name is None else self.client(name), self.table)

    def seat_of(self, name: str) -> dict[str, Any] | None:
        pk = self.users[name].pk
        return next((s for s in self.view()["seats"] if s["player"] == pk), None)

    def to_act(self) -> tuple[str, APIClient, dict[str, Any]]:
        """Who must act now, his client and his view."""
        public = self.view()
        hand = public["hand"]
        assert hand is not None and hand["to_act_seat"] is not None, hand
        pk = next(s["player"] for s in public["seats"] if s["seat"] == hand["to_act_seat"])
        name = next(n for n, u in self.users.items() if u.pk == pk)
        client = self.clients[pk]
        return name, client, view_of(client, self.table)

    def act(self, action: str, **more: Any) -> Any:
        """The player to act takes ``action``; the response."""
        _, client, view = self.to_act()
        return post(client, f"/api/tables/{self.table}/actions/", action_body(view, action, **more))

    def finish_hand(self) -> dict[str, Any]:
        """Play the running hand to its end as passively as the rules allow;
        the public view after it."""
        start = self.view()["hand"]
        assert start is not None and start["phase"] != "complete"
        while True:
            public = self.view()
            hand = public["hand"]
            if hand is None or hand["id"] != start["id"] or hand["phase"] == "complete":
                return public
            _, client, mine = self.to_act()
            action = passive(mine["hand"]["legal"]["actions"])
            ok(post(client, f"/api/tables/{self.table}/actions/", action_body(mine, action)))

    def play_until(self, done: Callable[[dict[str, Any]], bool], hands: int = 12) -> None:
        """Finish hands until ``done(public view)``."""
        for _ in range(hands):
            if done(self.view()):
                return
            self.finish_hand()
        raise AssertionError("never got there")


def own(hand: dict[str, Any]) -> dict[str, Any]:
    """The viewer's own player in a hand view (players are listed by seat)."""
    return next(p for p in hand["players"] if p["seat"] == hand["your_seat"])


def passive(actions: list[str]) -> str:
    for action in ("fold", "check", "stand", "decline", "muck", "show"):
        if action in actions:
            return action
    return actions[0]


def random_action(
    rng: random.Random, hand: dict[str, Any], draw_all: float = 0.0
) -> dict[str, Any]:
    """A random legal action for the player to act, leaning to calls so hands
    reach the draw and the showdown; ``draw_all``: how often a discard throws
    as many cards as allowed (to run the stub out)."""
    legal = hand["legal"]
    weights = {"fold": 1, "call": 4, "check": 4, "raise": 1, "bet": 1, "muck": 1, "show": 2}
    actions = [a for a in legal["actions"] for _ in range(weights.get(a, 2))]
    action = rng.choice(actions)
    more: dict[str, Any] = {"action": action}
    if action == "bet":
        more["amount"] = rng.randint(legal["min_bet_to"], legal["max_bet_to"])
    elif action == "raise":
        more["amount"] = rng.randint(legal["min_raise_to"], legal["max_raise_to"])
    elif action == "discard":
        mine = own(hand)
        most = legal["max_discard"]
        count = most if rng.random() < draw_all else rng.randint(1, most)
        more["cards"] = rng.sample(mine["cards"], count)
    return more


# --------------------------------------------------------------------------
# Cards a viewer may see

RANKS = "23456789TJQKA"
SUITS = "hdcs"
ALL_CARDS = frozenset(r + s for r in RANKS for s in SUITS)
_CARDS = re.compile(r"(?:[2-9TJQKA][hdcs]|\?\?)+")
"""A word of nothing but two-letter card codes: each alternative is two
characters long, so a match is cut into codes at every second character."""
_TOKEN = re.compile(r"[0-9A-Za-z?]+")


def card_codes(text: str) -> set[str]:
    """Card codes in a piece of text: a word made of nothing but two-letter
    card codes (``Ah``, ``AhKd``, PHH's ``??`` for a hidden card)."""
    found: set[str] = set()
    for token in _TOKEN.findall(text):
        if _CARDS.fullmatch(token):
            found.update(token[i : i + 2] for i in range(0, len(token), 2))
    found.discard("??")
    return found


def cards_in(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card code anywhere in a JSON value (keys in ``skip`` left out)."""
    if isinstance(value, dict):
        return set().union(
            *(cards_in(k, skip) | cards_in(v, skip) for k, v in value.items() if k not in skip)
        )
    if isinstance(value, list):
        return set().union(*(cards_in(v, skip) for v in value))
    if isinstance(value, str):
        return card_codes(value)
    return set()


def hand_events(hand_id: str, upto: int | None = None) -> list[Event]:
    events = Event.objects.filter(stream=f"hand-{hand_id}").order_by("version")
    return list(events if upto is None else events.filter(version__lte=upto))


def position_of(hand_id: str, user: Any) -> int | None:
    """The user's position in a hand, from its first event (None: not dealt in)."""
    if user is None:
        return None
    started = hand_events(hand_id)[0]
    names = [p["name"] for p in started.data["players"]]
    return names.index(str(user.pk)) if str(user.pk) in names else None


def visible_cards(hand_id: str, upto: int, position: int | None) -> set[str]:
    """What the player in ``position`` (None: a spectator) may have seen of a
    hand up to version ``upto``: his own cards and the hands shown."""
    seen: set[str] = set()
    for event in hand_events(hand_id, upto):
        data = event.data
        if event.type == "hand.cards_dealt" and position is not None:
            seen.update(data["hands"][position])
        elif event.type == "hand.shown" or (
            event.type == "hand.cards_drawn" and data["player"] == position
        ):
            seen.update(data["cards"])
    return seen


def held_cards(hand_id: str, upto: int, position: int) -> list[str]:
    """The cards the player in ``position`` holds at version ``upto``."""
    held: list[str] = []
    for event in hand_events(hand_id, upto):
        data = event.data
        if event.type == "hand.cards_dealt":
            held = list(data["hands"][position])
        elif event.type == "hand.discarded" and data["player"] == position:
            held = [c for c in held if c not in data["cards"]]
        elif event.type == "hand.cards_drawn" and data["player"] == position:
            held += data["cards"]
        elif event.type == "hand.folded" and data["player"] == position:
            held = []
    return held


def seat_players(
    open_table: Callable[..., dict[str, Any]],
    make_user: Callable[..., Any],
    client_for: Callable[[Any], APIClient],
    names: tuple[str, ...] = ("ann", "bob"),
    *,
    buy_in: int = 100,
    **settings: Any,
) -> Room:
    """Open a table with ``settings`` and sit ``names`` in seats 1, 2, ...
    (the first hand starts as soon as two are seated)."""
    room = Room(open_table(**settings)["table"]["id"])
    for seat, name in enumerate(names, start=1):
        room.users[name] = user = make_user(name)
        room.clients[user.pk] = client_for(user)
        ok(command(room.client(name), room.table, "sit", seat=seat, buy_in=buy_in))
    return room


def add_user(room: Room, make_user: Callable[..., Any], client_for: Any, name: str) -> APIClient:
    """A user who has not sat down (yet); his client."""
    room.users[name] = user = make_user(name)
    room.clients[user.pk] = client = client_for(user)
    return client


def table_events(table: int, *types: str) -> list[Event]:
    events = Event.objects.filter(stream=f"table-{table}").order_by("version")
    return list(events.filter(type__in=types) if types else events)


def seed_decks(monkeypatch: Any, seed: int) -> None:
    """Deal from decks shuffled by ``random.Random(seed)`` instead of the OS's
    secure source, so a random session replays the same hands."""
    import poker.work

    rng = random.Random(seed)

    def shuffled(deck: Any) -> tuple[Any, ...]:
        order = list(deck)
        rng.shuffle(order)
        return tuple(order)

    monkeypatch.setattr(poker.work, "shuffled", shuffled)
    monkeypatch.setattr(poker.work, "secret_seed", lambda: rng.getrandbits(SEED_BITS))
