"""Tournament transactions that make several transfers take their account
locks in the one global order (docs/accounts.md, "Lock order"): every
account they will touch, in id order, before the first transfer.

Each test drives the one interleaving that deadlocks a transaction taking
its accounts transfer by transfer, on real PostgreSQL connections
(``default`` on PostgreSQL: ``pg_default``): the first racer stops after
its first transfer is written, uncommitted (``lockstep``, held at
``postings.write``); the second starts and queues on a lock; then the
first goes on.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from functools import partial
from typing import Any

import pytest

from accounts import ledger, money, postings
from accounts.ledger import Move
from accounts.models import Account, Transfer
from accounts.selectors import account_balance
from tests.funds import cash_of
from tests.poker.concurrency import lockstep
from tests.tournaments.conftest import CASH
from tests.tournaments.service_support import create
from tournaments import play, steps, timing, work
from tournaments.models import StepChain
from tournaments.rules import Register, step_ticket

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("pg_default"),
]

STEPS = [{"price": 110}, {"price": 330}]


def _expired_chain(director: Any, target: Any, holders: list[Any]) -> StepChain:
    """A two-step chain into ``target`` whose step ``n`` ticket is held by
    ``holders[n - 1]`` (given by the house), expired, none of its
    tournaments to play: ready to close."""
    chain = steps.step_chain_create(
        by=director, name="Steps", target=target.pk,
        expires_at=timing.now() + timedelta(days=1), steps=STEPS,
    )  # fmt: skip
    for n, holder in enumerate(holders, start=1):
        money.ticket_award(
            transfer_id=uuid.uuid4(), user_id=holder.pk, target=step_ticket(chain.pk, n),
            value=STEPS[n - 1]["price"],
        )  # fmt: skip
    StepChain.objects.filter(pk=chain.pk).update(expires_at=timing.now() - timedelta(seconds=1))
    return chain


@pytest.fixture
def two_holders(make_user: Any) -> tuple[Any, Any, Any]:
    """A director, and ann and bob with ``CASH`` each; the house funded to
    give tickets away."""
    money.house_fund(transfer_id=uuid.uuid4(), amount=10 * CASH)
    return (
        make_user("director", cash=0, role="tournament_director"),
        make_user("ann"),
        make_user("bob"),
    )


def _held_by(chain: StepChain) -> int:
    return sum(
        -account_balance(ledger.tickets_issued(step_ticket(chain.pk, n)))
        for n in range(1, len(STEPS) + 1)
    )


def test_two_chains_closing_at_once_with_holders_in_opposite_orders_never_deadlock(two_holders):
    """Chain one pays bob (its step 1) before ann (its step 2), chain two
    ann before bob: closed at once, transfer by transfer, each would hold
    one wallet and wait for the other's.  Each close locks every account
    its cash-outs touch first, so the second waits for the first whole,
    and both chains close with every ticket cashed out."""
    director, ann, bob = two_holders
    target = create(director, name="Main", buy_in=1000, fee=100)
    one = _expired_chain(director, target, [bob, ann])
    two = _expired_chain(director, target, [ann, bob])
    outcomes = lockstep(
        partial(steps.step_chain_close, one.pk, by=director),
        partial(steps.step_chain_close, two.pk, by=director),
        hold=(postings, "write"),
    )
    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    assert all(o.value["closed"] for o in outcomes)
    assert (_held_by(one), _held_by(two)) == (0, 0)
    assert (cash_of(ann), cash_of(bob)) == (CASH + 440, CASH + 440)


def test_a_chain_closing_while_a_payment_locks_its_holders_wallets_never_deadlocks(two_holders):
    """The close has paid bob (step 1) and not yet ann (step 2) when one
    transfer pays both from a pool (as a tournament's prizes do, their
    accounts locked together in id order): it takes ann's wallet and waits
    for bob's, the close would wait for ann's.  The close holds both
    wallets from its start, so the payment waits for it, and both go
    through."""
    director, ann, bob = two_holders
    target = create(director, name="Main", buy_in=1000, fee=100)
    chain = _expired_chain(director, target, [bob, ann])
    pool = ledger.pool(f"locks-{chain.pk}")
    ledger.transfer_post(
        transfer_id=uuid.uuid4(), kind=Transfer.Kind.OVERLAY,
        moves=[Move(ledger.house(), pool, 20)],
    )  # fmt: skip
    wallet = {u: Account.objects.get(key=ledger.cash(u.pk).key).pk for u in (ann, bob)}
    assert wallet[ann] < wallet[bob]  # the payment locks ann's first
    pay_both = partial(
        ledger.transfer_post, transfer_id=uuid.uuid4(), kind=Transfer.Kind.PRIZE,
        moves=[Move(pool, ledger.cash(ann.pk), 10), Move(pool, ledger.cash(bob.pk), 10)],
    )  # fmt: skip
    outcomes = lockstep(
        partial(steps.step_chain_close, chain.pk, by=director),
        pay_both,
        hold=(postings, "write"),
    )
    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    assert _held_by(chain) == 0
    assert (cash_of(ann), cash_of(bob)) == (CASH + 330 + 10, CASH + 110 + 10)


def test_a_catch_up_whose_reports_pay_two_players_never_deadlocks(two_holders, monkeypatch):
    """A catch-up (a deal timer, a sweep, a hand over) runs several
    tournament commands in one transaction: each table's report, each of
    which may pay (a bounty, the prizes).  Here two commands on its unit
    pay, bob's wallet (the higher id) first, then ann's, while one
    transfer pays both (in id order: ann's wallet first, then it waits for
    bob's).  Posted command by command, the catch-up would hold bob's and
    wait for ann's.  The unit's transfers are posted at the transaction's
    end, every account they touch locked at once, so the payment waits
    for the catch-up, and both go through."""
    _director, ann, bob = two_holders
    t = create(_director, name="Spring", buy_in=100, fee=10)
    wallet = {u: Account.objects.get(key=ledger.cash(u.pk).key).pk for u in (ann, bob)}
    assert wallet[ann] < wallet[bob]

    def two_paying_reports(tournament: int, unit: Any, start: Any) -> None:
        for user in (bob, ann):  # stands in for the reports of two tables
            work.run(
                tournament, by=user, command_id=None, kind="tournament.register", unit=unit,
                decide=lambda s, now, p=str(user.pk): Register(p, now, 1),
            )  # fmt: skip

    monkeypatch.setattr(play, "_play_on", two_paying_reports)
    pool = ledger.pool(f"locks-{t.pk}")
    ledger.transfer_post(
        transfer_id=uuid.uuid4(), kind=Transfer.Kind.OVERLAY,
        moves=[Move(ledger.house(), pool, 20)],
    )  # fmt: skip
    pay_both = partial(
        ledger.transfer_post, transfer_id=uuid.uuid4(), kind=Transfer.Kind.PRIZE,
        moves=[Move(pool, ledger.cash(ann.pk), 10), Move(pool, ledger.cash(bob.pk), 10)],
    )  # fmt: skip
    outcomes = lockstep(partial(play.catch_up, t.pk, []), pay_both, hold=(postings, "write"))
    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    assert (cash_of(ann), cash_of(bob)) == (CASH - 110 + 10, CASH - 110 + 10)
    assert account_balance(ledger.pool(t.pk)) == 200
