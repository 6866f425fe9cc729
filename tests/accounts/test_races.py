"""Two real PostgreSQL connections racing over the same money.

Each racer runs on its own thread with its own connection to the
``postgres`` alias; a barrier starts them together (``race``), and each
race is repeated on fresh wallets.  The lock-step rounds make the one
interleaving a race only sometimes produces: the second spender reaches
the account lock while the first holds it with its transfer written but
not committed.  The table races need ``default`` on PostgreSQL (CI).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any
from unittest import mock

import pytest

from accounts import ledger, money, postings
from accounts.errors import DuplicateTransfer, InsufficientFunds
from accounts.ledger import Move
from accounts.models import Transfer
from accounts.selectors import account_balance
from poker import services
from tests.accounts.conftest import assert_sound
from tests.funds import cash_of, fund
from tests.poker.concurrency import (
    RACE_TIMEOUT_S,
    Outcome,
    lockstep,
    race,
    start,
    wait_for_lock_waiters,
)

REPEATS = 20
PG = "postgres"

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True, databases=[PG])]


@pytest.fixture
def wallet(django_user_model):
    """``wallet(cash)``: a fresh player on the postgres alias with ``cash``."""
    names = iter(range(10**6))

    def make(cash: int):
        user = django_user_model.objects.db_manager(PG).create_user(f"p{next(names)}")
        return fund(user, cash, using=PG) if cash else user

    return make


def withdraw(user, amount, transfer_id=None):
    return money.wallet_withdraw(
        transfer_id=transfer_id or uuid.uuid4(), user_id=user.pk, amount=amount, using=PG
    )


def winners(outcomes: list[Outcome]) -> list[int]:
    """Which racers succeeded."""
    return [k for k, o in enumerate(outcomes) if o.ok]


def lockstep_spend(first, second) -> list[Outcome]:
    """``first`` writes its transfer and waits, uncommitted; ``second``
    starts and queues on the account lock; then ``first`` commits."""
    return lockstep(first, second, hold=(postings, "write"), using=PG)


# --------------------------------------------------------------------------
# Spending the same money twice


def test_two_connections_spending_the_same_money_one_wins_the_other_is_refused(wallet):
    """Two withdrawals of 80 from 100 at the same instant: exactly one is
    paid, the other is told insufficient_funds, 20 is left, and the ledger
    is sound.  The first round is in lock-step."""
    ann = wallet(100)
    outcomes = lockstep_spend(partial(withdraw, ann, 80), partial(withdraw, ann, 80))
    assert winners(outcomes) == [0]
    assert isinstance(outcomes[1].error, InsufficientFunds)
    assert cash_of(ann, PG) == 20
    for _ in range(REPEATS):
        ann = wallet(100)
        outcomes = race(partial(withdraw, ann, 80), partial(withdraw, ann, 80))
        (win,) = winners(outcomes)
        loser = outcomes[1 - win].error
        assert isinstance(loser, InsufficientFunds) and loser.code == "insufficient_funds"
        assert cash_of(ann, PG) == 20
    assert Transfer.objects.using(PG).filter(kind="withdrawal").count() == REPEATS + 1
    assert_sound(PG)


def test_a_tournament_and_the_cashier_racing_for_one_wallet_one_wins(wallet):
    """A registration and a withdrawal that cannot both be paid."""
    for _ in range(REPEATS):
        ann = wallet(100)
        register = partial(
            money.tournament_register,
            transfer_id=uuid.uuid4(),
            user_id=ann.pk,
            tournament="spring",
            buy_in=60,
            fee=10,
            using=PG,
        )
        outcomes = race(register, partial(withdraw, ann, 50))
        (win,) = winners(outcomes)
        assert isinstance(outcomes[1 - win].error, InsufficientFunds)
        assert cash_of(ann, PG) == (30 if win == 0 else 50)
    assert_sound(PG)


def test_payments_crossing_in_opposite_directions_never_deadlock(wallet):
    """ann pays bob while bob pays ann, many times at once: both accounts
    are locked in id order by both, so they queue and never deadlock."""
    ann, bob = wallet(1000), wallet(1000)

    def pay(source, target):
        for _ in range(10):
            ledger.transfer_post(
                transfer_id=uuid.uuid4(),
                kind=Transfer.Kind.PRIZE,
                moves=[Move(ledger.cash(source.pk), ledger.cash(target.pk), 7)],
                using=PG,
            )

    outcomes = race(partial(pay, ann, bob), partial(pay, bob, ann), partial(pay, ann, bob))
    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    assert (cash_of(ann, PG), cash_of(bob, PG)) == (930, 1070)
    assert_sound(PG)


# --------------------------------------------------------------------------
# Accounts created by one transfer while others want them


class Pause:
    """Where a racer stops: right after it has created its missing accounts
    (``ledger._create``), uncommitted, until ``release``."""

    def __init__(self) -> None:
        self.inside, self.released = threading.Event(), threading.Event()

    def release(self) -> None:
        self.released.set()


@contextmanager
def pauses_after_create() -> Iterator[Callable[[Pause, Callable[[], Any]], Callable[[], Any]]]:
    """``paused(pause, call)``: ``call`` stopping at ``pause`` (each racer
    on its own thread, so the pause is the thread's own)."""
    mine = threading.local()
    real = ledger._create

    def create(refs: list[ledger.AccountRef], using: str) -> None:
        real(refs, using)
        pause = getattr(mine, "pause", None)
        if pause is not None:
            mine.pause = None
            pause.inside.set()
            assert pause.released.wait(RACE_TIMEOUT_S), "never released"

    def paused(pause: Pause, call: Callable[[], Any]) -> Callable[[], Any]:
        def go() -> Any:
            mine.pause = pause
            return call()

        return go

    with mock.patch.object(ledger, "_create", create):
        yield paused


def test_transfers_creating_the_same_accounts_never_deadlock(wallet):
    """Three transfers into a new pool and a new wallet, in the one order
    that used to deadlock: cid's registration creates the pool and waits
    uncommitted; a prize to ann (who has no wallet yet) creates her wallet
    and queues on the pool's creation; cid commits and the first prize
    stops with ann's wallet created, uncommitted; a second prize to ann
    finds the pool there and queues on her wallet's creation.  Had it
    locked the pool before, the first prize's lock would wait on it while
    it waited on the first prize.  Accounts are created before any lock is
    taken, so all three are paid."""
    cid, ann = wallet(100), wallet(0)
    pool = f"deadlock-{ann.pk}"
    register = partial(
        money.tournament_register,
        transfer_id=uuid.uuid4(), user_id=cid.pk, tournament=pool, buy_in=50, using=PG,
    )  # fmt: skip

    def prize(amount: int) -> Any:
        return money.tournament_prize(
            transfer_id=uuid.uuid4(), user_id=ann.pk, tournament=pool, amount=amount, using=PG
        )

    outcomes = [Outcome(), Outcome(), Outcome()]
    first, second = Pause(), Pause()
    threads: list[threading.Thread] = []
    with pauses_after_create() as paused:
        try:
            threads.append(start(paused(first, register), outcomes[0]))
            assert first.inside.wait(RACE_TIMEOUT_S), "the registration never created the pool"
            threads.append(start(paused(second, partial(prize, 10)), outcomes[1]))
            wait_for_lock_waiters(1, using=PG)  # on the pool's creation
            first.release()
            assert second.inside.wait(RACE_TIMEOUT_S), "the first prize never created the wallet"
            threads.append(start(partial(prize, 5), outcomes[2]))
            wait_for_lock_waiters(1, using=PG)  # on the wallet's creation
        finally:
            first.release()
            second.release()
            for thread in threads:
                thread.join(RACE_TIMEOUT_S)
    assert not any(t.is_alive() for t in threads), "a transfer hung"
    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    assert (cash_of(cid, PG), cash_of(ann, PG)) == (50, 15)
    assert account_balance(ledger.pool(pool), using=PG) == 35
    assert_sound(PG)


# --------------------------------------------------------------------------
# One transfer id, twice at once


def test_one_transfer_id_sent_twice_at_once_moves_the_money_once(wallet):
    for _ in range(REPEATS):
        ann = wallet(100)
        transfer_id = uuid.uuid4()
        outcomes = race(*[partial(withdraw, ann, 30, transfer_id)] * 2)
        assert all(o.ok for o in outcomes), [o.code for o in outcomes]
        assert outcomes[0].value.pk == outcomes[1].value.pk == transfer_id
        assert cash_of(ann, PG) == 70
    assert_sound(PG)


def test_one_transfer_id_for_two_different_transfers_at_once_one_is_refused(wallet):
    """Over accounts that share no lock, so the two inserts meet only at the
    transfer id: the loser is told duplicate_transfer, not a server error."""
    for _ in range(REPEATS):
        ann, bob = wallet(100), wallet(100)
        transfer_id = uuid.uuid4()
        moves = [
            [Move(ledger.cash(ann.pk), ledger.pool(f"a{ann.pk}"), 10)],
            [Move(ledger.cash(bob.pk), ledger.pool(f"b{bob.pk}"), 10)],
        ]
        outcomes = race(
            *(
                partial(
                    ledger.transfer_post,
                    transfer_id=transfer_id,
                    kind=Transfer.Kind.REGISTRATION,
                    moves=m,
                    using=PG,
                )
                for m in moves
            )
        )
        (win,) = winners(outcomes)
        assert isinstance(outcomes[1 - win].error, DuplicateTransfer)
        assert sorted([cash_of(ann, PG), cash_of(bob, PG)]) == [90, 100]
    assert_sound(PG)


# --------------------------------------------------------------------------
# Two tables, one wallet


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("pg_default")
def test_sitting_at_two_tables_with_money_for_one_seats_him_once(django_user_model):
    """A player with 150 sits down for 100 at two tables at once: one seat
    is taken and paid, the other refused with insufficient_funds and its
    table untouched."""
    boss = django_user_model.objects.create_user("boss", is_staff=True)
    for k in range(REPEATS // 2):
        ann = fund(django_user_model.objects.create_user(f"ann{k}"), 150)
        tables = [
            services.table_create(
                by=boss,
                name="t",
                game="32-card-draw",
                betting="no-limit",
                small_blind=1,
                big_blind=2,
            ).pk
            for _ in range(2)
        ]
        outcomes = race(
            *(
                partial(
                    services.seat_sit,
                    by=ann,
                    table_id=t,
                    seat=1,
                    buy_in=100,
                    command_id=uuid.uuid4(),
                )
                for t in tables
            )
        )
        (win,) = winners(outcomes)
        assert outcomes[1 - win].code == "insufficient_funds"
        assert cash_of(ann) == 50
    assert_sound()


# --------------------------------------------------------------------------
# One id from two connections, over accounts no lock shares


def transfer(source, target, amount, transfer_id):
    """``amount`` from ``source``'s wallet to ``target``'s under ``transfer_id``."""
    return ledger.transfer_post(
        transfer_id=transfer_id,
        kind=Transfer.Kind.DEPOSIT,
        moves=[Move(ledger.cash(source.pk), ledger.cash(target.pk), amount)],
        using=PG,
    )


@pytest.mark.parametrize("same", [True, False], ids=["same-movement", "other-movement"])
def test_one_id_from_two_connections_over_other_accounts_is_written_once(wallet, same):
    """The first writes its transfer and waits uncommitted; the second,
    over accounts of its own (no account lock queues it), reads the id as
    free, then its insert waits on the first's (``ON CONFLICT DO NOTHING``)
    and writes nothing once the first commits: it gets the first transfer
    back for the same movement, ``DuplicateTransfer`` for another."""
    ann, bob, cid, dan = wallet(100), wallet(1), wallet(100), wallet(1)  # accounts that exist
    tid = uuid.uuid4()
    second = partial(transfer, ann, bob, 30, tid) if same else partial(transfer, cid, dan, 30, tid)
    outcomes = lockstep_spend(partial(transfer, ann, bob, 30, tid), second)
    assert outcomes[0].ok and outcomes[0].value.pk == tid
    if same:
        assert outcomes[1].ok and outcomes[1].value.pk == tid
    else:
        assert isinstance(outcomes[1].error, DuplicateTransfer)
    got = [cash_of(u, PG) for u in (ann, bob, cid, dan)]
    assert got == [70, 31, 100, 1]
    assert Transfer.objects.using(PG).filter(pk=tid).count() == 1
    assert_sound(PG)
