"""What follows by itself after a command: players out of chips go out,
tables break and balance, hand-for-hand starts or stops, play ends.

``decide`` builds its answer in a ``Draft`` (the events so far and the state
they lead to) and calls ``settle`` last, so every command leaves the
tournament as the rules want it between hands:

- A player with no chips goes out unless he may still rebuy (the window is
  open and he has rebuys left); when the window closes, those who did not
  rebuy go out, ranked by the hand they lost their chips in.
- Moves follow ``seating``: the final table first (it waits for every
  table to finish its hand, and no table deals meanwhile; its button is
  drawn and it starts afresh), then the tables due to break (the
  highest-numbered: each between hands breaks at once, one after another
  against the tables as the last left them; one in a hand deals no other
  and breaks when it ends; balancing waits while any is due), then
  balancing.  During hand-for-hand nobody moves until the round is over.
- Hand-for-hand follows ``seating.hand_for_hand`` for the pool as it stands.
- Play ends, between hands and once nobody can come back in (registration
  closed, nobody left who may rebuy), with one player left; a satellite
  ends as soon as no more players are left than seats, once its pool is
  final (all of them win a seat); a starting flight of a multi-flight
  event stops, everyone left bagging his stack, once its pool is final and
  no more players are left than its mark (``flights``; hand-for-hand when
  one bust would take it there).  Should nobody be left at all (the last
  chips left play with a disqualified player and nobody rebought), the
  last players busted finish first.
"""

from __future__ import annotations

from tournaments.rules import events as ev
from tournaments.rules import queries as q
from tournaments.rules.bounties import head_won
from tournaments.rules.evolve import evolve
from tournaments.rules.flights import Bag
from tournaments.rules.seating import (
    Move,
    Shuffler,
    balance_moves,
    break_moves,
    draw_button,
    final_table_draw,
    final_table_due,
    hand_for_hand,
    tables_to_break,
)
from tournaments.rules.state import Status, TournamentState

MAX_MOVES = 10_000
"""A bound on the moves of one settling (each move fixes something)."""


class Draft:
    """The events one decision has made so far and the state they lead to."""

    def __init__(self, state: TournamentState) -> None:
        self.state = state
        self.events: list[ev.TournamentEvent] = []

    def add(self, *events: ev.TournamentEvent) -> None:
        """Record ``events`` and fold them into the state."""
        for event in events:
            self.state = evolve(self.state, event)
            self.events.append(event)


def may_rebuy(state: TournamentState, player: str) -> bool:
    """The window is open and the player has rebuys left."""
    rebuys = state.definition.rebuys
    if rebuys is None or not q.rebuys_open(state):
        return False
    used = state.entrants[player].rebuys
    return rebuys.max_rebuys is None or used < rebuys.max_rebuys


def eliminate(draft: Draft, player: str) -> None:
    """``player`` goes out, placed by the hand he lost his chips in; his
    head (a bounty tournament) goes to those who busted him."""
    bust = draft.state.entrants[player].bust
    assert bust is not None
    draft.add(ev.Eliminated(player, bust.group, bust.stack))
    won = head_won(draft.state, player)
    if won is not None:
        draft.add(won)


def settle(draft: Draft, rng: Shuffler) -> None:
    """Everything that follows by itself, in order (``rng`` draws seats)."""
    if draft.state.status is not Status.RUNNING:
        return
    for entrant in q.broke(draft.state):
        if not may_rebuy(draft.state, entrant.player):
            eliminate(draft, entrant.player)
    _move(draft, rng)
    if _hand_for_hand(draft) is False:
        _move(draft, rng)  # the moves the round held back
    _finish(draft)


def breaking_soon(state: TournamentState) -> frozenset[int]:
    """The tables due to break, which deal no new hand: each breaks when
    the hand it plays ends.  None in hand-for-hand: nobody moves until the
    round is over, and it is over only once every table has dealt its hand."""
    if state.hand_for_hand:
        return frozenset()
    return frozenset(tables_to_break(state.tables, state.definition.seats_per_table))


def final_table_pending(state: TournamentState) -> bool:
    """The final table is due but waits for running hands: no table deals."""
    size = state.definition.seats_per_table
    return final_table_due(state.tables, size)  # no views: asked once per table per deal


def _move(draft: Draft, rng: Shuffler) -> None:
    size = draft.state.definition.seats_per_table
    over_from = draft.state.definition.over_blind_from
    for _ in range(MAX_MOVES):
        state = draft.state
        views = q.table_views(state)
        busy = any(v.busy for v in views.values())
        empty = [n for n, v in views.items() if not v.seats and not v.busy]
        if empty:
            draft.add(*(ev.TableBroken(n) for n in empty))
            continue
        if final_table_due(views, size):
            if not busy:
                table, seats = final_table_draw(views, size, rng)
                drawn = tuple(ev.PlayerSeat(p, s) for s, p in sorted(seats.items()))
                stuck = frozenset(e.player for e in q.broke(state))
                button = draw_button(seats, stuck, rng)
                draft.add(ev.FinalTableDrawn(table, drawn), ev.ButtonDrawn(table, button))
            return
        if busy and state.hand_for_hand:
            return
        due = tables_to_break(views, size)
        ready = [n for n in due if not views[n].busy]
        if ready:
            breaking = ready[0]
            staying = {n: v for n, v in views.items() if n == breaking or n not in due}
            moves = break_moves(staying, breaking, size, rng, over_from)
            draft.add(*(_moved(m) for m in moves), ev.TableBroken(breaking))
            continue
        if due:
            return  # the tables due to break finish their hands; no balancing meanwhile
        draft.add(*(_moved(m) for m in balance_moves(views, size, over_from)))
        return  # balanced at once: nothing more moves until a table changes
    raise AssertionError("settling did not converge")  # pragma: no cover


def _moved(m: Move) -> ev.PlayerMoved:
    return ev.PlayerMoved(m.player, m.from_table, m.from_seat, m.table, m.seat)


def _hand_for_hand(draft: Draft) -> bool | None:
    """Start or end hand-for-hand as the pool wants: True started, False
    ended, None no change."""
    state = draft.state
    mark = q.flight_mark(state)
    paid = len(q.prizes(state)) if mark is None else mark
    want = hand_for_hand(q.players_left(state), len(state.tables), paid, q.seats_awarded(state))
    if want == state.hand_for_hand:
        return None
    draft.add(ev.HandForHandStarted() if want else ev.HandForHandEnded())
    return want


def _finish(draft: Draft) -> None:
    state = draft.state
    if state.hands or q.broke(state) or q.registration_open(state):
        return
    if not play_over(state):
        return
    if q.flight_mark(state) is None:
        draft.add(ev.Finished(q.current_standings(state)))
        return
    flight = state.definition.flight
    assert flight is not None
    bags = tuple(Bag(e.player, flight.number, e.stack) for e in q.alive(state))
    draft.add(ev.FlightStopped(q.level(state), bags))


def play_over(state: TournamentState) -> bool:
    """One player left; in a satellite, no more than the seats once the
    pool is final (everybody left wins a seat); in a starting flight, no
    more than its mark once the pool is final (everybody left bags).  No hand is dealt from
    then on; play ends when the hands running finish."""
    left = q.players_left(state)
    mark = q.flight_mark(state)
    if mark is not None:
        return q.pool_final(state) and left <= mark
    seats = q.seats_awarded(state)
    if seats is None:
        return left <= 1
    return q.pool_final(state) and left <= max(1, seats)
