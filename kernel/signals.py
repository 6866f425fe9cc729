"""The kernel's signals (importable before the apps are loaded)."""

from django.dispatch import Signal

clock_fired = Signal()
"""A due clock's command ran and committed in the drain: sent with ``kind``
(the registered kind) and ``late`` (seconds between its due time and the
start of its command)."""

credentials_checked = Signal()
"""A socket was told one of its viewer's credentials was revoked: sent
(``asend``) with its ``scope``, each receiver answers whether the
credential it opened with still works; the socket ends unless all say so
(``config.ws_auth.credential_valid``, connected in ``config.apps``)."""
