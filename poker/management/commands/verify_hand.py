"""``manage.py verify_hand HAND_ID FILE``: check one's copy of a hand (the
JSON of ``GET /api/hands/<id>/``, ``-`` for standard input) against the
commitments the hand published (``poker.verify.verify_hand``), or any
other copy whose ``"kind"`` an app owns (a casino round's, ``GET
/api/casino/rounds/<id>/``): that app checks it (``kernel.copies``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from kernel.copies import copy_verify_send
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
        result = copy_verify_send(kind=data.get("kind"), id=hand, data=data)
        if result is None:
            result = verify_hand(hand_id=hand, data=data)
        if not result.ok:
            problems = "\n".join(f"- {p}" for p in result.problems)
            raise CommandError(f"hand {hand} does NOT check out:\n{problems}")
        self.stdout.write(
            f"hand {hand}: {result.checked} cards open at their places in the deal, "
            "against the roots published before they were dealt"
        )
