"""What every hand script reads alike, whatever its game: whole numbers,
the deck (the cards it names on top, the rest in a seeded shuffle) and the
head of an action (``[player, verb, argument?]``).  The pot games'
``script`` and the casino's read through these, so both refuse a bad
script with the same words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from poker.engine.cards import Card, cards, seeded_shuffle
from poker.engine.errors import EngineError, Malformed

DECK_FILL_STREAM = -1
"""Seeded-shuffle stream for the part of the deck a script leaves out
(reshuffles of discards use streams 0, 1, ...)."""

V = TypeVar("V")


class ScriptError(Exception):
    """A refusal, with the index of the action that caused it (None: set-up)."""

    def __init__(self, index: int | None, error: EngineError) -> None:
        super().__init__(error.message)
        self.index = index
        self.error = error


def whole(value: Any) -> int:
    """``value`` if it is a JSON whole number."""
    if type(value) is not int:
        raise Malformed(f"{value!r} is not a whole number")
    return value


def script_deck(script: Mapping[str, Any], deck: Sequence[Card]) -> tuple[tuple[Card, ...], int]:
    """The deck to deal from and the seed: the script's ``deck`` on top, the
    rest of the game's ``deck`` after it in the ``seed``'s shuffle."""
    seed = whole(script.get("seed", 0))
    top = cards(script.get("deck", []))
    rest = [c for c in deck if c not in set(top)]
    if len(set(top)) != len(top) or len(top) + len(rest) != len(deck):
        raise Malformed("the deck repeats a card or holds one the game does not use")
    return top + seeded_shuffle(rest, seed, DECK_FILL_STREAM), seed


def action_head(raw: Any, names: list[str], verbs: Callable[[Any], V]) -> tuple[int, V, list[Any]]:
    """An action's player (by index), its verb (``verbs``: the game's
    action enum) and the rest of it."""
    if not isinstance(raw, list) or len(raw) not in (2, 3):
        raise Malformed(f"an action is [player, verb, argument?], not {raw!r}")
    name, verb, *rest = raw
    if name not in names:
        raise Malformed(f"{name!r} is not a player")
    try:
        action = verbs(verb)
    except ValueError:
        raise Malformed(f"unknown verb {verb!r}") from None
    return names.index(name), action, rest
