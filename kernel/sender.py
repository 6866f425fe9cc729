"""A thread of the process's own that sends what commands hand it, in
batches: the skeleton of the frame publisher (``kernel.layer``).

A command hands an item over (``put``: an append to an in-process queue)
and goes on; the thread takes what has piled up (after waiting
``gather_s`` for more, if its owner wants to gather) and sends it all at
once.  What every owner gets from here:

- Order: one thread takes the items in the order they were handed over.
- ``flush``: wait until every item handed over before the call was sent
  (or its send failed).  A flush ends the gathering of the batch it falls
  in: nobody waits ``gather_s`` for it.
- A failed send is its owner's to log: the thread goes on with the next
  batch (a thread that died would leave every later ``flush`` waiting).
- A forked child starts a thread of its own (the parent's is not there,
  and what the parent had queued is the parent's to send), with its own
  connections (``_reset``).
- A process that stops sends what it still holds (``flush`` at exit).
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from queue import Empty, SimpleQueue
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

FLUSH_TIMEOUT_S = 10.0
"""How long ``flush`` waits for the sends before it gives up."""
EXIT_FLUSH_S = 2.0
"""How long a stopping process waits for its last sends."""


class Sender(Generic[T]):
    """Items on their way out, sent in batches by a thread named ``name``;
    a subclass says how a batch is sent (``send_batch``, in that thread)."""

    name = "sender"
    batch_max = 500
    """Items taken in one batch at most."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)
        atexit.register(self.flush, EXIT_FLUSH_S)

    @property
    def gather_s(self) -> float:
        """How long the thread waits for more after the first item of a
        batch (0: it takes only what has piled up)."""
        return 0.0

    def send_batch(self, items: list[T]) -> None:
        """Send ``items``, in order; a send that fails is logged here."""
        raise NotImplementedError

    def put(self, item: T) -> None:
        """Have ``item`` sent after every item handed over before it;
        returns at once."""
        if self._thread is None:
            self._start()
        self._queue.put(item)

    def flush(self, timeout: float = FLUSH_TIMEOUT_S) -> bool:
        """Wait until every item handed over before this call was sent (or
        its send failed); whether that happened within ``timeout``."""
        if self._thread is None:
            return True  # nothing was ever handed over in this process
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def _reset(self) -> None:
        """A new process (or a forked child): nothing queued, no thread."""
        self._queue: SimpleQueue[T | threading.Event] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                thread.start()
                self._thread = thread

    def _run(self) -> None:
        while True:
            batch = self._take()
            items = [item for item in batch if not isinstance(item, threading.Event)]
            if items:
                try:
                    self.send_batch(items)
                except Exception:  # the owner logs its own; this keeps the thread alive
                    log.exception("%s: %d items not sent", self.name, len(items))
            for item in batch:
                if isinstance(item, threading.Event):
                    item.set()  # every item queued before it was just sent

    def _take(self) -> list[T | threading.Event]:
        """The next batch: the first item, then what follows it within
        ``gather_s`` (up to a flush, at most ``batch_max``)."""
        queue = self._queue
        batch = [queue.get()]
        gather = self.gather_s
        until = time.monotonic() + gather
        while len(batch) < self.batch_max and not isinstance(batch[-1], threading.Event):
            if not gather and queue.empty():
                break  # what has piled up, taken without waiting (or raising)
            try:
                batch.append(queue.get(timeout=max(0.0, until - time.monotonic())))
            except Empty:
                break
        return batch
