"""The write side of the casino tables: one function per command.

Each runs as one transaction through the one command runner
(``commands.CASINO.run``) and answers with the table as the caller may see
it (``selectors.casino_work_view``).  Services take keyword arguments and
raise ``ApiError`` subclasses; engine refusals keep their code.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import ledger, money
from accounts.errors import InsufficientFunds, NotPermitted, refusal
from accounts.limits import play_check
from accounts.selectors import account_balance
from casino import projections, publish, streams
from casino.commands import CASINO
from casino.edge import edge_guard
from casino.house import exposure_open
from casino.models import CasinoBox, CasinoTable, casino_feed
from casino.work import CasinoWork
from kernel.api_errors import ApiError
from kernel.commands import player_id, user_of
from kernel.errors import StaleVersion
from kernel.eventstore import Batch, Feed, append
from poker.engine.cards import card
from poker.engine.casino import Act, Action, CasinoRules, PayTable
from poker.engine.casino.table import (
    Bet,
    CasinoTableConfig,
    Close,
    Leave,
    Sit,
    SitIn,
    SitOut,
    open_table,
    replay_table,
    round_cover,
)
from poker.engine.errors import EngineError

# --------------------------------------------------------------------------
# Tables (staff)


def casino_table_open(
    *,
    by: Any,
    name: str,
    jokers: int = 2,
    pay_table: dict[str, int] | None = None,
    min_bet: int = 10,
    max_bet: int = 100,
    boxes: int = 4,
    bet_seconds: int = 20,
    decision_seconds: int = 20,
) -> CasinoTable:
    """Open a casino table (staff only); a pay table left out, or a line of
    it, keeps the default (RULES.md 5).  Refused unless the configuration's
    stored house edge against the best response is at least the floor
    (``edge.edge_guard``)."""
    if not getattr(by, "is_staff", False):
        raise NotPermitted(_("Only staff open tables."))
    try:
        rules = CasinoRules(jokers, PayTable.from_json(pay_table or {}))
        config = CasinoTableConfig(
            name, rules, min_bet, max_bet, boxes, bet_seconds, decision_seconds
        )
        events = open_table(config)
    except EngineError as error:
        raise refusal(error) from error
    edge_guard(rules)
    with transaction.atomic():
        table = CasinoTable.objects.create(**projections.config_fields(config))
        batch = Batch(table.stream, 0, streams.encode_table(events))
        recorded = append([batch], by=user_of(by), feed=Feed(casino_feed(table.pk), 0))
        projections.write_table(table, replay_table(events), None, len(recorded))
        publish.lobby_after_commit(table.pk)
    return table


def casino_table_close(
    *, by: Any, table_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Close a table (staff only): at once between rounds (bets go back),
    else when the running round ends."""
    if not getattr(by, "is_staff", False):
        raise NotPermitted(_("Only staff close tables."))
    return CASINO.command("casino.close", table_id, by, command_id, lambda w: w.table_do(Close()))


def bankroll_fund(
    *, by: Any, amount: int, transfer_id: uuid.UUID, memo: str = ""
) -> dict[str, Any]:
    """Put money into the house's bankroll (a cashier's operation)."""
    if user_of(by) is None:
        raise ApiError(_("Log in to do that."), code="not_authenticated", status=401)
    money.bankroll_fund(transfer_id=transfer_id, amount=amount, by=by, memo=memo)
    return bankroll_view()


def bankroll_view() -> dict[str, Any]:
    """The bankroll's balance and what the open boxes could cost it at most."""
    return {
        "balance": account_balance(ledger.bankroll()),
        "exposure": exposure_open(),
    }


# --------------------------------------------------------------------------
# Boxes


def _box_of(work: CasinoWork, by: Any) -> int:
    box = work.table_state.box_of(player_id(by))
    if box is None:
        raise ApiError(_("You do not sit at this table."), code="not_seated", status=409)
    return box


def _seat_command(kind: str, make: Callable[[int], Any], doc: str) -> Callable[..., dict[str, Any]]:
    def service(*, by: Any, table_id: int, command_id: uuid.UUID | None = None) -> dict[str, Any]:
        return CASINO.command(
            kind, table_id, by, command_id, lambda w: w.table_do(make(_box_of(w, by)))
        )

    service.__doc__ = doc
    return service


def casino_sit(
    *, by: Any, table_id: int, box: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Take an empty box (1 to the table's boxes): no buy-in, a round's stakes
    come from the wallet at each bet.  Refused to a locked or self-excluded
    player, as a seat at a pot table is."""
    player = player_id(by)
    play_check(by)
    sit = Sit(box - 1, player)
    return CASINO.command(
        "casino.sit", table_id, by, command_id, lambda w: w.table_do(sit), box=box
    )


def casino_bet(
    *, by: Any, table_id: int, amount: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Bet the original bet B on the next round.  The round holds what it
    may stake (9 B, or the whole wallet if less) and gives back what it
    did not; refused when the house's bankroll could not cover the box, and
    to a player who may not play now (locked, self-excluded)."""
    player = player_id(by)
    play_check(by)

    def do(work: CasinoWork) -> None:
        box = _box_of(work, by)
        wallet = account_balance(ledger.cash(int(player)))
        if wallet < amount:
            raise InsufficientFunds(
                _("The wallet holds %(balance)s chips and a bet of %(amount)s needs them.")
                % {"balance": wallet, "amount": amount},
                extra={"balance": wallet, "needed": amount},
            )
        work.table_do(Bet(box, amount, min(wallet, round_cover(amount))))

    return CASINO.command("casino.bet", table_id, by, command_id, do, amount=amount)


casino_sit_out = _seat_command(
    "casino.sit_out",
    SitOut,
    "Sit out from the next round on (a bet placed is withdrawn and its chips come back).",
)
casino_sit_in = _seat_command("casino.sit_in", SitIn, "Come back: bet again from the next round.")
casino_leave = _seat_command(
    "casino.leave",
    Leave,
    "Leave the table: at once between rounds (a bet placed comes back), else "
    "when the round you play ends.",
)


def casino_out_of_play(user_id: int, by: Any = None, *, tournaments: bool = True) -> list[str]:
    """Take a player out of play at the casino tables (his account locked,
    or he excluded himself: ``accounts.locks.out_of_play``): he leaves each
    table as if he had asked (at once between rounds, else when the round
    he plays ends).  A line per table."""
    done = []
    tables = CasinoBox.objects.filter(player_id=user_id, leaving=False)
    for table_id in tables.values_list("table_id", flat=True).order_by("table_id"):

        def do(work: CasinoWork) -> None:
            box = work.table_state.box_of(str(user_id))
            if box is None:
                raise ApiError(_("Not seated here."), code="not_seated", status=409)
            work.table_do(Leave(box))

        CASINO.command("casino.remove", table_id, by, uuid.uuid4(), do)
        done.append(f"casino table {table_id}: leaves")
    return done


# --------------------------------------------------------------------------
# Acting in a round


def casino_act(
    *,
    by: Any,
    table_id: int,
    action: str,
    round: str,
    version: int,
    cards: Sequence[str] = (),
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """The player's move in the running round (exchange, stand, play, fold)
    at the round version he saw."""
    try:
        verb = Action(action)
        thrown = tuple(card(c) for c in cards)
    except ValueError as error:
        raise ApiError(str(error), code="malformed") from error
    if thrown and verb is not Action.EXCHANGE:
        raise ApiError(_("Only an exchange names cards."), code="malformed")

    def do(work: CasinoWork) -> None:
        box = _box_of(work, by)
        current = work.round
        if current is None or current.row.pk != round or current.state.complete:
            raise ApiError(_("That round is not being played."), code="not_found", status=404)
        if version != current.row.version:
            raise StaleVersion(extra={"current": CASINO.shown(work, by)})
        position = work.box_of_round(work.table_state.seats[box].player)
        if position is None:
            raise ApiError(_("You are not in this round."), code="not_in_hand", status=409)
        work.round_do(Act(position, verb, thrown))

    body = {"round": round, "version": version, "action": action, "cards": list(cards)}
    return CASINO.command("casino.act", table_id, by, command_id, do, **body)
