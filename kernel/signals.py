"""The kernel's signals (importable before the apps are loaded)."""

from django.dispatch import Signal

clock_fired = Signal()
"""A due clock's command ran and committed in the drain: sent with ``kind``
(the registered kind) and ``late`` (seconds between its due time and the
start of its command)."""
