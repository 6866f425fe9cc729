"""The strategy card's lines: one template per kind of line, so a line
can be written in English (``card_line``, what the solver stores and the
report prints) and read back into its kind and values (``card_line_parts``,
what the API gives a client to word in the player's language).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from poker.engine.casino.paytable import Hand

LINES: Final[Mapping[str, str]] = {
    "play_none": "Play with nothing (always fold) or better; fold anything less.",
    "play_pair": "Play with a pair of {rank}s or better; fold anything less.",
    "play": "Play with {hand} or better; fold anything less.",
    "stand": "Dealt {hand}: stand pat ({share} of such hands).",
    "change_one": "Dealt {hand}: change 1 card ({share} of such hands).",
    "change": "Dealt {hand}: change {count} cards ({share} of such hands).",
    "second": (
        "After a first exchange, holding {hand}: take the second exchange ({share} of such hands)."
    ),
    "no_jokers": "The deck has no jokers.",
    "never_throw_joker": "Never throw a joker.",
    "keep_jokers": "Keep jokers (one is thrown in {share} of hands dealt one).",
}
"""Each kind of line: ``{hand}`` a hand's words (``HAND_WORDS``), ``{rank}``
a rank's letter, ``{count}`` a number of cards, ``{share}`` a percentage."""

HAND_WORDS: Final[Mapping[Hand, str]] = {
    Hand.HIGH_CARD: "no pair",
    Hand.PAIR: "a pair",
    Hand.TWO_PAIR: "two pair",
    Hand.THREE_OF_A_KIND: "three of a kind",
    Hand.STRAIGHT: "a straight",
    Hand.FLUSH: "a flush",
    Hand.FULL_HOUSE: "a full house",
    Hand.FOUR_OF_A_KIND: "four of a kind",
    Hand.STRAIGHT_FLUSH: "a straight flush",
    Hand.ROYAL_FLUSH: "a royal flush",
    Hand.FIVE_OF_A_KIND: "five of a kind",
}
_HANDS_BY_WORDS: Final = {words: hand for hand, words in HAND_WORDS.items()}


def card_line(kind: str, *, hand: Hand | None = None, **values: str | int) -> str:
    """The English line of ``kind`` with its values."""
    if hand is not None:
        values["hand"] = HAND_WORDS[hand]
    return LINES[kind].format(**values)


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(regex)


_PATTERNS: Final = {kind: _pattern(template) for kind, template in LINES.items()}


def card_line_parts(line: str) -> dict[str, object]:
    """A stored line as ``{"kind", "values"}`` (a hand by its ``Hand``
    value); ``{"kind": "text", "values": {"text": line}}`` for a line no
    template writes."""
    for kind, pattern in _PATTERNS.items():
        found = pattern.fullmatch(line)
        if found is None:
            continue
        values: dict[str, str] = dict(found.groupdict())
        if "hand" in values:
            hand = _HANDS_BY_WORDS.get(values["hand"])
            if hand is None:
                continue
            values["hand"] = hand.value
        return {"kind": kind, "values": values}
    return {"kind": "text", "values": {"text": line}}
