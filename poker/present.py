"""Hands as clients see them: players by seat, named by screen name.

The engine numbers a hand's players by position (their index in
``HandStarted.players``, in seat order) and names them by player id; its
views and stored events keep that.  Every view, frame and history that
leaves the server numbers players one way, the way the table view does: by
seat.  So each player reference of the engine's JSON goes through here:
a ``player`` position becomes ``seat``, lists of positions become lists of
seats, and a player's name (the engine's, his user id) becomes his
``player`` id, as in the table view's seats, with his ``screen_name`` to
show.  Only presentation changes; the stored events stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

HandView = dict[str, Any]


def hand_by_seat(seen: HandView, seats: Sequence[int], name: Callable[[str], str]) -> HandView:
    """``engine.view.view``'s hand, by seat: ``seats[i]`` is position i's
    seat, ``name(player id)`` a player's screen name."""
    out = dict(seen)
    out["button"] = seats[seen["button"]]
    out["to_act"] = out["to_act_seat"] = _seat(seats, seen["to_act"])  # the second for old clients
    out["parole_by"] = _seat(seats, seen["parole_by"])
    out["showdown_order"] = [seats[i] for i in seen["showdown_order"]]
    out["pots"] = [
        {"amount": pot["amount"], "eligible": [seats[i] for i in pot["eligible"]]}
        for pot in seen["pots"]
    ]
    out["players"] = [_player(p, seats, name) for p in seen["players"]]
    out["awards"] = [event_by_seat(a, seats, name) for a in seen["awards"]]
    return out


def _player(player: dict[str, Any], seats: Sequence[int], name: Callable[[str], str]) -> Any:
    rest = {k: v for k, v in player.items() if k not in ("position", "name")}
    return {"seat": seats[player["position"]], **_who(player["name"], name), **rest}


def _who(player: str, name: Callable[[str], str]) -> dict[str, Any]:
    """A player as the table view's seats name him: his user id and his
    screen name."""
    return {"player": int(player) if player.isdecimal() else player, "screen_name": name(player)}


def event_by_seat(
    event: dict[str, Any], seats: Sequence[int], name: Callable[[str], str]
) -> dict[str, Any]:
    """One event's JSON (``to_json`` or ``redact``), by seat: ``player``
    becomes ``seat``; the deal, the showdown order, the shares of a pot and
    the players of ``hand.started`` are listed by seat."""
    out = {("seat" if k == "player" else k): v for k, v in event.items()}
    if "seat" in out:
        out["seat"] = seats[out["seat"]]
    kind = event["type"]
    if kind == "hand.started":
        out["button"] = seats[event["button"]]
        out["players"] = [
            {"seat": seats[i], **_who(p["name"], name), "stack": p["stack"]}
            for i, p in enumerate(event["players"])
        ]
    elif kind == "hand.cards_dealt":
        counts = event.get("counts") or [len(h) for h in event["hands"]]
        out.pop("counts", None)
        out["hands"] = [
            {"seat": seats[i], "cards": cards, "count": count}
            for i, (cards, count) in enumerate(zip(event["hands"], counts, strict=True))
        ]
    elif kind == "hand.showdown_started":
        out["order"] = [seats[i] for i in event["order"]]
    elif kind == "hand.pot_awarded":
        out["shares"] = [
            {"seat": seats[s["player"]], "amount": s["amount"]} for s in event["shares"]
        ]
    return out


def _seat(seats: Sequence[int], position: int | None) -> int | None:
    return None if position is None else seats[position]


def copy_by_position(copy: dict[str, Any]) -> dict[str, Any]:
    """A hand history as the API gave it (``selectors.hand_detail``: by
    seat) back in the engine's numbering: its events by position and
    ``your_position`` for ``your_seat``, for ``engine.fairdeal.audit``, which
    works out the deal order from positions.  Position i is the i-th seat
    of the copy's ``seats``.  ``KeyError``, ``ValueError`` or ``TypeError``
    when the copy is not one."""
    seats = [int(s) for s in copy["seats"]]
    mine = copy.get("your_seat")
    return {
        **copy,
        "events": [event_by_position(e, seats) for e in copy["events"]],
        "your_position": None if mine is None else seats.index(mine),
    }


def event_by_position(event: dict[str, Any], seats: Sequence[int]) -> Any:
    """The inverse of ``event_by_seat`` for what it renumbers: seats back
    to positions, lists by seat back to lists by position (the players of
    ``hand.started`` keep their user ids as names)."""
    position = {seat: i for i, seat in enumerate(seats)}
    out = {("player" if k == "seat" else k): v for k, v in event.items()}
    if "player" in out:
        out["player"] = position[out["player"]]
    kind = event["type"]
    if kind == "hand.started":
        out["button"] = position[event["button"]]
        out["players"] = [{"name": str(p["player"]), "stack": p["stack"]} for p in event["players"]]
    elif kind == "hand.cards_dealt":
        out["hands"] = [h["cards"] for h in event["hands"]]
        out["counts"] = [h["count"] for h in event["hands"]]
    elif kind == "hand.showdown_started":
        out["order"] = [position[s] for s in event["order"]]
    elif kind == "hand.pot_awarded":
        out["shares"] = [
            {"player": position[s["seat"]], "amount": s["amount"]} for s in event["shares"]
        ]
    return out
