"""Which ledger movements the reports count, and as what: declared once.

Every report of money reads the ledger (``accounts.models.Entry``), never
the services' own figures: a movement is counted by the kind of account
it lands on and the kind of transfer that moved it (``Account.Kind``,
``Transfer.Kind``, written by ``accounts.money``, ``accounts.tables`` and
``tournaments.payments``).

- ``INCOME``: what the house earns, each source the entries of one kind of
  the house's accounts under some kinds of transfer.  An entry into the
  account is income, one out of it (a fee refunded, a ticket the house
  gives away) takes income back.
- ``CASHIER``: money coming into the room and leaving it, seen from the
  ``external`` account (which goes negative by what was deposited), so a
  deposit counts as a positive amount and a withdrawal as a negative one.
- ``PLAYER_TABLES`` / ``PLAYER_TOURNAMENTS``: the kinds of transfer that
  move a player's cash to and from the cash tables and the tournaments,
  for each player's results; a player's net result is every movement of
  his cash but the cashier's.

A new source of income is one more ``Source`` in ``INCOME``.  Each row of
the income report says the table or tournament a movement belongs to, read
from the transfer's ``ref`` (``table-7@12``, ``tournament:4``:
``reports.subjects``).
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import Account, Transfer

Kind = Account.Kind
Moved = Transfer.Kind


@dataclass(frozen=True)
class Source:
    """The entries of accounts of kind ``account`` under transfers of the
    ``transfers`` kinds, counted as ``name`` (times ``sign``)."""

    name: str
    account: str
    transfers: frozenset[str]
    sign: int = 1


INCOME: tuple[Source, ...] = (
    Source(
        "tournament_fees",
        Kind.HOUSE,
        frozenset(
            {
                Moved.REGISTRATION,
                Moved.TICKET_SPEND,
                Moved.REBUY,
                Moved.ADD_ON,
                Moved.UNREGISTRATION,
            }
        ),
    ),
    Source("house_tickets", Kind.HOUSE, frozenset({Moved.TICKET_AWARD})),
    Source("tournament_overlays", Kind.HOUSE, frozenset({Moved.OVERLAY})),
    Source("rake", Kind.RAKE, frozenset({Moved.RAKE})),
    Source("casino", Kind.BANKROLL, frozenset({Moved.CASINO_SETTLE})),
)
"""The house's income by source (``house_tickets``: what the house pays
for the entries it gives away, a negative income; ``tournament_overlays``:
what it paid to make guarantees, negative, a running tournament's whole
guarantee until what the pool did not need goes back; ``casino``: what the
bankroll took and paid settling the casino tables' boxes, its result
there.  Funding the bankroll or the house's account, ``BANKROLL_FUND`` and
``HOUSE_FUND``, is the house moving its own money, not income, and is left
out)."""

CASHIER: tuple[Source, ...] = (
    Source("deposits", Kind.EXTERNAL, frozenset({Moved.DEPOSIT}), sign=-1),
    Source("withdrawals", Kind.EXTERNAL, frozenset({Moved.WITHDRAWAL}), sign=-1),
)
"""Money into the room (deposits, positive) and out of it (withdrawals,
negative)."""

PLAYER_TABLES = frozenset({Moved.BUY_IN, Moved.TOP_UP, Moved.TOP_UP_REFUND, Moved.CASH_OUT})
"""A player's cash to and from the cash tables."""
PLAYER_TOURNAMENTS = frozenset(
    {
        Moved.REGISTRATION,
        Moved.UNREGISTRATION,
        Moved.REBUY,
        Moved.ADD_ON,
        Moved.PRIZE,
        Moved.TICKET_REFUND,
    }
)
"""A player's cash to and from the tournaments."""
CASHIER_KINDS = frozenset(kind for source in CASHIER for kind in source.transfers)
"""What a player's net result leaves out: the cashier's movements."""

SOURCES: dict[str, Source] = {s.name: s for s in (*INCOME, *CASHIER)}
"""Every source by name (names are unique)."""
assert len(SOURCES) == len(INCOME) + len(CASHIER), "two sources share a name"
