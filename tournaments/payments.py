"""The money behind a tournament's events, posted to the wallet ledger.

Money moves on exactly the events the rules say it does (``Registered``,
``Unregistered``, ``Refunded``, ``Rebought``, ``AddedOn``,
``BountyPaid``, ``GuaranteeHeld``, ``GuaranteeReleased``,
``FlightCarried``, ``PrizesAwarded``), in the transaction that appends them.  Each transfer's
id is derived from the event's place in the stream (``tournament-7@12``,
plus a suffix when one event makes several transfers): the stream's
unique versions make every movement happen once, and a retried command
posts the same ids, which the ledger answers with the first transfer.

An entry's bounty goes to the pool account with its buy-in; a head won
(``BountyPaid``) is paid out of it as a prize, at the bust, in the
command that reports the hand.

One command may make many transfers (a cancellation refunds everybody, the
end pays every prize), and one transaction many commands (a deal sweep
reports the hands of several tables, each of which may pay bounties or
the prizes), so they are planned first and every account they touch is
locked at once, in id order (``ledger.accounts_lock``), before any is
posted (docs/accounts.md, "Lock order"): the transaction's commands add
their transfers to its ``pending`` list and the transaction posts them
all at its end (``settle``), so it never holds some accounts while it
waits for others.

The ledger knows the tournament by its id (``pool:7``, tickets
``ticket:<user>:7``), and a satellite's target by the target's id.  An
entry paid with a ticket is refunded with the ticket; which entries were
is read back from the ledger itself (the player's ticket account for this
tournament), so nothing about payment needs storing twice.

A step satellite's tournaments take the tickets of their step
(``ticket:<user>:step-3-2``), good for any tournament of that step: its
ticket accounts are the step's, its pool its own, and a step tournament
called off gives its ticket-paid entries their tickets back but cashes out
no ticket (the step goes on).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypedDict

from django.db.models import Sum

from accounts import ledger, money
from accounts.ledger import AccountRef
from accounts.models import Account, Entry, Transfer
from accounts.selectors import account_balance
from tournaments.errors import NoTicket
from tournaments.rules import (
    AddedOn,
    BountyPaid,
    Cancelled,
    FlightCarried,
    GuaranteeHeld,
    GuaranteeReleased,
    PrizesAwarded,
    Rebought,
    Refunded,
    Registered,
    TournamentEvent,
    TournamentState,
    Unregistered,
    evolve,
)


@dataclass(frozen=True)
class Posting:
    """One event's money: the tournament, the event's name in the stream
    (``tournament-7@12``), the state just before it, whether a new entry is
    paid with a ticket (None: if the player holds one), and the tickets the
    tournament takes (its own id, or its step's reference)."""

    tournament: int
    name: str
    state: TournamentState
    ticket: bool | None
    tickets_into: str

    def transfer_id(self, *suffix: object) -> Any:
        """The transfer id of this event's (``suffix``-th) movement."""
        return ledger.transfer_id_for("/".join([self.name, *map(str, suffix)]))


@dataclass(frozen=True)
class Planned:
    """One transfer to post: the accounts it touches, and the posting."""

    accounts: tuple[AccountRef, ...]
    post: Callable[[], Any]


def post(
    *,
    tournament: int,
    stream: str,
    state: TournamentState,
    events: Sequence[TournamentEvent],
    ticket: bool | None = None,
    tickets_into: str | None = None,
    pending: list[Planned] | None = None,
) -> None:
    """Post the transfers of ``events``, appended after ``state``; the
    tournament takes tickets ``tickets_into`` its step (None: its own).
    With ``pending`` they are added there, for ``settle`` to post with the
    rest of the transaction's (a refusal, such as a ticket missing, still
    comes now; one for money when they are posted)."""
    planned: list[Planned] = []
    last: list[Planned] = []
    into = str(tournament) if tickets_into is None else tickets_into
    for version, event in enumerate(events, start=state.version + 1):
        posting = Posting(tournament, f"{stream}@{version}", state, ticket, into)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            planned += handler(posting, event)
        if isinstance(event, Cancelled) and into == str(tournament):  # after the refunds
            last = _tickets_cashed_out(posting)
        state = evolve(state, event)
    planned += last
    if pending is None:
        settle(planned)
    else:
        pending += planned


def settle(planned: list[Planned]) -> None:
    """Post ``planned`` in its order, every account it touches locked
    first, at once, in id order; ``planned`` is empty after."""
    if planned:
        ledger.accounts_lock({ref for p in planned for ref in p.accounts})
    for transfer in planned:
        transfer.post()
    planned.clear()


def tickets_held(user_id: int, tickets_into: object) -> int:
    """Tickets ``tickets_into`` a tournament (or a step) the player holds, unspent."""
    return account_balance(ledger.ticket(user_id, tickets_into))


def tickets_spent(user_id: int, tournament: int, tickets_into: object | None = None) -> int:
    """The player's entries into ``tournament`` paid with tickets (into it,
    or into its step) and not given back: spent less refunded, from his
    ticket account's entries made by this tournament's transfers."""
    into = tournament if tickets_into is None else tickets_into
    kinds = (Transfer.Kind.TICKET_SPEND, Transfer.Kind.UNREGISTRATION)
    moved = Entry.objects.filter(
        account__key=ledger.ticket(user_id, into).key,
        transfer__kind__in=kinds,
        transfer__ref=f"tournament:{tournament}",
    ).aggregate(total=Sum("amount"))["total"]
    return -int(moved or 0)


def ticket_accounts(user: int, tickets_into: object) -> tuple[AccountRef, ...]:
    """A player's ticket into a tournament (or step) and the accounts behind it."""
    return (
        ledger.ticket(user, tickets_into),
        ledger.tickets_issued(tickets_into),
        ledger.ticket_reserve(tickets_into),
    )


def cash_out_accounts(user: int, tickets_into: object) -> tuple[AccountRef, ...]:
    """The accounts a ticket's cash-out (``money.ticket_refund``) moves."""
    return (*ticket_accounts(user, tickets_into), ledger.cash(user))


def _entry(p: Posting) -> tuple[AccountRef, ...]:
    """Where an entry's money goes: the pool, and the house for a fee."""
    fee = p.state.definition.fee
    return (ledger.pool(p.tournament), *((ledger.house(),) if fee else ()))


class _Amounts(TypedDict):
    """The player, tournament and amounts a ledger posting of an entry names."""

    user_id: int
    tournament: int
    buy_in: int
    fee: int


def _registered(p: Posting, e: Registered) -> list[Planned]:
    d, user, t = p.state.definition, int(e.player), p.tournament
    held = tickets_held(user, p.tickets_into)
    if p.ticket and not held:
        raise NoTicket()
    fields: _Amounts = {"user_id": user, "tournament": t, "buy_in": d.pool_share, "fee": d.fee}
    entry = _entry(p)
    if held and p.ticket is not False:
        spend = partial(
            money.ticket_spend, transfer_id=p.transfer_id(), tickets_into=p.tickets_into, **fields
        )
        return [Planned((*ticket_accounts(user, p.tickets_into), *entry), spend)]
    if not d.entry_price:
        return []
    pay = partial(money.tournament_register, transfer_id=p.transfer_id(), **fields)
    return [Planned((ledger.cash(user), *entry), pay)]


def _refund(p: Posting, player: str, amount: int) -> list[Planned]:
    """Give back ``amount``: each entry paid with a ticket as its ticket,
    the rest in cash (fees from the house, the remainder from the pool)."""
    d, user, t = p.state.definition, int(player), p.tournament
    entrant = p.state.entrants[player]
    by_ticket = min(tickets_spent(user, t, p.tickets_into), entrant.entries)
    base: _Amounts = {"user_id": user, "tournament": t, "buy_in": d.pool_share, "fee": d.fee}
    entry = _entry(p)
    unregister = partial(
        money.tournament_unregister, ticket=True, tickets_into=p.tickets_into, **base
    )
    out = [
        Planned(
            (*ticket_accounts(user, p.tickets_into), *entry),
            partial(unregister, transfer_id=p.transfer_id(k)),
        )
        for k in range(by_ticket)
    ]
    fees = (entrant.entries - by_ticket) * d.fee
    rest = amount - by_ticket * d.entry_price - fees
    if fees or rest:
        back: _Amounts = {**base, "buy_in": rest, "fee": fees}
        refund = partial(money.tournament_unregister, transfer_id=p.transfer_id(), **back)
        out.append(Planned((ledger.cash(user), *entry), refund))
    return out


def _chips_bought(kind: Transfer.Kind) -> Callable[[Posting, Any], list[Planned]]:
    """A rebuy or an add-on: its price from the player's cash to the pool."""

    def plan(p: Posting, e: Rebought | AddedOn) -> list[Planned]:
        if not e.price:
            return []
        user = int(e.player)
        pay = partial(
            money.tournament_chips_in, kind=kind, transfer_id=p.transfer_id(), user_id=user,
            tournament=p.tournament, amount=e.price,
        )  # fmt: skip
        return [Planned((ledger.cash(user), ledger.pool(p.tournament)), pay)]

    return plan


def _awarded(p: Posting, e: PrizesAwarded) -> list[Planned]:
    """Cash prizes from the pool; a satellite's seats as tickets into its
    target, and a step's consolation tickets into their steps, each backed
    by its value from the pool."""
    satellite = p.state.definition.satellite
    pool = ledger.pool(p.tournament)
    out: list[Planned] = []
    for award in e.awards:
        user = int(award.player)
        if award.cash:
            out.append(_prize(p, award.player, "cash", award.cash))
        for kind, into in (("ticket", e.target if award.ticket else None), ("into", award.into)):
            if into:
                assert satellite is not None
                seat = partial(
                    money.ticket_award, transfer_id=p.transfer_id(award.player, kind),
                    user_id=user, target=into, value=satellite.ticket_value(into),
                    paid_from=p.tournament,
                )  # fmt: skip
                out.append(Planned((pool, *ticket_accounts(user, into)), seat))
    return out


def _bounty(p: Posting, e: BountyPaid) -> list[Planned]:
    """A head's cash from the pool (which holds the heads with the prize
    pool) to each who won a part of it, paid as a prize."""
    return [_prize(p, share.player, "bounty", share.cash) for share in e.shares if share.cash]


def _prize(p: Posting, player: str, what: str, amount: int) -> Planned:
    """``amount`` from the pool to the player, paid as a prize (its
    transfer id named by the player and ``what`` it is)."""
    user = int(player)
    pay = partial(
        money.tournament_prize,
        transfer_id=p.transfer_id(player, what),
        user_id=user,
        tournament=p.tournament,
        amount=amount,
    )
    return Planned((ledger.pool(p.tournament), ledger.cash(user)), pay)


def _guarantee(back: bool) -> Callable[[Posting, Any], list[Planned]]:
    """The house's guarantee into the pool, or its unneeded rest back."""

    def plan(p: Posting, e: GuaranteeHeld | GuaranteeReleased) -> list[Planned]:
        move = partial(
            money.tournament_guarantee, transfer_id=p.transfer_id(), tournament=p.tournament,
            amount=e.amount, back=back,
        )  # fmt: skip
        return [Planned((ledger.house(), ledger.pool(p.tournament)), move)]

    return plan


def _carried(p: Posting, e: FlightCarried) -> list[Planned]:
    """A starting flight's whole pool into its Day 2's (the flight's own
    stream pays nothing when it stops)."""
    if not e.pool:
        return []
    move = partial(
        money.tournament_pool_carry, transfer_id=p.transfer_id(), tournament=e.source,
        into=p.tournament, amount=e.pool,
    )  # fmt: skip
    return [Planned((ledger.pool(e.source), ledger.pool(p.tournament)), move)]


def _tickets_cashed_out(p: Posting) -> list[Planned]:
    """A tournament called off: after the refunds (which give back the
    tickets that paid entries), every ticket into it still held, won in a
    satellite or given by the house, is cashed out at the entry price that
    backs it; a ticket into a tournament that will never run is money."""
    t, value = p.tournament, p.state.definition.entry_price
    holders = Account.objects.filter(kind=Account.Kind.TICKET, ref=str(t))
    users = sorted({*holders.values_list("user_id", flat=True), *map(int, p.state.entrants)})
    return [
        Planned(cash_out_accounts(user, t), partial(_cash_out, p, user, value)) for user in users
    ]


def _cash_out(p: Posting, user: int, value: int) -> None:
    held = tickets_held(user, p.tournament)
    if held and value:
        money.ticket_refund(
            transfer_id=p.transfer_id(user, "tickets"), user_id=user, tournament=p.tournament,
            value=value, count=held,
        )  # fmt: skip


_HANDLERS: dict[type[Any], Callable[[Posting, Any], list[Planned]]] = {
    Registered: _registered,
    Unregistered: lambda p, e: _refund(p, e.player, e.refund),
    Refunded: lambda p, e: _refund(p, e.player, e.amount),
    Rebought: _chips_bought(Transfer.Kind.REBUY),
    AddedOn: _chips_bought(Transfer.Kind.ADD_ON),
    PrizesAwarded: _awarded,
    BountyPaid: _bounty,
    GuaranteeHeld: _guarantee(back=False),
    GuaranteeReleased: _guarantee(back=True),
    FlightCarried: _carried,
}
