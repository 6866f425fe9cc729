"""A whole tournament played by bots through the real services and clocks.

``python -m bench.simulate`` runs it; a test plays a satellite with it
and the benchmark times one of a thousand players.  Nothing here reaches
past the services a client would use: bots register, rebuy, take the
add-on and act at their tables through ``tournaments.services`` and
``poker.services.hand_act``; the level clock, breaks, pauses and table
clocks run on Celery as in play (a worker must be running, or the caller
starts the embedded one).  A structure's ``minute_seconds`` scales its
clock down so a run takes minutes, not hours.

Bots use only the legal moves of the player to act and his own cards; they
play loose (calls, the odd raise, all-ins now and then) so that fields
shrink in a few hundred hands.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model

from accounts import money
from accounts.models import User
from accounts.names import skeleton
from accounts.services import role_grant
from kernel.api_errors import ApiError
from kernel.eventstore import load
from poker import services as table_services
from poker import streams
from poker.clocks import table_clock
from poker.engine.betting import Legal, legal_actions
from poker.engine.cards import Card, codes
from poker.engine.commands import Action
from poker.engine.rules import Betting, Game
from poker.engine.state import HandState
from poker.engine.table.clock import Clock
from poker.models import Hand, Table
from tournaments import services, steps, timing
from tournaments.models import Tournament
from tournaments.projections import decode
from tournaments.rules import (
    Bounty,
    BreakStarted,
    Rebuys,
    Satellite,
    Status,
    TournamentDefinition,
    TournamentEvent,
    TournamentState,
    can_add_on,
    can_rebuy,
    evolve,
)
from tournaments.rules import queries as q
from tournaments.rules.flights import MAX_FLIGHTS
from tournaments.rules.presets import (
    SATELLITE_STARTING_STACK,
    thirty_two_card_draw_satellite_structure,
)
from tournaments.rules.steps import MAX_STEPS
from tournaments.selectors import state_of

Say = Callable[[str], None]

Idle = dict[int, tuple[int, int | None]]
"""Per table, the (table version, hand version) at which nobody was to act."""


@dataclass(frozen=True)
class Plan:
    """What to simulate.  ``seat_value`` makes it a satellite into a new
    target tournament of that buy-in plus fee (``registered_in_target`` bots
    already entered there, so a seat they win is paid in cash); ``rebuy_until``
    a rebuy tournament (rebuys of the starting stack for the buy-in through
    that level, at most ``max_rebuys`` each), ``add_on`` with an add-on of
    the starting stack at the end of the window."""

    players: int
    game: Game = Game.THIRTY_TWO_CARD_DRAW
    betting: Betting = Betting.NO_LIMIT
    table_size: int | None = None
    buy_in: int = 100
    fee: int = 10
    starting_stack: int = SATELLITE_STARTING_STACK
    level_minutes: int = 10
    minute_seconds: int = 60
    break_minutes: int | None = None
    """Each break's length (None: the structure's, five minutes)."""
    rebuy_until: int | None = None
    max_rebuys: int = 2
    add_on: bool = False
    seat_value: int | None = None
    registered_in_target: int = 0
    bounty: int | None = None
    """A knockout with this bounty on every entry (None: none)."""
    progressive: bool = False
    """The bounty is a progressive knockout (half of a head paid at once)."""
    guarantee: int = 0
    """The least prize pool (the house's account is funded with it first)."""
    deal_at: int | None = None
    """With this many players left at the final table the director offers
    an ICM deal, a tenth of the first prize left to play for, and the bots
    accept it (None: no deal)."""
    steps: int | None = None
    """A step satellite chain of this many steps, played one after the
    other (``simulate_steps``; None: one tournament)."""
    flights: int | None = None
    """A multi-flight event of this many starting flights of ``players``
    each, then its Day 2 (``simulate_flights``; None: one tournament)."""
    seed: int = 1
    time_limit: float = 3600.0
    bot_threads: int = 1
    """Threads acting at the tables (each its own share of them and its own
    database connection), as many clients would."""
    progress_seconds: float = 3.0
    """A progress line at least this often (and one at each level and break)."""

    def __post_init__(self) -> None:
        """What the tournament's own definition cannot refuse (it checks the
        rest when it is made)."""
        if self.bot_threads < 1:
            raise ValueError("at least one bot thread")
        if not 0 <= self.registered_in_target <= self.players:
            raise ValueError("bots already in the target: 0 to the number of players")
        if self.registered_in_target and self.seat_value is None:
            raise ValueError("bots in the target need a satellite (a seat value)")
        if self.seat_value is not None and self.seat_value < 1:
            raise ValueError("a seat is worth at least 1")
        if self.progress_seconds <= 0:
            raise ValueError("progress lines need a positive interval")
        if self.progressive and self.bounty is None:
            raise ValueError("a progressive knockout needs a bounty")
        if self.steps is not None and not 1 <= self.steps <= MAX_STEPS:
            raise ValueError(f"a chain of 1 to {MAX_STEPS} steps")
        if self.steps is not None and (self.seat_value or self.deal_at or self.guarantee):
            raise ValueError("a step chain makes its own seats: no seat value, deal or guarantee")
        if self.flights is not None:
            self._check_flights(self.flights)

    def _check_flights(self, flights: int) -> None:
        if not 2 <= flights <= MAX_FLIGHTS:
            raise ValueError(f"a multi-flight event of 2 to {MAX_FLIGHTS} flights")
        if self.steps or self.seat_value or self.bounty or self.guarantee:
            raise ValueError("flights have no steps, seats, bounty or guarantee")

    def definition(self, target: Tournament | None) -> TournamentDefinition:
        """The tournament's definition: a sit-and-go of ``players`` on the
        32 Card Draw satellite structure, scaled."""
        structure = thirty_two_card_draw_satellite_structure(self.level_minutes)
        if self.break_minutes is not None:
            breaks = tuple(replace(b, minutes=self.break_minutes) for b in structure.breaks)
            structure = replace(structure, breaks=breaks)
        rebuys = None
        if self.rebuy_until is not None:
            stack, price = self.starting_stack, self.buy_in
            rebuys = Rebuys(
                self.rebuy_until,
                stack,
                price,
                self.max_rebuys,
                add_on_chips=stack if self.add_on else 0,
                add_on_price=price if self.add_on else 0,
            )
        satellite = None
        if target is not None:
            satellite = Satellite(str(target.pk), target.buy_in + target.fee)
        bounty = None if self.bounty is None else Bounty(self.bounty, self.progressive)
        return TournamentDefinition(
            game=self.game,
            betting=self.betting,
            structure=replace(structure, minute_seconds=self.minute_seconds),
            starting_stack=self.starting_stack,
            buy_in=self.buy_in,
            fee=self.fee,
            min_players=self.players,
            max_players=self.players,
            table_size=self.table_size,
            rebuys=rebuys,
            satellite=satellite,
            sit_and_go=True,
            bounty=bounty,
            guarantee=self.guarantee,
        )

    @property
    def wallet(self) -> int:
        """What each bot brings: every entry, rebuy and add-on it may buy."""
        extra = self.max_rebuys + int(self.add_on) if self.rebuy_until is not None else 0
        return self.buy_in + (self.bounty or 0) + self.fee + extra * self.buy_in


@dataclass
class Report:
    """What happened, for the progress lines and the caller's checks."""

    tournament: Tournament
    target: Tournament | None
    bots: dict[str, User]
    started: float = field(default_factory=time.perf_counter)
    ended: float | None = None
    actions: int = 0
    refusals: int = 0
    rebuys: int = 0
    add_ons: int = 0
    peak_tables: int = 0
    director: User | None = None
    deal_at: int | None = None
    """Offer a deal with this many left (``Plan.deal_at``)."""
    break_seconds: float = 0.0
    """Seconds of play the room spent on scheduled breaks, in which by rule
    no hand is dealt (``time_on_breaks``, set when play is over)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def count(self, what: str) -> None:
        """One more ``actions`` or ``refusals`` (bot threads count at once)."""
        with self._lock:
            setattr(self, what, getattr(self, what) + 1)

    @property
    def seconds(self) -> float:
        return (self.ended or time.perf_counter()) - self.started

    @property
    def hands(self) -> int:
        """Hands played to their end so far."""
        played = Hand.objects.filter(table__tournament=self.tournament.pk)
        return played.exclude(ended_at=None).count()

    def line(self, state: TournamentState) -> str:
        """A progress line: the level, the field, the pace."""
        level = q.level(state)
        blinds = state.definition.structure.level(level)
        alive = q.alive(state)
        average = sum(e.stack for e in alive) // len(alive) if alive else 0
        where = "break after level" if q.on_break(state) else "level"
        hands = self.hands
        return (
            f"{self.seconds:7.1f}s {where} {level} ({blinds.small_blind}/{blinds.big_blind}): "
            f"{len(alive)} left on {len(state.tables)} tables, average stack {average}, "
            f"{hands} hands ({hands / max(self.seconds, 1e-9):.1f}/s), "
            f"{self.rebuys} rebuys, {self.add_ons} add-ons"
        )


def simulate(plan: Plan, say: Say = print) -> Report:
    """Set up the tournament, its bots and their money; play it to the end."""
    plan.definition(None)  # a definition the rules refuse: before anything is made
    if plan.steps is not None:
        return simulate_steps(plan, say)
    if plan.flights is not None:
        from bench.simulate_flights import simulate_flights

        return simulate_flights(plan, say)
    rng = random.Random(plan.seed)
    run = uuid.uuid4().hex[:8]
    director = _director(run)
    bots = _bots(run, plan.players, plan.wallet)
    target = None
    if plan.seat_value is not None:
        target = _target(plan, director, run)
        for bot in list(bots.values())[: plan.registered_in_target]:
            money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=bot.pk, amount=plan.seat_value)
            services.tournament_register(by=bot, tournament_id=target.pk)
    definition = plan.definition(target)
    if plan.guarantee:
        money.house_fund(transfer_id=uuid.uuid4(), amount=plan.guarantee)
    row = services.tournament_create(by=director, name=f"Simulation {run}", definition=definition)
    report = Report(row, target, bots, director=director, deal_at=plan.deal_at)
    say(f"{plan.players} bots registering for tournament {row.pk} ({plan.game.value})")
    said = report.seconds
    for n, bot in enumerate(bots.values(), start=1):
        services.tournament_register(by=bot, tournament_id=row.pk)
        if report.seconds - said >= plan.progress_seconds:
            said = report.seconds
            say(f"{report.seconds:7.1f}s {n} of {plan.players} registered")
    say(f"registered in {report.seconds:.1f}s; play starts")
    report.started = time.perf_counter()  # the pace of play, from the first deal
    play(report, rng, plan.time_limit, say, plan.bot_threads, plan.progress_seconds)
    return report


STEP_FACTOR = 3
"""Each step costs three times the one below (the target three times the last)."""


def simulate_steps(plan: Plan, say: Say = print) -> Report:
    """A chain of ``plan.steps`` step satellites, each a sit-and-go of
    ``plan.players`` played in turn: the bots who won tickets into the next
    step enter it with them, fresh bots fill the rest of its field with
    cash.  Step k costs the plan's entry times ``STEP_FACTOR ** (k - 1)``;
    the places just outside each step's seats win a ticket back into it.
    The last report is the last step's; the chain's line closes the run."""
    assert plan.steps is not None
    rng = random.Random(plan.seed)
    run = uuid.uuid4().hex[:8]
    director = _director(run)
    scale = [STEP_FACTOR ** (k - 1) for k in range(1, plan.steps + 1)]
    entry = plan.buy_in + plan.fee
    target = _target(
        replace(plan, steps=None, seat_value=entry * STEP_FACTOR**plan.steps), director, run
    )
    chain = steps.step_chain_create(
        by=director, name=f"Steps {run}", target=target.pk,
        expires_at=timing.now() + timedelta(days=30),
        steps=[{"price": entry * f, "consolation": [k]} for k, f in enumerate(scale, start=1)],
    )  # fmt: skip
    holders: list[Any] = []
    report: Report | None = None
    for k, f in enumerate(scale, start=1):
        base = replace(plan.definition(None), buy_in=plan.buy_in * f, fee=plan.fee * f)
        definition, row = steps.step_definition(base, chain=chain.pk, step=k)
        t = services.tournament_create(
            by=director, name=f"Step {k} {run}", definition=definition, step_chain=row, step=k
        )
        fresh = _bots(f"{run}s{k}", plan.players - len(holders), entry * f)
        field = {**{str(b.pk): b for b in holders}, **fresh}
        say(f"step {k}: tournament {t.pk}, {len(holders)} with tickets, {len(fresh)} in cash")
        for bot in field.values():
            services.tournament_register(by=bot, tournament_id=t.pk)
        report = Report(t, target, field, director=director)
        play(report, rng, plan.time_limit, say, plan.bot_threads, plan.progress_seconds)
        awards = _state(t.pk).awards or ()
        holders = [field[a.player] for a in awards if a.ticket]
    assert report is not None
    say(chain_line(steps.chain_detail(chain.pk, by=director)))
    return report


def chain_line(chain: dict[str, Any]) -> str:
    """The chain at the end: the tickets outstanding into each step and
    into the target."""
    out = ", ".join(f"step {s['step']} {s['tickets_outstanding']}" for s in chain["steps"])
    target = chain["target"]
    return f"tickets outstanding: {out}; into the target {target['tickets_outstanding']}"


def play(
    report: Report,
    rng: random.Random,
    time_limit: float,
    say: Say,
    threads: int = 1,
    every: float = Plan.progress_seconds,
) -> None:
    """Bots act wherever a hand waits on them and decide on rebuys and
    add-ons, until the tournament ends; a line per level and break, and at
    least one every ``every`` seconds.  With ``threads`` above one, other
    threads act at their share of the tables."""
    tournament = report.tournament.pk
    shown: tuple[int, bool] | None = None
    said = report.seconds
    offered: set[str] = set()
    idle: Idle = {}
    over = threading.Event()
    helpers = [
        threading.Thread(
            target=_acting, args=(report, k, threads, random.Random(rng.random()), over)
        )
        for k in range(1, threads)
    ]
    for helper in helpers:
        helper.start()
    try:
        while True:
            state = _state(tournament)
            if state.status is not Status.RUNNING:
                break
            if report.seconds > time_limit:
                raise TimeoutError(
                    f"tournament {tournament} still running after {time_limit:.0f} s"
                )
            now = (q.level(state), q.on_break(state))
            if now != shown or report.seconds - said >= every:
                said = report.seconds
                say(report.line(state))
                shown = now
            report.peak_tables = max(report.peak_tables, len(state.tables))
            busy = _decide(report, state, rng, offered) + _deal(report, state)
            busy += _act_at_share(report, 0, threads, rng, idle)
            if not busy:
                time.sleep(0.02)  # a pause, a break or a clock: the worker's turn
    finally:
        over.set()
        for helper in helpers:
            helper.join()
    report.ended = time.perf_counter()
    state = _state(tournament)
    report.break_seconds = time_on_breaks(_recorded(tournament), time.time())
    say(report.line(state))
    hands = report.hands
    say(
        f"{state.status.value} after {report.seconds:.1f}s ({report.break_seconds:.0f}s of "
        f"it on breaks): {hands} hands ({hands / report.seconds:.1f}/s), "
        f"{report.actions} actions, "
        f"peak {report.peak_tables} tables, {report.rebuys} rebuys, {report.add_ons} add-ons"
    )
    say(prizes_line(state))


def time_on_breaks(events: Iterable[tuple[TournamentEvent, float]], now: float) -> float:
    """Seconds the room spent on scheduled breaks, from the tournament's
    events and when each was recorded: from each break's start (the level
    clock moving the tournament there) to its scheduled end, or to the
    break's end if that came first.  What the rules count as break but the
    room still dealt through (the level's timer came late) is not counted,
    nor the wait past a break's end for a late timer: both are the room's
    time, not the structure's."""
    state: TournamentState | None = None
    began: float | None = None
    ends = spent = 0.0
    for event, at in events:
        state = evolve(state, event)
        if began is not None and not q.on_break(state):
            spent += max(0.0, min(at, ends) - began)
            began = None
        if isinstance(event, BreakStarted) and q.on_break(state):
            began, ends = at, float(timing.deadline(state) or at)
    if began is not None:
        spent += max(0.0, min(now, ends) - began)
    return spent


def _recorded(tournament: int) -> Iterator[tuple[TournamentEvent, float]]:
    """The tournament's events, each with when it was recorded."""
    for row in load(Tournament(pk=tournament).stream):
        yield decode(row), row.recorded_at.timestamp()


def prizes_line(state: TournamentState) -> str:
    """What was paid: a satellite's tickets, and cash by place."""
    awards = state.awards or ()
    cash = [f"{a.place}. {a.cash}" for a in awards if a.cash]
    shown = ", ".join(cash[:10]) + (f" and {len(cash) - 10} more" if len(cash) > 10 else "")
    satellite = state.definition.satellite
    tickets = ""
    if satellite is not None:
        won = sum(a.ticket for a in awards)
        into = satellite.target
        tickets = f"{won} tickets into {'tournament ' * into.isdigit()}{into}; "
        consolations = [a.into for a in awards if a.into]
        if consolations:
            tickets += f"consolation tickets into {', '.join(consolations)}; "
    overlay = q.overlay(state)
    heads = f"; overlay {overlay}" if state.definition.guarantee else ""
    if state.deal is not None:
        dealt = ", ".join(f"{a.player} {a.amount}" for a in state.deal.amounts)
        heads += f"; deal {dealt} and {state.deal.left_to_play} played for"
    if state.definition.bounty is not None:
        won_most = sorted(state.entrants.values(), key=lambda e: (-e.bounty_won, e.player))[:3]
        best = ", ".join(f"{e.player} {e.bounty_won}" for e in won_most)
        heads += f"; bounties {sum(e.bounty_won for e in state.entrants.values())} (most: {best})"
    return f"prizes: {tickets}cash {shown or 'none'}{heads}"


def _acting(
    report: Report, share: int, shares: int, rng: random.Random, over: threading.Event
) -> None:
    """A thread of bots: act at its share of the tables until play is over."""
    from django.db import connection

    idle: Idle = {}
    try:
        while not over.is_set():
            if not _act_at_share(report, share, shares, rng, idle):
                time.sleep(0.02)
    finally:
        connection.close()


def _act_at_share(report: Report, share: int, shares: int, rng: random.Random, idle: Idle) -> int:
    """One action at each table of share ``share`` (of ``shares``) whose
    hand waits on a bot; how many were made.  A table whose streams have
    not moved since a pass found nobody to act there (``idle``) is passed
    over unread, as a client sleeps until its table's stream moves: the
    driver's work grows with the tables that changed, not with the field."""
    made = 0
    for table in _open_tables(report.tournament.pk):
        if table.pk % shares != share:
            continue
        hand = table.current_hand
        seen = (table.version, None if hand is None else hand.version)
        if idle.get(table.pk) == seen:
            continue
        acted = _act(report, table, rng)
        if acted is None:
            idle[table.pk] = seen
        made += acted or 0
    return made


def _state(tournament: int) -> TournamentState:
    return state_of(Tournament.objects.get(pk=tournament))


def _open_tables(tournament: int) -> Iterator[Table]:
    """The tournament's open tables with their current hands, in one query."""
    rows = Table.objects.filter(tournament=tournament).exclude(status=Table.Status.CLOSED)
    yield from rows.select_related("current_hand")


# --------------------------------------------------------------------------
# Between hands


def _decide(report: Report, state: TournamentState, rng: random.Random, offered: set[str]) -> int:
    """Broke bots rebuy (most of them) or go; bots take the add-on when it
    is offered (most of them).  How many decided.  What a bot saw may be
    stale by the time it asks (a hand dealt, the window closed by the
    clock): a refusal is counted and the next pass looks again."""
    decided = 0
    tournament = report.tournament.pk
    for entrant in q.broke(state):
        if q.in_hand(state, entrant.player):
            continue
        bot = report.bots[entrant.player]
        if can_rebuy(state, entrant.player) and rng.random() < 0.8:
            done = _ask(report, services.tournament_rebuy, bot, tournament)
            report.rebuys += done
        else:
            done = _ask(report, services.tournament_decline_rebuy, bot, tournament)
        decided += done
    if not q.add_on_open(state):
        return decided
    state = _state(tournament)
    for entrant in q.alive(state):
        player = entrant.player
        if player in offered or not can_add_on(state, player):
            continue
        offered.add(player)
        if rng.random() < 0.7:
            done = _ask(report, services.tournament_add_on, report.bots[player], tournament)
            report.add_ons += done
            decided += done
    return decided


def _deal(report: Report, state: TournamentState) -> int:
    """Once the field is down to ``report.deal_at`` at one table the
    director stops the clock (no new hand), offers the deal when the hand
    running is over, and restarts the clock once it is made; every bot
    accepts it.  How many commands were made."""
    tournament, offer, director = report.tournament.pk, state.deal_offer, report.director
    if offer is not None:
        waiting = [a.player for a in offer.amounts if a.player not in state.deal_accepted]
        accept = services.tournament_deal_accept
        return sum(_ask(report, accept, report.bots[p], tournament) for p in waiting)
    stopped = state.clock.since is None
    if state.deal is not None:
        return _ask(report, services.tournament_resume, director, tournament) if stopped else 0
    due = report.deal_at is not None and q.players_left(state) <= report.deal_at
    if not due or len(state.tables) != 1:
        return 0
    if not stopped:
        return _ask(report, services.tournament_pause, director, tournament)
    if state.hands:
        return 0
    kept = q.prizes(state)[0].cash // 10
    try:
        services.tournament_deal_propose(
            by=director, tournament_id=tournament, kind="icm", left_to_play=kept
        )
    except ApiError:
        report.count("refusals")
        return 0
    return 1


def _ask(report: Report, command: Callable[..., object], bot: User | None, tournament: int) -> int:
    """A bot's tournament command: 1 if it was accepted, 0 if refused."""
    try:
        command(by=bot, tournament_id=tournament)
    except ApiError:
        report.count("refusals")
        return 0
    return 1


# --------------------------------------------------------------------------
# At the tables


def _act(report: Report, table: Table, rng: random.Random) -> int | None:
    """One bot action at ``table`` if its hand waits on a bot (1; 0 when it
    was refused), None when nobody is to act there.  A pass acts once at
    each table, so every table and every decision between hands gets its
    turn while a level lasts.  While a deal is due the bots play passively
    (``_waiting_on_deal``): the hands dealt once the field is down to the
    deal cannot end the tournament before it is offered."""
    move = bot_move(table, PASSIVE if _waiting_on_deal(report) else rng)
    if move is None:
        return None
    player, act = move
    try:
        table_services.hand_act(by=report.bots[player], **act)
    except ApiError:
        report.count("refusals")  # a clock acted first: the next pass looks again
        return 0
    report.count("actions")
    return 1


class Passive(random.Random):
    """An rng that makes ``choose`` passive: the bot never bets, raises,
    folds or draws; it calls and checks, so nobody goes out but on his own
    blind, and a first action never ends the hand."""

    def random(self) -> float:
        return 1.0


PASSIVE = Passive()


def _waiting_on_deal(report: Report) -> bool:
    """The field is down to the deal and none is made yet.  Read after the
    table and its hand (``_open_tables``): the hand a bot is asked to act
    in started after the tournament state read here."""
    if report.deal_at is None:
        return False
    state = _state(report.tournament.pk)
    return state.deal is None and q.players_left(state) <= report.deal_at


def bot_move(table: Table, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The player to act at ``table`` (as its row was read) and a bot's move
    for him: ``poker.services.hand_act``'s arguments but ``by``.  None:
    nobody is to act."""
    hand = table.current_hand  # read with the table by ``_open_tables``
    if hand is None:
        return None
    state = streams.hands.state(hand.stream, hand.version)
    legal = legal_actions(state)
    if legal is None:
        return None
    seats = streams.tables.state(table.stream, table.version)
    player = seats.seats[seats.hand_seats[legal.player]].player
    clock = table_clock(table, seats, (hand, state, hand.version))
    action, amount, cards = choose(rng, state, _in_window(legal, clock))
    act = {
        "table_id": table.pk,
        "hand": hand.pk,
        "version": hand.version,
        "action": action.value,
        "amount": amount,
        "cards": codes(cards),
    }
    return player, act


def _in_window(legal: Legal, clock: Clock | None) -> Legal:
    """``legal`` without a bet or raise once the 32 Card Draw bet window is
    closed or about to close (a second's margin: the move reaches the table
    a moment after it is chosen, later still on a loaded machine)."""
    if clock is None or clock.bet_until is None or time.time() < clock.bet_until - 1:
        return legal
    kept = tuple(a for a in legal.actions if a not in (Action.BET, Action.RAISE))
    return replace(legal, actions=kept)


def choose(
    rng: random.Random, state: HandState, legal: Legal
) -> tuple[Action, int | None, tuple[Card, ...]]:
    """A loose bot's move: all in now and then, a raise or bet sometimes, a
    fold now and then, otherwise call or check; in the draw it throws one
    to as many cards as allowed, at random, more often than it stands pat.
    An ``rng`` whose ``random()`` is always 1 makes a passive bot: it calls,
    checks and stands pat."""
    actions = legal.actions
    if Action.RAISE in actions and rng.random() < 0.1:
        high = rng.random() < 0.5
        return Action.RAISE, legal.max_raise_to if high else legal.min_raise_to, ()
    if Action.BET in actions and rng.random() < 0.15:
        high = rng.random() < 0.4
        return Action.BET, legal.max_bet_to if high else legal.min_bet_to, ()
    if Action.DISCARD in actions and rng.random() < 0.6:
        cards = state.players[legal.player].cards
        most = legal.max_discard or 1
        return Action.DISCARD, None, tuple(rng.sample(cards, rng.randint(1, most)))
    if Action.FOLD in actions and rng.random() < 0.15:
        return Action.FOLD, None, ()
    for action in (Action.CALL, Action.CHECK, Action.STAND, Action.DECLINE, Action.SHOW):
        if action in actions:
            return action, None, ()
    return actions[0], None, ()


# --------------------------------------------------------------------------
# People and money


def _director(run: str) -> User:
    """A tournament director for this run."""
    user = get_user_model().objects.create(username=f"sim-{run}-director")
    role_grant(user=user, role="tournament_director")
    return user


def _bots(run: str, count: int, cash: int) -> dict[str, User]:
    """``count`` players with ``cash`` each, paid in at the cashier."""
    model = get_user_model()
    # bulk_create skips User.save, which names a user who chose no name.
    usernames = [f"sim-{run}-bot{n:04}" for n in range(1, count + 1)]
    made = model.objects.bulk_create(
        [model(username=u, screen_name=u, screen_name_key=skeleton(u)) for u in usernames]
    )
    for user in made:
        money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=user.pk, amount=cash)
    return {str(user.pk): user for user in made}


def _target(plan: Plan, director: User, run: str) -> Tournament:
    """The tournament the satellite's seats are into: a month away, a buy-in
    and fee worth ``seat_value``."""
    assert plan.seat_value is not None
    fee = plan.seat_value // 10
    definition = replace(
        plan.definition(None),
        buy_in=plan.seat_value - fee,
        fee=fee,
        min_players=2,
        max_players=1_000,
        rebuys=None,
        sit_and_go=False,
    )
    starts = timing.now() + timedelta(days=30)
    return services.tournament_create(
        by=director, name=f"Target {run}", definition=definition, starts_at=starts
    )
