"""``verify_hand``: a player's own check that his cards were fixed before
the hand was dealt (docs/fair-deal.md).

The player brings his copy of a hand as the API gave it to him (``GET
/api/hands/<id>/``: the events as he saw them, his seat and the openings
of the cards he got or saw shown).  ``engine.fairdeal.audit`` checks every
such card against the roots in his copy (renumbered from seats to the
engine's positions, ``present.copy_by_position``); here his roots must
also be the ones this server recorded for the hand when it was dealt and
reshuffled, so a copy that tells another story than the log fails too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poker import streams
from poker.engine.fairdeal import Audit, audit
from poker.models import Hand
from poker.present import copy_by_position

ROOTED = ("hand.started", "hand.muck_reshuffled")
"""The events that publish a root, in the order their trees are numbered."""


def verify_hand(*, hand_id: str, data: Mapping[str, Any]) -> Audit:
    """Check ``data``, one viewer's copy of hand ``hand_id`` as the hand
    history API gives it: every card he got or saw shown must open at its
    place against the roots this hand published."""
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        return Audit(0, (f"there is no hand {hand_id}",))
    if str(data.get("id", hand_id)) != hand_id:
        return Audit(0, (f"this is the copy of hand {data.get('id')}, not of {hand_id}",))
    events, opened = data.get("events"), data.get("openings", [])
    if not isinstance(events, list) or not isinstance(opened, list):
        return Audit(0, ("a hand history has a list of events and a list of openings",))
    try:
        copy = copy_by_position(dict(data))
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        return Audit(0, (f"not a hand history as the API gives it: {exc!r}",))
    published = list(streams.hands.state(hand.stream, hand.version).roots)
    theirs = [e.get("root") for e in events if isinstance(e, dict) and e.get("type") in ROOTED]
    found = audit(copy["events"], opened, copy["your_position"])
    if theirs != published:
        mismatch = f"the copy's roots {theirs} are not the ones published {published}"
        return Audit(found.checked, (mismatch, *found.problems))
    return found
