"""The strategy card's lines are written from templates and read back into
their kind and values, so a client words them in the player's language."""

from __future__ import annotations

import pytest

from poker.engine.casino.card_lines import LINES, card_line, card_line_parts
from poker.engine.casino.paytable import Hand

VALUES = {"rank": "Q", "count": 3, "share": "91%"}


@pytest.mark.parametrize("kind", list(LINES))
@pytest.mark.parametrize("hand", [Hand.PAIR, Hand.HIGH_CARD, Hand.FIVE_OF_A_KIND])
def test_every_kind_of_line_is_read_back_as_written(kind: str, hand: Hand) -> None:
    line = card_line(kind, hand=hand, **VALUES)
    parts = card_line_parts(line)
    assert parts["kind"] == kind, line
    wanted = {k: str(v) for k, v in VALUES.items() if "{" + k + "}" in LINES[kind]}
    if "{hand}" in LINES[kind]:
        wanted["hand"] = hand.value
    assert parts["values"] == wanted


def test_a_line_no_template_writes_comes_back_as_its_text() -> None:
    assert card_line_parts("Bluff the dealer.") == {
        "kind": "text",
        "values": {"text": "Bluff the dealer."},
    }
