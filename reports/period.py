"""The days a report covers: from one date to another, both included, in
the room's time zone (UTC: ``settings.TIME_ZONE``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

DEFAULT_DAYS = 30
"""A report asked without dates covers the last 30 days, today included."""
MAX_DAYS = 366
"""The longest period one report covers."""
EARLIEST = date(2000, 1, 1)
LATEST = date(2999, 12, 31)
"""The dates a period may name (the room's life, with room to spare)."""


@dataclass(frozen=True)
class Period:
    """The days ``first`` to ``last``, both included."""

    first: date
    last: date

    @property
    def start(self) -> datetime:
        """The first moment of the period."""
        return datetime.combine(self.first, time.min, tzinfo=UTC)

    @property
    def end(self) -> datetime:
        """The first moment after the period."""
        return datetime.combine(self.last + timedelta(days=1), time.min, tzinfo=UTC)

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    def during(self, moment: str) -> Q:
        """The rows whose field ``moment`` falls in the period."""
        return Q(**{f"{moment}__gte": self.start, f"{moment}__lt": self.end})


class BadPeriod(ValueError):
    """Dates that make no period: the reason is the message."""


def period_of(first: date | None = None, last: date | None = None) -> Period:
    """The period from ``first`` to ``last``; without ``last``, up to today;
    without ``first``, the ``DEFAULT_DAYS`` up to ``last``.  ``BadPeriod``
    for a period that ends before it starts, is longer than ``MAX_DAYS``,
    or leaves the dates a period may name."""
    last = last or timezone.now().astimezone(UTC).date()
    first = first or last - timedelta(days=DEFAULT_DAYS - 1)
    for day in (first, last):
        if not EARLIEST <= day <= LATEST:
            raise BadPeriod(
                _("Dates run from %(earliest)s to %(latest)s, not %(day)s.")
                % {"earliest": EARLIEST, "latest": LATEST, "day": day}
            )
    if first > last:
        raise BadPeriod(
            _("The period starts (%(first)s) after it ends (%(last)s).")
            % {"first": first, "last": last}
        )
    period = Period(first, last)
    if period.days > MAX_DAYS:
        raise BadPeriod(
            _("A report covers at most %(most)s days, not %(days)s.")
            % {"most": MAX_DAYS, "days": period.days}
        )
    return period
