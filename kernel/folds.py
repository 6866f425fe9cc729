"""Streams' states kept folded: a command folds only what was recorded since.

A command needs the state of the streams it acts on.  Folding a stream
from its first event on every command would cost more than the command
itself, so each process keeps the latest fold of every stream it touched
and folds only the events recorded since.  The cache is an optimisation
only: the caller passes the version it read under its lock, and anything
older is folded on from the store.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from kernel.eventstore import Recorded, load

S = TypeVar("S")

CACHE_SIZE = 2048
"""Streams kept folded per process (a few per live table)."""


class Folds(Generic[S]):
    """Latest folded state per stream, least recently used dropped first."""

    def __init__(
        self,
        decode: Callable[[Recorded], Any],
        apply: Callable[[S | None, Any], S],
        size: int = CACHE_SIZE,
    ) -> None:
        self._decode = decode
        self._apply = apply
        self._size = size
        self._states: OrderedDict[tuple[str, str], tuple[int, S]] = OrderedDict()
        self._lock = threading.Lock()

    def state(self, stream: str, version: int, using: str = "default") -> S:
        """The fold of ``stream`` up to exactly ``version``."""
        with self._lock:
            cached = self._states.get((using, stream))
        start, state = cached if cached and cached[0] <= version else (0, None)
        if start < version:
            for row in load(stream, after=start, using=using):
                if row.version > version:
                    break
                state = self._apply(state, self._decode(row))
        if state is None:
            raise LookupError(f"stream {stream} has no events")
        self.remember(stream, version, state, using)
        return state

    def remember(self, stream: str, version: int, state: S, using: str = "default") -> None:
        """Keep ``state`` as the fold of ``stream`` at ``version`` (only
        committed versions: a fold of a rolled-back append must never be
        served as that version later), unless a later one is kept."""
        key = (using, stream)
        with self._lock:
            kept = self._states.get(key)
            if kept is None or kept[0] <= version:
                self._states[key] = (version, state)
            self._states.move_to_end(key)
            while len(self._states) > self._size:
                self._states.popitem(last=False)

    def forget(self) -> None:
        """Drop everything (tests that rebuild or rewind the store)."""
        with self._lock:
            self._states.clear()
