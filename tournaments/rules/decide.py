"""``decide(state, command) -> events``: the tournament's write side.

Every command is checked against the state and either answered with the
events it causes, follow-ups included (``settle``), or refused with a typed
``TournamentError``; nothing changes on a refusal.  This module holds the
life cycle (registration, start, clock, cancellation, prizes); ``play``
holds what happens at the tables.

Rules chosen where RULES.md 6 is silent:

- Unregistration only before the start, refunding buy-in and fee.
- A sit-and-go starts with the entry that fills it.
- Cancelling refunds everybody everything he paid (buy-ins, fees, rebuys,
  add-ons), whatever the stage: the simplest policy that leaves nobody
  short; the service may not offer cancellation once prizes are near.  A
  bounty tournament cannot be cancelled once a head has been paid
  (``bounties``).  A cancellation gives the house its guarantee back.
- A guarantee is held from the house from the creation (so the house
  cannot promise money it does not have); once play is over what the
  pool did not need goes back, and the overlay is paid out with the prizes.
- Multi-flight events (``flights``): Day 2 takes no entries and is not
  called off while a flight may still come in or once it holds a flight's
  pool (calling off every flight calls it off, with nothing to refund);
  it is ready once every flight is carried and starts at its time (at
  once if that has passed, or if fewer players went through than a
  tournament needs: the one left wins).
- Ticks move the clock through every period it passed, one event each, so
  no window is skipped silently.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.rules import commands as cmd
from tournaments.rules import events as ev
from tournaments.rules import queries as q
from tournaments.rules.bounties import bounty_paid, heads_at_end
from tournaments.rules.checks import whole
from tournaments.rules.clock import timeline
from tournaments.rules.deals import (
    amounts_of,
    awards_with_deal,
    deal_amounts,
    verify_deal_possible,
)
from tournaments.rules.definition import TournamentDefinition
from tournaments.rules.draw import shuffler
from tournaments.rules.errors import (
    AlreadyRegistered,
    IllegalAction,
    Malformed,
    NotRegistered,
    RegistrationClosed,
    TooFewPlayers,
    TournamentFull,
    TournamentOver,
)
from tournaments.rules.flights import Bag, carry, day_two_draw, resume_level
from tournaments.rules.play import PLAY_HANDLERS, require_running
from tournaments.rules.prizes import award
from tournaments.rules.seating import Shuffler, draw_button, draw_seating, seat_newcomer
from tournaments.rules.settle import Draft, settle
from tournaments.rules.state import Status, TournamentState
from tournaments.rules.validate import moment, number, player_id, seed_of

MAX_ADDED_SECONDS = 3_600
MAX_NAME = 80
MAX_REASON = 200
"""Characters of a cancellation's reason."""


def create_tournament(
    definition: TournamentDefinition, name: str = "", starts_at: int | None = None
) -> list[ev.TournamentEvent]:
    """The first events of a tournament's stream: its creation, and the
    house's guarantee put into the pool (when it has one)."""
    if not isinstance(definition, TournamentDefinition):
        raise Malformed("a tournament needs a TournamentDefinition")
    if not isinstance(name, str) or len(name) > MAX_NAME:
        raise Malformed(f"a name is text of at most {MAX_NAME} characters")
    if starts_at is not None:
        moment(starts_at)
    held = [ev.GuaranteeHeld(definition.guarantee)] if definition.guarantee else []
    return [ev.TournamentCreated(definition, name, starts_at), *held]


def decide(state: TournamentState, command: cmd.TournamentCommand) -> list[ev.TournamentEvent]:
    """The events ``command`` causes; raises a ``TournamentError`` if refused."""
    return _draft(state, command).events


def play(
    state: TournamentState, command: cmd.TournamentCommand
) -> tuple[TournamentState, list[ev.TournamentEvent]]:
    """``decide`` plus the state after its events (folded once, as decided)."""
    draft = _draft(state, command)
    return draft.state, draft.events


def _draft(state: TournamentState, command: cmd.TournamentCommand) -> Draft:
    if state.status in (Status.FINISHED, Status.CANCELLED) and not isinstance(
        command, cmd.AwardPrizes
    ):
        raise TournamentOver(f"the tournament is {state.status.value}")
    handler = _HANDLERS.get(type(command)) or PLAY_HANDLERS.get(type(command))
    if handler is None:
        raise Malformed(f"unknown command {command!r}")
    draft = Draft(state)
    handler(draft, command)
    return draft


def _day_two(state: TournamentState) -> bool:
    flight = state.definition.flight
    return flight is not None and flight.day_two


def _open_registration(draft: Draft, c: cmd.OpenRegistration) -> None:
    if _day_two(draft.state):
        raise IllegalAction("Day 2 takes no entries: its players come from the flights")
    if draft.state.status is not Status.SCHEDULED:
        raise IllegalAction("registration is already open")
    draft.add(ev.RegistrationOpened())


def _register(draft: Draft, c: cmd.Register) -> None:
    state, definition = draft.state, draft.state.definition
    player, at, rng = player_id(c.player), moment(c.at), shuffler(seed_of(c.seed))
    if _day_two(state):
        raise RegistrationClosed("Day 2 takes no entries: its players come from the flights")
    if not q.registration_open(state):
        late = definition.late_registration_level
        after = (
            {}
            if late is None or state.status is not Status.RUNNING
            else {"late_registration_level": late}
        )
        raise RegistrationClosed("registration is closed", values=after)
    entrant = state.entrant(player)
    if entrant is not None:
        if entrant.disqualified:
            raise IllegalAction(f"{player} is disqualified")
        if entrant.alive:
            raise AlreadyRegistered(f"{player} is already in")
        allowed = definition.re_entries
        if allowed is not None and entrant.entries > allowed:
            raise AlreadyRegistered(
                f"{player} has no re-entry left", values={"re_entries": allowed}
            )
    if state.entries >= definition.max_players:
        raise TournamentFull(
            f"the tournament is full ({definition.max_players} entries)",
            values={"max_players": definition.max_players},
        )
    entry = 1 if entrant is None else entrant.entries + 1
    draft.add(ev.Registered(player, entry, definition.entry_price))
    if state.status is Status.RUNNING:
        views = q.table_views(draft.state)
        table, seat = seat_newcomer(
            views,
            definition.seats_per_table,
            rng,
            definition.over_blind_from,
            draft.state.top_table,
        )
        draft.add(ev.Seated(player, table, seat, definition.starting_stack))
        settle(draft, rng)
    elif definition.sit_and_go and draft.state.entries == definition.max_players:
        _begin(draft, at, rng)


def _unregister(draft: Draft, c: cmd.Unregister) -> None:
    state = draft.state
    player = player_id(c.player)
    if state.status is not Status.REGISTERING or _day_two(state):
        raise IllegalAction("players unregister only before the start")
    entrant = state.entrant(player)
    if entrant is None:
        raise NotRegistered(f"{player} is not registered")
    draft.add(ev.Unregistered(player, entrant.paid))


def _start(draft: Draft, c: cmd.Start) -> None:
    at, rng = moment(c.at), shuffler(seed_of(c.seed))
    day_two = _day_two(draft.state)
    if day_two and draft.state.status is Status.SCHEDULED:
        raise IllegalAction("Day 2 starts once every flight has stopped")
    if draft.state.status is not Status.REGISTERING:
        raise IllegalAction("only a tournament taking entries can start")
    if day_two:
        _begin_day_two(draft, at, rng)
    else:
        _begin(draft, at, rng)


def _begin(draft: Draft, at: int, rng: Shuffler) -> None:
    definition = draft.state.definition
    players = sorted(draft.state.entrants)
    if len(players) < definition.min_players:
        raise TooFewPlayers(
            f"{len(players)} entries, at least {definition.min_players} needed",
            values={"entries": len(players), "min_players": definition.min_players},
        )
    draft.add(ev.Started(at))
    layout = draw_seating(players, definition.seats_per_table, rng)
    for table, seats in sorted(layout.items()):
        for seat, player in sorted(seats.items()):
            draft.add(ev.Seated(player, table, seat, definition.starting_stack))
        draft.add(ev.ButtonDrawn(table, draw_button(seats, frozenset(), rng)))
    settle(draft, rng)


def _begin_day_two(draft: Draft, at: int, rng: Shuffler) -> None:
    """Day 2 begins with the carried stacks, seated by the draw balanced by
    stacks, its clock at the level the flights stopped at."""
    state = draft.state
    stacks = {p: e.stack for p, e in state.entrants.items()}
    draft.add(ev.Started(at))
    layout: dict[int, dict[int, str]] = {}
    for player, (table, seat) in day_two_draw(
        stacks, state.definition.seats_per_table, rng
    ).items():
        layout.setdefault(table, {})[seat] = player
    for table, seats in sorted(layout.items()):
        for seat, player in sorted(seats.items()):
            draft.add(ev.Seated(player, table, seat, stacks[player]))
        draft.add(ev.ButtonDrawn(table, draw_button(seats, frozenset(), rng)))
    settle(draft, rng)


def _carry_flight(draft: Draft, c: cmd.CarryFlight) -> None:
    """Day 2 takes a flight in; the last one makes it ready (and starts it
    if its start has come)."""
    state = draft.state
    flight = state.definition.flight
    if flight is None or not flight.day_two:
        raise IllegalAction("only a Day 2 takes flights in")
    if state.status is not Status.SCHEDULED:
        raise IllegalAction("every flight is carried already")
    n = number(c.flight, "a flight")
    at, rng = moment(c.at), shuffler(seed_of(c.seed))
    if n > flight.flights:
        raise Malformed(f"the event has flights 1 to {flight.flights}")
    if n in state.carried:
        raise IllegalAction(f"flight {n} is carried already")
    if not whole(c.pool) or c.pool < 0 or not whole(c.level) or c.level < 0:
        raise Malformed("a pool and a level are whole numbers, not negative")
    if not isinstance(c.source, str) or not c.source:
        raise Malformed("a flight's source is its tournament")
    bags = c.bags
    if not isinstance(bags, tuple) or not all(
        isinstance(b, Bag) and b.flight == n and whole(b.stack) and b.stack > 0 for b in bags
    ):
        raise Malformed("bags are the flight's own, each with chips")
    if len({b.player for b in bags}) != len(bags) or (bags and not c.level):
        raise Malformed("one bag a player, from a flight that stopped at a level")
    draft.add(ev.FlightCarried(n, c.source, c.pool, c.level, bags))
    carried = draft.state.carried
    if len(carried) < flight.flights:
        return
    every = [b for e in carried.values() for b in e.bags]
    through = carry(every, flight.rules)
    kept = tuple(sorted((b for b in every if b not in through.forfeited), key=lambda b: b.player))
    levels = [e.level for e in carried.values() if e.level]
    draft.add(ev.DayTwoReady(kept, through.forfeited, resume_level(levels) if levels else 1))
    starts_at = draft.state.starts_at
    due = starts_at is None or at >= starts_at
    if kept and (due or len(kept) < draft.state.definition.min_players):
        _begin_day_two(draft, at, rng)  # too few to wait for: he has won


def _tick(draft: Draft, c: cmd.Tick) -> None:
    at, rng = moment(c.at), shuffler(seed_of(c.seed))
    state = draft.state
    require_running(state)
    structure = state.definition.structure
    reached = q.position(state, at).period
    for period in timeline(structure)[state.period + 1 : reached + 1]:
        if period.on_break:
            pause = structure.break_after(period.level)
            assert pause is not None
            draft.add(ev.BreakStarted(period.level, pause.minutes))
        else:
            draft.add(ev.LevelChanged(period.level))
    if draft.events:
        settle(draft, rng)


def _pause(draft: Draft, c: cmd.Pause) -> None:
    at = moment(c.at)
    require_running(draft.state)
    since = draft.state.clock.since
    if since is None:
        raise IllegalAction("the clock is already stopped")
    if at < since:
        raise Malformed("the clock cannot stop before it started running")
    draft.add(ev.Paused(at))


def _resume(draft: Draft, c: cmd.Resume) -> None:
    at = moment(c.at)
    require_running(draft.state)
    if draft.state.clock.since is not None:
        raise IllegalAction("the clock is running")
    draft.add(ev.Resumed(at))


def _add_time(draft: Draft, c: cmd.AddTime) -> None:
    require_running(draft.state)
    if not whole(c.seconds) or not 1 <= c.seconds <= MAX_ADDED_SECONDS:
        raise Malformed(f"add 1 to {MAX_ADDED_SECONDS} whole seconds")
    draft.add(ev.TimeAdded(draft.state.period, c.seconds))


def _cancel(draft: Draft, c: cmd.Cancel) -> None:
    if not isinstance(c.reason, str) or len(c.reason) > MAX_REASON:
        raise Malformed(f"a reason is text of at most {MAX_REASON} characters")
    if bounty_paid(draft.state):
        raise IllegalAction("bounties have been paid: the tournament plays to its end")
    if _day_two(draft.state) and draft.state.pool:
        raise IllegalAction("Day 2 holds the flights' pool: it plays to its end")
    if _day_two(draft.state) and draft.state.status is Status.SCHEDULED:
        raise IllegalAction("Day 2 waits for its flights: call them off first")
    draft.add(ev.Cancelled(c.reason))
    if draft.state.held:
        draft.add(ev.GuaranteeReleased(draft.state.held))
    for player, entrant in sorted(draft.state.entrants.items()):
        if entrant.paid:
            draft.add(ev.Refunded(player, entrant.paid))


def _award(draft: Draft, c: cmd.AwardPrizes) -> None:
    state = draft.state
    if state.status is not Status.FINISHED or state.awards is not None:
        raise IllegalAction("prizes are awarded once, when play is over")
    in_target = c.in_target
    if not isinstance(in_target, frozenset) or not all(isinstance(p, str) for p in in_target):
        raise Malformed("in_target is a set of player ids")
    satellite = state.definition.satellite
    if satellite is None and in_target:
        raise Malformed("only a satellite has a target")
    value = 0 if satellite is None else satellite.target_buy_in
    unneeded = state.held - q.overlay(state)
    if unneeded:  # the guarantee the pool did not need goes back first
        draft.add(ev.GuaranteeReleased(unneeded))
    state = draft.state
    if state.deal is not None:
        awards = awards_with_deal(state)
    else:
        values = {} if satellite is None else {c.target: c.value for c in satellite.consolation}
        awards = award(state.standings, q.prizes(state), value, in_target, values)
    draft.add(*heads_at_end(state, state.standings))
    draft.add(ev.PrizesAwarded(awards, None if satellite is None else satellite.target))


def _propose_deal(draft: Draft, c: cmd.ProposeDeal) -> None:
    state, at = draft.state, moment(c.at)
    require_running(state)
    verify_deal_possible(state)
    shares = deal_amounts(state, c.kind, c.left_to_play, c.amounts)
    running = state.clock.since is not None
    if running:
        draft.add(ev.Paused(at))
    draft.add(ev.DealOffered(c.kind, amounts_of(shares), c.left_to_play, running))


def _offer(state: TournamentState, player: object) -> tuple[ev.DealOffered, str]:
    """The deal offered and the player answering it."""
    require_running(state)
    name = player_id(player)
    offer = state.deal_offer
    if offer is None:
        raise IllegalAction("no deal is offered")
    if name not in {a.player for a in offer.amounts}:
        raise NotRegistered(f"{name} is not in the deal")
    if name in state.deal_accepted:
        raise IllegalAction(f"{name} has accepted already")
    return offer, name


def _restart(draft: Draft, offer: ev.DealOffered, at: int) -> None:
    """The clock the offer stopped runs again (unless staff restarted it)."""
    if offer.clock_stopped and draft.state.clock.since is None:
        draft.add(ev.Resumed(at))


def _accept_deal(draft: Draft, c: cmd.AcceptDeal) -> None:
    offer, name = _offer(draft.state, c.player)
    at = moment(c.at)
    draft.add(ev.DealAccepted(name))
    if len(draft.state.deal_accepted) < len(offer.amounts):
        return
    draft.add(ev.DealMade(offer.amounts, offer.left_to_play))
    _restart(draft, offer, at)
    if not offer.left_to_play:
        draft.add(ev.Finished(q.current_standings(draft.state)))


def _decline_deal(draft: Draft, c: cmd.DeclineDeal) -> None:
    offer, name = _offer(draft.state, c.player)
    at = moment(c.at)
    draft.add(ev.DealDeclined(name))
    _restart(draft, offer, at)


_HANDLERS: dict[type[Any], Callable[[Draft, Any], None]] = {
    cmd.OpenRegistration: _open_registration,
    cmd.Register: _register,
    cmd.Unregister: _unregister,
    cmd.Start: _start,
    cmd.Tick: _tick,
    cmd.Pause: _pause,
    cmd.Resume: _resume,
    cmd.AddTime: _add_time,
    cmd.ProposeDeal: _propose_deal,
    cmd.AcceptDeal: _accept_deal,
    cmd.DeclineDeal: _decline_deal,
    cmd.CarryFlight: _carry_flight,
    cmd.Cancel: _cancel,
    cmd.AwardPrizes: _award,
}
