"""Random operations on wallets, tournaments, tickets and cash tables, for
the property tests: hypothesis draws them, ``World.do`` carries one out
(a refusal is an outcome, not a failure), ``World.check`` asserts what must
hold after any of them.

An operation is a tuple: its name, then small indexes (which player, which
table, which tournament) and amounts; a ``retry`` repeats an earlier
operation under its transfer id, which must move nothing again.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Sum
from hypothesis import strategies as st

from accounts import ledger, money
from accounts.audit import ledger_audit
from accounts.models import Account, Transfer
from accounts.selectors import account_balance
from kernel.api_errors import ApiError
from kernel.models import Event
from poker import selectors, services
from poker.models import Table

PLAYERS, TABLES, TOURNAMENTS = 4, 2, 2
NAMES = itertools.count()

amounts = st.integers(min_value=0, max_value=300)
player = st.integers(0, PLAYERS - 1)
tournament = st.integers(0, TOURNAMENTS - 1)
table = st.integers(0, TABLES - 1)

CASHIER = st.one_of(
    st.tuples(st.just("deposit"), player, amounts),
    st.tuples(st.just("withdraw"), player, amounts),
)

LEDGER_OPERATIONS = st.one_of(
    CASHIER,
    st.tuples(st.just("register"), player, tournament, amounts, st.integers(0, 30)),
    st.tuples(st.just("unregister"), player, tournament, amounts, st.integers(0, 30)),
    st.tuples(st.just("rebuy"), player, tournament, amounts),
    st.tuples(st.just("add_on"), player, tournament, amounts),
    st.tuples(st.just("prize"), player, tournament, amounts),
    st.tuples(st.just("award"), player, tournament, amounts, st.one_of(st.none(), tournament)),
    st.tuples(st.just("spend"), player, tournament, amounts, st.integers(0, 30)),
    st.tuples(st.just("retry"), st.integers(0, 50)),
)

ACT = st.tuples(st.just("act"), table, st.integers(0, 10**6))

OWN_SEAT = player.flatmap(
    lambda p: st.tuples(st.just("sit"), st.just(p), table, st.just(p + 1), st.integers(40, 200))
)
"""Sitting down in a seat of one's own (so players meet at a table)."""

SEAT_OPERATIONS = st.one_of(
    st.tuples(st.just("sit"), player, table, st.integers(1, 5), st.integers(40, 200)),
    OWN_SEAT,
    st.tuples(st.just("top_up"), player, table, st.integers(1, 150)),
    st.tuples(st.just("leave"), player, table),
    st.tuples(st.just("sit_out"), player, table),
    st.tuples(st.just("sit_in"), player, table),
    ACT,
    ACT,
    ACT,
    ACT,
)
"""Table commands but closing, acting half the time (so hands are played)."""

TABLE_OPERATIONS = st.one_of(SEAT_OPERATIONS, st.tuples(st.just("close"), table))

ALL_OPERATIONS = st.one_of(LEDGER_OPERATIONS, TABLE_OPERATIONS)


@dataclass
class World:
    """Players, tables and tournaments of one example, and what was done."""

    using: str = "default"
    tables: int = 0
    """How many cash tables (the table services use ``default``)."""
    users: list[Any] = field(default_factory=list)
    table_ids: list[int] = field(default_factory=list)
    tournaments: list[str] = field(default_factory=list)
    done: list[tuple[Any, ...]] = field(default_factory=list)
    """Operations carried out, each with the transfer id it used."""
    paid_in: dict[uuid.UUID, int] = field(default_factory=dict)
    """Deposits (+) and withdrawals (-) carried out, by transfer id."""
    refusals: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.house_before = account_balance(ledger.house(), using=self.using)
        model = get_user_model().objects.db_manager(self.using)
        run = next(NAMES)
        self.users = [model.create_user(f"p{run}-{k}") for k in range(PLAYERS)]
        self.tournaments = [f"t{run}-{k}" for k in range(TOURNAMENTS)]
        if self.tables:
            boss = model.create_user(f"boss{run}", is_staff=True)
            self.boss = boss
            self.table_ids = [
                services.table_create(
                    by=boss,
                    name=f"t{k}",
                    game="32-card-draw",
                    betting="no-limit",
                    small_blind=1,
                    big_blind=2,
                ).pk
                for k in range(self.tables)
            ]

    # ----------------------------------------------------------------------

    def do(self, operation: tuple[Any, ...], *, strict: bool = False) -> str:
        """Carry out ``operation``; "ok" or the refusal's code.  ``strict``
        (no one else writing meanwhile): a refusal or a retry must leave
        the ledger and the tables exactly as they were."""
        before = self.snapshot() if strict else None
        code = self._do(operation)
        if before is not None and (code != "ok" or operation[0] == "retry"):
            assert self.snapshot() == before, (operation, code)
        return code

    def _do(self, operation: tuple[Any, ...], transfer_id: uuid.UUID | None = None) -> str:
        name = operation[0]
        if name == "retry":
            if not self.done:
                return "nothing to retry"
            earlier, first_id = self.done[operation[1] % len(self.done)]
            return self._do(earlier, first_id)
        transfer_id = transfer_id or uuid.uuid4()
        try:
            getattr(self, f"_{name}")(transfer_id, *operation[1:])
        except ApiError as error:
            self.refusals[error.code] = self.refusals.get(error.code, 0) + 1
            return error.code
        if name in LEDGER_NAMES:
            self.done.append((operation, transfer_id))
        if name in ("deposit", "withdraw"):
            self.paid_in[transfer_id] = operation[2] if name == "deposit" else -operation[2]
        return "ok"

    def snapshot(self) -> tuple[Any, ...]:
        """The ledger and the table logs, to compare."""
        accounts = Account.objects.using(self.using).order_by("id")
        return (
            Transfer.objects.using(self.using).count(),
            list(accounts.values_list("key", "balance")),
            Event.objects.using(self.using).count(),
        )

    def check(self) -> None:
        """The ledger is sound (balances are their entries, every transfer
        and the whole ledger sum to zero, no balance below zero, every
        table's chips are its escrow), and the money in the room is what
        came in less what went out: no chip lost, doubled or invented."""
        assert ledger_audit(using=self.using) == []
        chips = Account.objects.using(self.using).filter(unit=ledger.CHIPS, user__in=self.users)
        mine = chips.aggregate(s=Sum("balance"))["s"] or 0
        shared = (
            Account.objects.using(self.using)
            .filter(unit=ledger.CHIPS, user__isnull=True)
            .exclude(kind=Account.Kind.EXTERNAL)
            .filter(ref__in=self._refs())
        )
        fees = account_balance(ledger.house(), using=self.using) - self.house_before
        held = mine + (shared.aggregate(s=Sum("balance"))["s"] or 0) + fees
        assert held == sum(self.paid_in.values())

    def hands_dealt(self) -> int:
        """Hands dealt at this world's tables."""
        return sum(Table.objects.get(pk=t).hand_number for t in self.table_ids)

    def _refs(self) -> list[str]:
        return [*self.tournaments, *(str(t) for t in self.table_ids)]

    # ----------------------------------------------------------------------
    # Ledger operations

    def _args(self, transfer_id: uuid.UUID, who: int) -> dict[str, Any]:
        return {"transfer_id": transfer_id, "user_id": self.users[who].pk, "using": self.using}

    def _deposit(self, tid: uuid.UUID, who: int, amount: int) -> None:
        money.wallet_deposit(amount=amount, **self._args(tid, who))

    def _withdraw(self, tid: uuid.UUID, who: int, amount: int) -> None:
        money.wallet_withdraw(amount=amount, **self._args(tid, who))

    def _register(self, tid: uuid.UUID, who: int, t: int, buy_in: int, fee: int) -> None:
        money.tournament_register(
            tournament=self.tournaments[t], buy_in=buy_in, fee=fee, **self._args(tid, who)
        )

    def _unregister(self, tid: uuid.UUID, who: int, t: int, buy_in: int, fee: int) -> None:
        money.tournament_unregister(
            tournament=self.tournaments[t], buy_in=buy_in, fee=fee, **self._args(tid, who)
        )

    def _rebuy(self, tid: uuid.UUID, who: int, t: int, amount: int) -> None:
        money.tournament_chips_in(
            kind=Transfer.Kind.REBUY,
            tournament=self.tournaments[t],
            amount=amount,
            **self._args(tid, who),
        )

    def _add_on(self, tid: uuid.UUID, who: int, t: int, amount: int) -> None:
        money.tournament_chips_in(
            kind=Transfer.Kind.ADD_ON,
            tournament=self.tournaments[t],
            amount=amount,
            **self._args(tid, who),
        )

    def _prize(self, tid: uuid.UUID, who: int, t: int, amount: int) -> None:
        money.tournament_prize(
            tournament=self.tournaments[t], amount=amount, **self._args(tid, who)
        )

    def _award(self, tid: uuid.UUID, who: int, t: int, value: int, paid_from: int | None) -> None:
        source = None if paid_from is None else self.tournaments[paid_from]
        money.ticket_award(
            target=self.tournaments[t], value=value, paid_from=source, **self._args(tid, who)
        )

    def _spend(self, tid: uuid.UUID, who: int, t: int, buy_in: int, fee: int) -> None:
        money.ticket_spend(
            tournament=self.tournaments[t], buy_in=buy_in, fee=fee, **self._args(tid, who)
        )

    # ----------------------------------------------------------------------
    # Cash tables (the services use the default database)

    def table(self, t: int) -> int:
        """Table ``t`` (mod the tables there are)."""
        return self.table_ids[t % len(self.table_ids)]

    def _seat(self, tid: uuid.UUID, who: int, t: int) -> dict[str, Any]:
        return {"by": self.users[who], "table_id": self.table(t), "command_id": tid}

    def _sit(self, tid: uuid.UUID, who: int, t: int, seat: int, buy_in: int) -> None:
        services.seat_sit(seat=seat, buy_in=buy_in, **self._seat(tid, who, t))

    def _top_up(self, tid: uuid.UUID, who: int, t: int, amount: int) -> None:
        services.seat_top_up(amount=amount, **self._seat(tid, who, t))

    def _leave(self, tid: uuid.UUID, who: int, t: int) -> None:
        services.seat_leave(**self._seat(tid, who, t))

    def _sit_out(self, tid: uuid.UUID, who: int, t: int) -> None:
        services.seat_sit_out(**self._seat(tid, who, t))

    def _sit_in(self, tid: uuid.UUID, who: int, t: int) -> None:
        services.seat_sit_in(**self._seat(tid, who, t))

    def _close(self, tid: uuid.UUID, t: int) -> None:
        services.table_close(by=self.boss, table_id=self.table(t), command_id=tid)

    def _act(self, tid: uuid.UUID, t: int, pick: int) -> None:
        """The player to act takes one of his legal actions (the least
        committal half the time, so hands end)."""
        row = Table.objects.get(pk=self.table(t))
        hand = selectors.table_view(row, None)["hand"]
        if hand is None or hand["to_act_seat"] is None:
            raise ApiError("nobody to act", code="nobody_to_act")
        seat = next(
            s for s in selectors.table_view(row, None)["seats"] if s["seat"] == hand["to_act_seat"]
        )
        user = next(u for u in self.users if u.pk == seat["player"])
        mine = selectors.table_view(row, user)["hand"]
        legal = mine["legal"]
        action = legal["actions"][pick % len(legal["actions"])]
        amount = None
        if action in ("bet", "raise"):
            low, high = legal[f"min_{action}_to"], legal[f"max_{action}_to"]
            amount = low + pick % (high - low + 1)
        held = next(p for p in mine["players"] if p["seat"] == mine["your_seat"])["cards"]
        cards = held[: 1 + pick % legal["max_discard"]] if action == "discard" else ()
        services.hand_act(
            by=user,
            table_id=row.pk,
            hand=mine["id"],
            version=mine["version"],
            action=action,
            amount=amount,
            cards=cards,
            command_id=tid,
        )


LEDGER_NAMES = {
    "deposit",
    "withdraw",
    "register",
    "unregister",
    "rebuy",
    "add_on",
    "prize",
    "award",
    "spend",
}
