"""A player's copy of a stream's hand or round, checked against the
commitments its stream published (docs/fair-deal.md).

``manage.py verify_hand`` takes any copy; the app that owns the copy's
``kind`` (its ``"kind"`` field) checks it, answering ``copy_verify`` (a
signal each connects in its ``AppConfig.ready``) with the result, or
None for a kind it does not own.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import Signal

copy_verify = Signal()
"""Sent with ``kind``, ``id`` and ``data`` (the copy as JSON); the owner
of ``kind`` answers its check's result, every other receiver None."""


def copy_verify_send(*, kind: Any, id: str, data: dict[str, Any]) -> Any | None:
    """The result of the first receiver that owns ``kind`` (None: no app does)."""
    for _, result in copy_verify.send(sender=None, kind=kind, id=id, data=data):
        if result is not None:
            return result
    return None
