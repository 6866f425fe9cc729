"""Step satellite chains (``tournaments.rules.steps``): setting one up, the
definition of a step's tournament, the director's view of the chain, a
holder's tickets with their value and expiry, and cashing out the step
tickets still held once the chain has expired.

A chain is a row (``StepChain``), not a stream: it changes nothing but its
own settings, and everything it holds is on the ledger (the step tickets,
``ticket:<user>:step-3-2``, and the money behind them) or in the streams of
its tournaments.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import ledger, money
from accounts.models import Account
from accounts.selectors import account_balance
from kernel.api_errors import ApiError
from tournaments import timing
from tournaments.definitions import definition_build
from tournaments.errors import BadTarget, NotFound, StepChainOpen, invalid, refusal
from tournaments.models import TAKING, StepChain, Tournament
from tournaments.payments import cash_out_accounts
from tournaments.rules import (
    InvalidDefinition,
    TournamentDefinition,
    definition_from_json,
    step_ticket,
)
from tournaments.rules import StepChain as ChainRules
from tournaments.services import ensure_director

PLAYING = (*TAKING, Tournament.Status.RUNNING)


def chain_rules(row: StepChain) -> ChainRules:
    """The rules' chain of a chain row."""
    prices = tuple(int(s["price"]) for s in row.steps)
    consolation = tuple(tuple(s.get("consolation") or ()) for s in row.steps)
    return ChainRules(prices, row.target_price, consolation)


def _chain(chain_id: int) -> StepChain:
    row = StepChain.objects.filter(pk=chain_id).select_related("target").first()
    if row is None:
        raise NotFound(_("No such step chain."))
    return row


def step_chain_create(
    *, by: Any, name: str, target: int, expires_at: datetime, steps: list[dict[str, Any]]
) -> StepChain:
    """A chain of steps into tournament ``target`` (directors only): each
    step's entry price and consolation steps; the last step's seats are
    worth the target's entry price."""
    ensure_director(by)
    row = Tournament.objects.filter(pk=target).first()
    if row is None or row.status not in TAKING:
        raise BadTarget(extra={"fields": {"target": [BadTarget.message]}})
    if expires_at <= timing.now():
        raise ApiError(_("A chain's tickets expire in the future."), code="invalid")
    price = definition_from_json(row.definition).entry_price
    shaped = [{"price": s["price"], "consolation": list(s.get("consolation") or ())} for s in steps]
    chain = StepChain(
        name=name, target=row, steps=shaped, target_price=price, expires_at=expires_at
    )
    try:
        chain_rules(chain)
    except InvalidDefinition as error:
        raise refusal(error) from None
    chain.save()
    return chain


def tournament_definition(
    data: dict[str, Any],
) -> tuple[TournamentDefinition, StepChain | None, int | None]:
    """The definition a tournament create body describes (``TournamentIn``
    as validated, without its name and start), and the chain and step of
    a step satellite's tournament (None, None otherwise)."""
    fields = dict(data)
    step = fields.pop("step", None)
    definition = definition_build(fields)
    if step is None:
        return definition, None, None
    definition, chain = step_definition(definition, **step)
    return definition, chain, step["step"]


def step_definition(
    definition: TournamentDefinition, *, chain: int, step: int, seats: int | None = None
) -> tuple[TournamentDefinition, StepChain]:
    """``definition`` as a tournament of step ``step``: what the step
    awards, at the step's entry price (refused otherwise), in a chain
    whose tickets have not expired."""
    row = _chain(chain)
    rules = chain_rules(row)
    if row.expired(timing.now()):
        raise invalid("step.chain", "This step chain has expired.")
    if not 1 <= step <= rules.steps:
        raise invalid("step.step", f"The chain has steps 1 to {rules.steps}.")
    if definition.entry_price != rules.price(step):
        raise invalid("buy_in", f"Step {step}'s entry price is {rules.price(step)}.")
    if step == rules.steps and row.target.status not in TAKING:
        raise invalid("step.chain", BadTarget.message)
    if definition.payouts is not None:
        raise invalid("payouts", "A step pays seats and tickets, not a payout table.")
    try:
        made = replace(definition, satellite=rules.satellite(row.pk, step, row.target_id, seats))
    except InvalidDefinition as error:
        raise refusal(error) from None
    return made, row


# --------------------------------------------------------------------------
# What the director and the holders see


def chain_list(*, by: Any) -> list[dict[str, Any]]:
    """Every chain, newest first, as ``chain_detail`` shows it (directors)."""
    ensure_director(by)
    return [
        chain_detail(pk, by=by)
        for pk in StepChain.objects.order_by("-id").values_list("pk", flat=True)
    ]


def chain_detail(chain_id: int, *, by: Any) -> dict[str, Any]:
    """The whole chain for its director: each step's price, consolation,
    tournaments and tickets outstanding (handed out, not yet spent or
    cashed out), and the tickets outstanding into the target."""
    ensure_director(by)
    row = _chain(chain_id)
    rules = chain_rules(row)
    tournaments = Tournament.objects.filter(step_chain=row).order_by("id")
    steps = [
        {
            "step": n,
            "ticket": step_ticket(row.pk, n),
            "price": rules.price(n),
            "consolation": list(rules.consolation_of(n)),
            "tickets_outstanding": _outstanding(step_ticket(row.pk, n)),
            "tournaments": [_tournament(t) for t in tournaments if t.step == n],
        }
        for n in range(1, rules.steps + 1)
    ]
    return {
        "id": row.pk,
        "name": row.name,
        "expires_at": row.expires_at,
        "expired": row.expired(timing.now()),
        "closed": row.closed,
        "target": {
            **_tournament(row.target),
            "price": row.target_price,
            "tickets_outstanding": _outstanding(str(row.target_id)),
        },
        "steps": steps,
    }


def _outstanding(into: str) -> int:
    return -account_balance(ledger.tickets_issued(into))


def _tournament(row: Tournament) -> dict[str, Any]:
    return {"id": row.pk, "name": row.name, "status": row.status, "entries": row.entries}


def tickets_of(user: Any) -> list[dict[str, Any]]:
    """The tickets a player holds: what each enters, how many, what one is
    worth and until when it can be played."""
    held = Account.objects.filter(kind=Account.Kind.TICKET, user_id=user.pk, balance__gt=0)
    return [_ticket(a.ref, a.balance) for a in held.order_by("ref")]


def _ticket(ref: str, count: int) -> dict[str, Any]:
    if ref.startswith("step-"):
        chain_id, step = (int(part) for part in ref.split("-")[1:])
        chain = _chain(chain_id)
        return {
            "ticket": ref, "count": count, "value": chain_rules(chain).price(step),
            "enters": f"{chain.name}, step {step}", "tournament": None,
            "step_chain": chain.pk, "step": step,
            "expires_at": chain.expires_at, "expires": "when the step chain expires",
        }  # fmt: skip
    row = Tournament.objects.get(pk=int(ref))
    return {
        "ticket": ref, "count": count, "value": definition_from_json(row.definition).entry_price,
        "enters": row.name, "tournament": row.pk, "step_chain": None, "step": None,
        "expires_at": row.starts_at, "expires": "when the tournament's registration closes",
    }  # fmt: skip


# --------------------------------------------------------------------------
# The end of a chain


def step_chain_close(chain_id: int, *, by: Any) -> dict[str, Any]:
    """Once the chain has expired and none of its tournaments is still to
    play: every step ticket still held is cashed out to its holder at the
    step's price, from the money that backs it (directors only; closing a
    closed chain changes nothing).

    The cash-outs are many transfers in one transaction: every account
    they touch (each holder's ticket and wallet, each step's tickets
    issued and reserve) is locked at once, in id order, before the first
    is posted (docs/accounts.md, "Lock order"), so a close never holds one
    wallet while it waits for another."""
    ensure_director(by)
    with transaction.atomic():
        row = StepChain.objects.select_for_update().get(pk=_chain(chain_id).pk)
        if row.closed:
            return chain_detail(row.pk, by=by)
        if row.expires_at > timing.now():
            raise StepChainOpen()
        if Tournament.objects.filter(step_chain=row, status__in=PLAYING).exists():
            raise StepChainOpen(_("Some of the chain's tournaments are still to play."))
        rules = chain_rules(row)
        prices = {step_ticket(row.pk, n): rules.price(n) for n in range(1, rules.steps + 1)}
        held = Account.objects.filter(kind=Account.Kind.TICKET, ref__in=prices, balance__gt=0)
        holders = [(a.ref, _holder(a)) for a in held.order_by("ref", "user_id")]
        locked = ledger.accounts_lock(
            {ref for into, user in holders for ref in cash_out_accounts(user, into)}
        )
        for into, user in holders:
            count = locked[ledger.ticket(user, into)].balance  # as it stands, locked
            if count:
                money.ticket_refund(
                    transfer_id=ledger.transfer_id_for(f"step-chain-{row.pk}/close/{into}/{user}"),
                    user_id=user, tournament=into, value=prices[into], count=count,
                )  # fmt: skip
        row.closed = True
        row.save(update_fields=["closed"])
    return chain_detail(row.pk, by=by)


def _holder(account: Account) -> int:
    """The player who holds a ticket account."""
    assert account.user_id is not None  # a ticket account is a player's
    return account.user_id
