"""A player's own check of a casino round (``manage.py verify_hand``): his
cards, and the dealer's once turned up, were fixed before the round was
dealt (docs/fair-deal.md).

He brings his copy of the round as the API gave it (``GET
/api/casino/rounds/<id>/``: the events as he saw them, his box, the
openings of the cards he got or saw turned up).
``engine.casino.fairdeal.audit`` checks every such card against the roots
in his copy; here those roots must also be the ones the round's stored
events fix, so a copy that tells another story than the log fails too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kernel.eventstore import load
from poker.casino import streams
from poker.casino.models import CasinoRound
from poker.engine.casino import fairdeal
from poker.engine.fairdeal import Audit

ROOTED = ("casino.round_started", "casino.discards_reshuffled")
"""The events that publish a root, in the order their trees are numbered."""


def verify_round(*, round_id: str, data: Mapping[str, Any]) -> Audit:
    """Check ``data``, one viewer's copy of casino round ``round_id``."""
    row = CasinoRound.objects.filter(pk=round_id).first()
    if row is None:
        return Audit(0, (f"there is no casino round {round_id}",))
    if str(data.get("id", round_id)) != round_id:
        return Audit(0, (f"this is the copy of round {data.get('id')}, not of {round_id}",))
    events, opened = data.get("events"), data.get("openings", [])
    if not isinstance(events, list) or not isinstance(opened, list) or not events:
        return Audit(0, ("a round's history has a list of events and a list of openings",))
    try:
        boxes = [b["box"] for b in events[0]["boxes"]]
        yours = data.get("your_box")
        position = boxes.index(yours) if yours is not None else None
    except (KeyError, TypeError, ValueError) as exc:
        return Audit(0, (f"not a round history as the API gives it: {exc!r}",))
    stored = [streams.decode_round(r) for r in load(row.stream)]
    published = fairdeal.trace(stored).roots
    theirs = [e.get("root") for e in events if isinstance(e, dict) and e.get("type") in ROOTED]
    found = fairdeal.audit(events, opened, position)
    if theirs != published:
        mismatch = f"the copy's roots {theirs} are not the ones published {published}"
        return Audit(found.checked, (mismatch, *found.problems))
    return found
