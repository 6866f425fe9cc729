"""``manage.py verify_hand HAND_ID FILE``: check one's copy of a hand (the
JSON of ``GET /api/hands/<id>/``, ``-`` for standard input) against the
commitments the hand published (``poker.verify.verify_hand``), or of a
casino round (``GET /api/casino/rounds/<id>/``, which says ``"kind":
"casino_round"``: ``poker.casino.verify.verify_round``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from poker.casino.history import KIND as CASINO_ROUND
from poker.casino.verify import verify_round
from poker.verify import verify_hand


class Command(BaseCommand):
    help = (
        "Check that every card of your copy of a hand (GET /api/hands/<id>/ saved as JSON) "
        "that you got or saw shown was committed, at its place in the deal, before it was dealt."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("hand", help="the hand (or casino round) id, <table>-<number>")
        parser.add_argument("file", help="your copy of the hand as JSON, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        hand, source = options["hand"], options["file"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {source}: {exc}") from exc
        if not isinstance(data, dict):
            raise CommandError("a hand's copy is a JSON object (GET /api/hands/<id>/)")
        if data.get("kind") == CASINO_ROUND:
            result = verify_round(round_id=hand, data=data)
        else:
            result = verify_hand(hand_id=hand, data=data)
        if not result.ok:
            problems = "\n".join(f"- {p}" for p in result.problems)
            raise CommandError(f"hand {hand} does NOT check out:\n{problems}")
        self.stdout.write(
            f"hand {hand}: {result.checked} cards open at their places in the deal, "
            "against the roots published before they were dealt"
        )
