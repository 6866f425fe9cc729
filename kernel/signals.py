"""The kernel's signals (importable before the apps are loaded)."""

from django.dispatch import Signal

clock_due = Signal()
"""A clock came due (``kernel.clocks.drain``), sent in the drain's
transaction with the clock's kind as ``sender`` (``poker.turn``; a keyed
kind without its key) and the row as ``clock``.  Each app connects one
receiver for its kinds in its ``AppConfig.ready`` (``kernel.clocks.firing``);
a receiver answers None for a kind not its own (Django matches a sender by
identity, and a kind read from a row is not the app's own string), True
when its command acted, False when its clock was dropped, and raises
``kernel.clocks.ClockEarly`` to have it set again."""

clock_fired = Signal()
"""A due clock's command ran and committed in the drain: sent with ``kind``
(the registered kind) and ``late`` (seconds between its due time and the
start of its command)."""

credentials_checked = Signal()
"""A socket was told one of its viewer's credentials was revoked: sent
(``asend``) with its ``scope``, each receiver answers whether the
credential it opened with still works; the socket ends unless all say so
(``config.ws_auth.credential_valid``, connected in ``config.apps``)."""
