"""The write side of the cash tables: one function per command.

Each runs as one transaction through the one command runner
(``work.TABLE.run``: lock the table, fold its streams, decide, append,
project) and answers with the table as the caller may see it.  Services
take keyword arguments and raise ``ApiError`` subclasses; engine refusals
keep their code.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.errors import refusal
from accounts.limits import play_check
from kernel.api_errors import ApiError
from kernel.commands import player_id, user_of
from kernel.errors import StaleVersion
from kernel.eventstore import Batch, Feed, append
from poker import clocks, projections, streams
from poker.engine.cards import card
from poker.engine.commands import Act, Action, Forfeit
from poker.engine.errors import EngineError
from poker.engine.state import Phase
from poker.engine.table import (
    Close,
    Leave,
    Sit,
    SitIn,
    SitOut,
    TableCommand,
    TableConfig,
    TopUp,
    open_table,
    replay_table,
)
from poker.errors import Forbidden
from poker.models import Seat, Table, hand_id
from poker.publish import publish
from poker.work import TABLE, Work

# --------------------------------------------------------------------------
# Tables


def table_create(*, by: Any, **settings: Any) -> Table:
    """Open a cash table (staff only) with ``settings`` by name, as
    ``TableConfig`` declares them: one left out takes its default, the seats
    and buy-in bounds the game's and RULES.md's for the betting structure;
    ``max_buy_in=None`` means no maximum."""
    if not getattr(by, "is_staff", False):
        raise Forbidden(_("Only staff open tables."))
    if settings.keys() & {"tournament", "tournament_table"}:
        raise ApiError(_("A tournament opens its own tables."), code="invalid")
    try:
        config = TableConfig.from_settings(settings)
        events = open_table(config)
    except ValueError as error:
        raise ApiError(str(error), code="invalid") from error
    except EngineError as error:
        raise refusal(error) from error
    with transaction.atomic():
        table = Table.objects.create(**projections.config_fields(config))
        batch = Batch(table.stream, 0, streams.encode_table(events))
        recorded = append([batch], by=user_of(by), feed=Feed(table.pk, 0))
        table.position = len(recorded)
        at = recorded[-1].recorded_at
        projections.write_table(table, replay_table(events), at, opened=at)
        transaction.on_commit(lambda: publish(table=table.pk, rows=recorded, hands={}))
    return table


def table_close(*, by: Any, table_id: int, command_id: uuid.UUID | None = None) -> dict[str, Any]:
    """Close a table (staff only): everyone leaves with his chips, at once
    between hands, or when the running hand ends."""
    if not getattr(by, "is_staff", False):
        raise Forbidden(_("Only staff close tables."))
    return TABLE.command("table.close", table_id, by, command_id, lambda w: w.table_do(Close()))


# --------------------------------------------------------------------------
# Seats


def _seat_of(work: Work, by: Any) -> int:
    seat = work.table_state.seat_of(player_id(by))
    if seat is None:
        raise ApiError(_("You do not sit at this table."), code="not_seated", status=409)
    return seat


def _at_seat(by: Any, make: Callable[..., TableCommand], *args: Any) -> Callable[[Work], None]:
    """``by``'s table command at his seat: ``make(seat, *args)``."""
    return lambda work: work.table_do(make(_seat_of(work, by), *args))


def seat_sit(
    *,
    by: Any,
    table_id: int,
    seat: int,
    buy_in: int,
    wait_for_big_blind: bool = False,
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Take a seat with a buy-in; dealt in at once by posting, or on the big
    blind.  Refused to a locked or self-excluded player (``accounts.limits``)."""
    player = player_id(by)
    play_check(by)
    sit = Sit(seat, player, buy_in, wait_for_big_blind)
    body = {"seat": seat, "buy_in": buy_in, "wait_for_big_blind": wait_for_big_blind}
    return TABLE.command("seat.sit", table_id, by, command_id, lambda w: w.table_do(sit), **body)


def seat_leave(*, by: Any, table_id: int, command_id: uuid.UUID | None = None) -> dict[str, Any]:
    """Leave with the stack.  During a hand he is in, his hand is folded at
    once (an all-in hand, or one at Parole or showdown, plays on by itself)
    and he leaves with what he has when the hand ends."""
    return TABLE.command(
        "seat.leave", table_id, by, command_id, lambda w: _leave(w, _seat_of(w, by))
    )


def _leave(work: Work, seat: int) -> None:
    """``seat`` leaves: at once between hands, else his hand folded now
    (if it can be) and he goes when it ends."""
    work.table_do(Leave(seat))
    hand = work.hand
    if hand is None or seat not in work.table_state.hand_seats:
        return
    position = work.table_state.hand_seats.index(seat)
    player = hand.state.players[position]
    foldable = hand.state.phase in (Phase.BETTING, Phase.DRAW)
    if foldable and player.in_hand and player.stack > 0:
        work.hand_do(Forfeit(position))


def player_out_of_play(user_id: int, by: Any = None, *, tournaments: bool = True) -> list[str]:
    """Take a player out of play (his account locked, or he excluded
    himself: ``accounts.locks.out_of_play``), a table command for each
    table, carried out by ``by`` (staff, or None: the room): at a cash
    table he leaves as if he had asked (``seat_leave``: his chips go back to
    his wallet); at a tournament table (unless ``tournaments`` is False)
    he is sat out, so the table blinds him away (his chips stay in play and
    his entry stands: a director may still disqualify him).  A line per
    table."""
    player = str(user_id)
    done = []
    seats = Seat.objects.filter(player_id=user_id).exclude(table__status=Table.Status.CLOSED)
    if not tournaments:
        seats = seats.filter(table__tournament__isnull=True)
    for table_id in seats.values_list("table_id", flat=True).order_by("table_id"):

        def do(work: Work) -> None:
            seat = work.table_state.seat_of(player)
            held = None if seat is None else work.table_state.seats[seat]
            if seat is None or held is None or held.leaving:
                raise ApiError(_("Not seated here (or leaving already)."), code="not_seated")
            if not work.table_state.config.is_tournament:
                _leave(work, seat)
            elif held.sitting_out:
                raise ApiError(_("Sat out already."), code="sitting_out")
            else:
                work.table_do(SitOut(seat))

        try:  # a command id of its own, so the table's log says who did it
            TABLE.command("seat.remove", table_id, by, uuid.uuid4(), do)
        except ApiError as error:  # nothing to do, or the table refused: say so
            done.append(f"table {table_id}: left as it was ({error.code}: {error.message})")
        else:
            done.append(f"table {table_id}: out of play")
    return done


def seat_top_up(
    *, by: Any, table_id: int, amount: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Add chips (queued until the end of a hand he is in)."""
    do = _at_seat(by, TopUp, amount)
    return TABLE.command("seat.top_up", table_id, by, command_id, do, amount=amount)


def seat_sit_out(*, by: Any, table_id: int, command_id: uuid.UUID | None = None) -> dict[str, Any]:
    """Sit out from the next hand on."""
    return TABLE.command("seat.sit_out", table_id, by, command_id, _at_seat(by, SitOut))


def seat_sit_in(
    *,
    by: Any,
    table_id: int,
    wait_for_big_blind: bool = False,
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Come back: post what is owed, or wait for the big blind."""
    do = _at_seat(by, SitIn, wait_for_big_blind)
    return TABLE.command(
        "seat.sit_in", table_id, by, command_id, do, wait_for_big_blind=wait_for_big_blind
    )


# --------------------------------------------------------------------------
# Acting in a hand


def hand_act(
    *,
    by: Any,
    table_id: int,
    hand: str,
    version: int,
    action: str,
    amount: int | None = None,
    cards: Sequence[str] = (),
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """One action of the player in his seat (fold, check, call, bet, raise,
    discard, stand, parole, accept, decline, show, muck), at the hand
    version he saw."""
    try:
        verb = Action(action)
        thrown = tuple(card(c) for c in cards)
    except ValueError as error:
        raise ApiError(str(error), code="malformed") from error
    if amount is not None and verb not in (Action.BET, Action.RAISE):
        raise ApiError(_("Only a bet or a raise names an amount."), code="malformed")
    if thrown and verb is not Action.DISCARD:
        raise ApiError(_("Only a discard names cards."), code="malformed")

    def do(work: Work) -> None:
        seat = _seat_of(work, by)
        if work.hand is None or work.hand.row.pk != hand:
            if _earlier_hand(work, hand):  # seen while it ran: the table has moved on
                raise StaleVersion(extra={"current": TABLE.shown(work, by)})
            raise ApiError(_("There is no such hand at this table."), code="not_found", status=404)
        if version != work.hand.row.version:
            raise StaleVersion(extra={"current": TABLE.shown(work, by)})
        seats = work.table_state.hand_seats
        if seat not in seats:
            raise ApiError(_("You are not in this hand."), code="not_in_hand", status=409)
        clocks.charge(work, seat, verb)
        work.hand_do(Act(seats.index(seat), verb, amount=amount, cards=thrown))

    body = {"hand": hand, "version": version, "action": action, "amount": amount}
    return TABLE.command("hand.act", table_id, by, command_id, do, **body, cards=list(cards))


def _earlier_hand(work: Work, hand: str) -> bool:
    """Whether ``hand`` names a hand this table has dealt already."""
    prefix = hand_id(work.table.pk, 0)[:-1]
    number = hand.removeprefix(prefix)
    return (
        hand.startswith(prefix)
        and number.isascii()
        and number.isdigit()
        and (1 <= int(number) <= work.table_state.hand_number)
    )
