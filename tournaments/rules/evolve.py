"""``evolve(state, event) -> state`` and ``replay(events)``: the fold.

Events are facts: ``evolve`` applies one without judging it (only an event
that cannot apply at all, such as a second ``TournamentCreated``, is
``Malformed``).  Derived here rather than recorded: each hand's elimination
group (one per hand, one per hand-for-hand round) and who lost his chips in
which of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from tournaments.rules import events as ev
from tournaments.rules.clock import level_period, period_start
from tournaments.rules.errors import Malformed
from tournaments.rules.placements import Bust
from tournaments.rules.state import Clock, Entrant, RunningHand, Status, TableInfo, TournamentState


def evolve(state: TournamentState | None, event: ev.TournamentEvent) -> TournamentState:
    """The state after ``event`` (``state`` is None only for ``TournamentCreated``)."""
    if isinstance(event, ev.TournamentCreated):
        if state is not None:
            raise Malformed("the tournament already exists")
        return TournamentState(event.definition, event.name, event.starts_at, version=1)
    if state is None:
        raise Malformed(f"{type(event).__name__} before TournamentCreated")
    new = _APPLY[type(event)](state, event)
    return replace(new, version=state.version + 1)


def replay(events: Iterable[ev.TournamentEvent]) -> TournamentState:
    """The fold of ``events`` from nothing."""
    state: TournamentState | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise Malformed("no events")
    return state


def _with(state: TournamentState, player: str, **changes: Any) -> TournamentState:
    return _entrants(state, {player: replace(state.entrants[player], **changes)})


def _entrants(state: TournamentState, changes: Mapping[str, Entrant | None]) -> TournamentState:
    """The state with these entries (None: the entry is gone), in one copy
    of the entrants, and its tally kept with them."""
    entrants = dict(state.entrants)
    tally = state.tally
    for player, entrant in changes.items():
        tally = tally.changed(entrants.get(player), entrant)
        if entrant is None:
            del entrants[player]
        else:
            entrants[player] = entrant
    return replace(state, entrants=entrants, tally=tally)


def _table(state: TournamentState, number: int, **changes: Any) -> TournamentState:
    tables = dict(state.tables)
    tables[number] = replace(tables.get(number, TableInfo()), **changes)
    return replace(state, tables=tables)


def _unseat(state: TournamentState, player: str) -> TournamentState:
    """The player leaves his seat (if it is still his)."""
    entrant = state.entrants[player]
    if entrant.table is not None and entrant.table in state.tables:
        seats = dict(state.tables[entrant.table].seats)
        if seats.get(entrant.seat or 0) == player:
            del seats[entrant.seat or 0]
        arrived = tuple(p for p in state.tables[entrant.table].arrived if p != player)
        state = _table(state, entrant.table, seats=seats, arrived=arrived)
    return _with(state, player, table=None, seat=None)


def _seat(state: TournamentState, player: str, table: int, seat: int) -> TournamentState:
    seats = dict(state.tables.get(table, TableInfo()).seats)
    seats[seat] = player
    state = replace(state, top_table=max(state.top_table, table))
    return _with(_table(state, table, seats=seats), player, table=table, seat=seat)


def _registered(state: TournamentState, e: ev.Registered) -> TournamentState:
    old = state.entrants.get(e.player)
    paid = e.paid + (old.paid if old else 0)
    head = state.definition.bounty_amount + (old.bounty if old else 0)
    entrant = Entrant(e.player, entries=e.entry, paid=paid, bounty=head)
    state = _entrants(state, {e.player: entrant})
    pool = state.pool + state.definition.buy_in
    return replace(state, entries=state.entries + 1, pool=pool)


def _unregistered(state: TournamentState, e: ev.Unregistered) -> TournamentState:
    state = _entrants(state, {e.player: None})
    pool = state.pool - state.definition.buy_in
    return replace(state, entries=state.entries - 1, pool=pool)


def _started(state: TournamentState, e: ev.Started) -> TournamentState:
    """Play begins at level 1; a Day 2's clock at the start of the level
    the flights stopped at, as if it had run until then."""
    flight = state.definition.flight
    period = 0
    if flight is not None and flight.day_two:
        period = level_period(state.definition.structure, state.resume_level)
    banked = period_start(state.definition.structure, period)
    clock = Clock(banked=banked, since=e.at)
    return replace(state, status=Status.RUNNING, started_at=e.at, clock=clock, period=period)


def _seated(state: TournamentState, e: ev.Seated) -> TournamentState:
    return _with(_seat(state, e.player, e.table, e.seat), e.player, stack=e.stack)


def _level(state: TournamentState, e: ev.LevelChanged) -> TournamentState:
    return replace(state, period=level_period(state.definition.structure, e.level))


def _break(state: TournamentState, e: ev.BreakStarted) -> TournamentState:
    return replace(state, period=level_period(state.definition.structure, e.after_level) + 1)


def _paused(state: TournamentState, e: ev.Paused) -> TournamentState:
    return replace(state, clock=replace(state.clock, banked=state.clock.running(e.at), since=None))


def _resumed(state: TournamentState, e: ev.Resumed) -> TournamentState:
    return replace(state, clock=replace(state.clock, since=e.at))


def _time_added(state: TournamentState, e: ev.TimeAdded) -> TournamentState:
    extra = dict(state.clock.extra)
    extra[e.period] = extra.get(e.period, 0) + e.seconds
    return replace(state, clock=replace(state.clock, extra=extra))


def _hand_started(state: TournamentState, e: ev.HandStarted) -> TournamentState:
    group = None
    if state.hand_for_hand:
        if not state.round_tables:
            state = replace(state, groups=state.groups + 1, round_group=state.groups + 1)
        state = replace(state, round_tables=state.round_tables | {e.table})
        group = state.round_group
    entrants = state.entrants
    state = _entrants(
        state, {p.player: replace(entrants[p.player], last_level=e.level) for p in e.players}
    )
    hands = dict(state.hands)
    hands[e.hand] = RunningHand(e.table, e.players, group)
    state = replace(state, hands=hands, last_hand=e.hand)
    return _table(
        state, e.table, hand=e.hand, big_blind=e.big_blind, over_blind=e.over_blind, arrived=()
    )


def _hand_finished(state: TournamentState, e: ev.HandFinished) -> TournamentState:
    hands = dict(state.hands)
    running = hands.pop(e.hand)
    group = running.group
    if group is None:
        group = state.groups + 1
        state = replace(state, groups=group)
    start = {p.player: p.stack for p in running.players}
    knocked = {k.player: k.by for k in e.knockouts}
    changes = {}
    for final in e.stacks:
        old = state.entrants[final.player]
        bust = Bust(final.player, group, start[final.player]) if final.stack == 0 else old.bust
        by = knocked.get(final.player, old.knocked_by)
        changes[final.player] = replace(old, stack=final.stack, bust=bust, knocked_by=by)
    state = replace(_entrants(state, changes), hands=hands)  # one copy for the hand
    return _round_over(_table(state, e.table, hand=None))


def _round_over(state: TournamentState) -> TournamentState:
    """Hand-for-hand: a round is over when every table in play has dealt its
    hand and none is running (a table that broke meanwhile no longer counts)."""
    done = state.round_tables >= set(state.tables)
    if state.hand_for_hand and state.round_tables and not state.hands and done:
        return replace(state, round_tables=frozenset(), round_group=None)
    return state


def _rebought(state: TournamentState, e: ev.Rebought) -> TournamentState:
    entrant = state.entrants[e.player]
    state = replace(state, pool=state.pool + e.price)
    return _with(
        state, e.player, stack=entrant.stack + e.chips, rebuys=entrant.rebuys + 1,
        paid=entrant.paid + e.price, rebuy_until=None, knocked_by=(),
    )  # fmt: skip


def _added_on(state: TournamentState, e: ev.AddedOn) -> TournamentState:
    entrant = state.entrants[e.player]
    state = replace(state, pool=state.pool + e.price)
    return _with(
        state, e.player, stack=entrant.stack + e.chips, added_on=True, paid=entrant.paid + e.price
    )


def _eliminated(state: TournamentState, e: ev.Eliminated) -> TournamentState:
    state = _unseat(state, e.player)
    bust = Bust(e.player, e.group, e.stack)
    return _with(state, e.player, out=True, stack=0, bust=bust, rebuy_until=None)


def _bounty_paid(state: TournamentState, e: ev.BountyPaid) -> TournamentState:
    """The head leaves its player; each share is cash won and a part of
    the knocker's own head."""
    entrants = dict(state.entrants)
    entrants[e.player] = replace(entrants[e.player], bounty=0, knocked_by=())
    for s in e.shares:
        got = entrants[s.player]
        entrants[s.player] = replace(
            got, bounty=got.bounty + s.head, bounty_won=got.bounty_won + s.cash
        )
    state = _entrants(state, {p: entrants[p] for p in {e.player, *(s.player for s in e.shares)}})
    return replace(state, bounties_paid=state.bounties_paid + 1)


def _moved(state: TournamentState, e: ev.PlayerMoved) -> TournamentState:
    state = _seat(_unseat(state, e.player), e.player, e.table, e.seat)
    return _table(state, e.table, arrived=(*state.tables[e.table].arrived, e.player))


def _broken(state: TournamentState, e: ev.TableBroken) -> TournamentState:
    tables = dict(state.tables)
    del tables[e.table]
    return _round_over(replace(state, tables=tables, round_tables=state.round_tables - {e.table}))


def _final(state: TournamentState, e: ev.FinalTableDrawn) -> TournamentState:
    seats = {s.seat: s.player for s in e.seats}
    state = replace(state, tables={e.table: TableInfo(seats)}, final_table=e.table)
    for s in e.seats:
        state = _with(state, s.player, table=e.table, seat=s.seat)
    return state


def _h4h(on: bool) -> Callable[[TournamentState, Any], TournamentState]:
    def apply(state: TournamentState, e: Any) -> TournamentState:
        return replace(state, hand_for_hand=on, round_tables=frozenset(), round_group=None)

    return apply


def _dq_queued(state: TournamentState, e: ev.DisqualificationQueued) -> TournamentState:
    return _with(state, e.player, disqualify_queued=True)


def _disqualified(state: TournamentState, e: ev.Disqualified) -> TournamentState:
    state = _unseat(state, e.player)
    if state.deal_offer is not None:  # the offer named him: it is withdrawn
        state = replace(state, deal_offer=None, deal_accepted=frozenset())
    return _with(state, e.player, disqualified=True, stack=0, rebuy_until=None)


def _deal_declined(state: TournamentState, e: ev.DealDeclined) -> TournamentState:
    return replace(state, deal_offer=None, deal_accepted=frozenset())


def _flight_stopped(state: TournamentState, e: ev.FlightStopped) -> TournamentState:
    """Play is over with the bags; no prizes (``awards`` empty): the pool
    goes to Day 2."""
    return replace(state, status=Status.FINISHED, bags=e.bags, stopped_level=e.level, awards=())


def _flight_carried(state: TournamentState, e: ev.FlightCarried) -> TournamentState:
    carried = dict(state.carried)
    carried[e.flight] = e
    return replace(state, carried=carried, pool=state.pool + e.pool)


def _day_two_ready(state: TournamentState, e: ev.DayTwoReady) -> TournamentState:
    """The players who went through are its entrants, with their bags."""
    state = _entrants(state, {b.player: Entrant(b.player, stack=b.stack) for b in e.stacks})
    return replace(
        state, status=Status.REGISTERING, entries=len(e.stacks), resume_level=e.level,
        forfeited=e.forfeited,
    )  # fmt: skip


def _refunded(state: TournamentState, e: ev.Refunded) -> TournamentState:
    return _with(state, e.player, paid=state.entrants[e.player].paid - e.amount)


_APPLY: dict[type[Any], Callable[[TournamentState, Any], TournamentState]] = {
    ev.RegistrationOpened: lambda s, e: replace(s, status=Status.REGISTERING),
    ev.GuaranteeHeld: lambda s, e: replace(s, held=s.held + e.amount),
    ev.GuaranteeReleased: lambda s, e: replace(s, held=s.held - e.amount),
    ev.Registered: _registered,
    ev.Unregistered: _unregistered,
    ev.Started: _started,
    ev.Seated: _seated,
    ev.LevelChanged: _level,
    ev.BreakStarted: _break,
    ev.Paused: _paused,
    ev.Resumed: _resumed,
    ev.TimeAdded: _time_added,
    ev.HandStarted: _hand_started,
    ev.HandFinished: _hand_finished,
    ev.Rebought: _rebought,
    ev.RebuyOffered: lambda s, e: _with(s, e.player, rebuy_until=e.until),
    ev.AddedOn: _added_on,
    ev.Eliminated: _eliminated,
    ev.BountyPaid: _bounty_paid,
    ev.PlayerMoved: _moved,
    ev.TableBroken: _broken,
    ev.FinalTableDrawn: _final,
    ev.ButtonDrawn: lambda s, e: s,  # the tables' business: nothing to fold here
    ev.HandForHandStarted: _h4h(True),
    ev.HandForHandEnded: _h4h(False),
    ev.DisqualificationQueued: _dq_queued,
    ev.Disqualified: _disqualified,
    ev.DealOffered: lambda s, e: replace(s, deal_offer=e, deal_accepted=frozenset()),
    ev.DealAccepted: lambda s, e: replace(s, deal_accepted=s.deal_accepted | {e.player}),
    ev.DealDeclined: _deal_declined,
    ev.DealMade: lambda s, e: replace(s, deal=e, deal_offer=None, deal_accepted=frozenset()),
    ev.Finished: lambda s, e: replace(s, status=Status.FINISHED, standings=e.standings),
    ev.PrizesAwarded: lambda s, e: replace(s, awards=e.awards),
    ev.FlightStopped: _flight_stopped,
    ev.FlightCarried: _flight_carried,
    ev.DayTwoReady: _day_two_ready,
    ev.Cancelled: lambda s, e: replace(s, status=Status.CANCELLED),
    ev.Refunded: _refunded,
}
