"""The house's side of a casino command: the bankroll covers every open box,
and the command's chips move on the ledger.

A bet is refused (``BankrollShort``) when the bankroll could not pay the
largest win of every open box at once, this one included: the exposure of
each table (``CasinoTableState.exposure``, kept on its row) summed over
all tables.  The check reads the bankroll under its row lock, which every
bet and every settlement takes, so two tables cannot both spend the same
cover; a bet withdrawn only lowers the exposure, which is safe to read late.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import ledger
from accounts.casino import casino_chips_post, casino_money_plan
from accounts.tables import plans_accounts
from casino.models import CasinoTable
from casino.work import CasinoWork
from kernel.api_errors import ApiError
from poker.engine.casino.table import BetPlaced
from poker.engine.casino.table.cover import exposure


class BankrollShort(ApiError):
    """The bankroll cannot cover this box's largest possible win beside the
    boxes already open; nothing moved."""

    status = 409
    code = "bankroll_short"
    message = gettext_lazy("The house cannot cover this bet now; try a smaller one, or later.")


def casino_money_move(work: CasinoWork, *, by: Any) -> None:
    """Lock every account the command's events touch (and the bankroll, for
    a bet) in one statement, check the bankroll's cover, post the transfers."""
    plans = casino_money_plan(
        table_id=work.table.pk, before=work.table_start, events=work.table_events
    )
    betting = any(isinstance(e, BetPlaced) for e in work.table_events)
    if not plans and not betting:
        return
    refs = plans_accounts(plans) | ({ledger.bankroll()} if betting else set())
    accounts = ledger.accounts_lock(refs)
    if betting:
        bankroll_cover_check(work, accounts[ledger.bankroll()].balance)
    casino_chips_post(plans=plans, by=by)


def bankroll_cover_check(work: CasinoWork, balance: int) -> None:
    """Refuse unless ``balance`` covers every table's open boxes, this one's
    as the command leaves them; the refusal names the largest bet it would
    cover (``most_bet``, 0 for none)."""
    others = CasinoTable.objects.exclude(pk=work.table.pk).aggregate(total=Sum("exposure"))
    needed = (others["total"] or 0) + work.table_state.exposure()
    if balance >= needed:
        return
    rules = work.table_state.config.rules
    placed = sum(exposure(e.amount, rules) for e in work.table_events if isinstance(e, BetPlaced))
    room = balance - (needed - placed)
    config = work.table_state.config
    most = min(room // exposure(1, rules), config.max_bet) if room > 0 else 0
    if most < config.min_bet:
        raise BankrollShort(
            _("The house's bankroll cannot cover any bet at this table now; try later."),
            extra={"most_bet": 0},
        )
    raise BankrollShort(
        _("The house's bankroll cannot cover this bet now: it covers a bet of at most %(most)d.")
        % {"most": most},
        extra={"most_bet": most},
    )


def exposure_open(*, using: str = "default") -> int:
    """The most the house could lose on every open box of every table."""
    total = CasinoTable.objects.using(using).aggregate(total=Sum("exposure"))["total"]
    return int(total or 0)
