"""What happens at the tables: hands, rebuys and add-ons, moves, disqualification.

Rules (RULES.md 6; TDA where it is silent):

- A hand is dealt to everyone at the table with chips, at the level in
  force; none while the clock is on a break, none while the final table
  waits to be drawn, none at a table due to break (it breaks once the hand
  it plays ends: ``settle``).  In hand-for-hand each table deals one hand a
  round, due to break or not, and waits until every table has finished its
  hand; a round starts only when no hand is running.
- A hand must conserve chips.  A player left with none goes out, ranked by
  his stack at the start of that hand, unless he may still rebuy.
- Rebuys and the add-on only between hands, or during a hand for a player
  not in it (RULES.md 1, table stakes): a rebuy while the window is open
  and the stack is at or below the threshold; the add-on once per entry,
  when the window has closed (``clock``): never beside a rebuy, so nobody
  adds on and then rebuys, or adds on broke instead of rebuying (a player
  still broke when the window closes is out).
- Staff moves: only a player not in a hand, to an empty seat of a table in
  play; balancing does not undo them.
- Each action has ``verify_x`` (raises the refusal) and ``can_x`` (a
  yes/no for menus), the same checks that refuse the command.
- Disqualification (TDA): the player's chips are removed from play and he
  is not placed.  During his hand it waits for the hand to end (the
  service folds his hand).  The last player in cannot be disqualified:
  cancel instead.  Players out of chips who may still rebuy count as in.
- A player out of chips who may rebuy has a clock to decide
  (``Rebuys.decision_seconds``, scaled by the structure's minute): when it
  runs out (``RebuyTimeout``) he is out as if he declined, so a silent
  player cannot hold up the end of play until the window closes.  The
  clock runs on wall time, paused or not, like the tables' action clocks.
- A pause stops the dealing with the levels: no hand starts while the
  clock is stopped (hands running finish), as none does on a break; the
  resume restarts both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournaments.rules import commands as cmd
from tournaments.rules import events as ev
from tournaments.rules import queries as q
from tournaments.rules.bounties import knockouts
from tournaments.rules.checks import whole
from tournaments.rules.draw import shuffler
from tournaments.rules.errors import (
    IllegalAction,
    Malformed,
    NotRegistered,
    RebuyRefused,
    SeatTaken,
    TournamentError,
)
from tournaments.rules.settle import (
    Draft,
    breaking_soon,
    eliminate,
    final_table_pending,
    may_rebuy,
    play_over,
    settle,
)
from tournaments.rules.state import Entrant, Status, TournamentState
from tournaments.rules.validate import moment, number, player_id, seed_of


def require_running(state: TournamentState) -> None:
    if state.status is not Status.RUNNING:
        raise IllegalAction("the tournament is not running")


def _table(state: TournamentState, table: object) -> int:
    n = number(table, "a table")
    if n not in state.tables:
        raise Malformed(f"there is no table {n} in play")
    return n


def _in(state: TournamentState, player: object) -> Entrant:
    name = player_id(player)
    entrant = state.entrant(name)
    if entrant is None or not entrant.alive:
        raise NotRegistered(f"{name} is not in the tournament")
    return entrant


def verify_start_hand(state: TournamentState, table: object) -> list[tuple[int, str, int]]:
    """The (seat, player, stack) dealt in to a hand at ``table`` now, or the
    reason it may not start (a ``TournamentError``)."""
    require_running(state)
    n = _table(state, table)
    if state.tables[n].hand is not None:
        raise IllegalAction(f"a hand is running at table {n}")
    _verify_dealing(state)
    return _verify_table_deals(state, n, breaking_soon(state))


def _verify_dealing(state: TournamentState) -> None:
    """What stops every table dealing now (the same for all of them)."""
    if q.on_break(state):
        raise IllegalAction("the tournament is on a break")
    if state.clock.since is None:
        raise IllegalAction("the clock is stopped: no hand is dealt until it runs again")
    if play_over(state):
        raise IllegalAction("play is over: it ends when the hands running finish")
    if final_table_pending(state):
        raise IllegalAction("the final table is drawn when every hand has finished")
    if state.deal_offer is not None:
        raise IllegalAction("a deal is offered: no hand is dealt until every player answers")


def _verify_table_deals(
    state: TournamentState, n: int, breaking: frozenset[int]
) -> list[tuple[int, str, int]]:
    """What stops table ``n`` alone dealing (between hands, the tournament
    dealing, ``breaking`` the tables due to break); its players dealt in."""
    if n in breaking:
        raise IllegalAction(f"table {n} is due to break: it deals no new hand")
    waiting = n in state.round_tables or (not state.round_tables and bool(state.hands))
    if state.hand_for_hand and waiting:
        raise IllegalAction("hand-for-hand: this table waits for the others")
    players = q.table_players_with_chips(state, n)
    if len(players) < 2:
        raise IllegalAction(f"fewer than two players with chips at table {n}")
    return players


def can_start_hand(state: TournamentState, table: int) -> bool:
    """A hand may be dealt at ``table`` now."""
    return _allowed(verify_start_hand, state, table)


def tables_to_deal(state: TournamentState) -> list[int]:
    """The tables a hand may be dealt at now, by number: those
    ``can_start_hand`` allows, with what holds for every table (a break,
    the end of play, ...) asked once, not once a table: a command at a
    field of hundreds asks this after every hand."""
    try:
        require_running(state)
        _verify_dealing(state)
    except TournamentError:
        return []
    between = sorted(n for n, t in state.tables.items() if t.hand is None)
    breaking = breaking_soon(state)

    def verify(state: TournamentState, n: int) -> object:
        return _verify_table_deals(state, n, breaking)

    return [n for n in between if _allowed(verify, state, n)]


def _start_hand(draft: Draft, c: cmd.StartHand) -> None:
    state = draft.state
    players = _dealt_in(verify_start_hand(state, c.table), c.seats)
    seats = {seat for seat, _, _ in players}
    for blind in (c.big_blind, c.over_blind):
        if blind is not None and (not whole(blind) or blind not in seats):
            raise Malformed("a blind is the seat of a player dealt in")
    draft.add(
        ev.HandStarted(
            state.last_hand + 1,
            c.table,
            q.level(state),
            tuple(ev.PlayerStack(p, seat, stack) for seat, p, stack in players),
            c.big_blind,
            c.over_blind,
        )
    )


def _dealt_in(
    players: list[tuple[int, str, int]], seats: tuple[int, ...] | None
) -> list[tuple[int, str, int]]:
    """Those of ``players`` the table dealt in (``seats``; None: all): who
    is in the hand, and so may not rebuy or move, is the table's call."""
    if seats is None:
        return players
    if not isinstance(seats, tuple) or not all(whole(s) for s in seats):
        raise Malformed("the seats dealt in are seat numbers")
    dealt = [p for p in players if p[0] in seats]
    if len(dealt) != len(set(seats)) or len(dealt) < 2:
        raise Malformed("the seats dealt in are two or more seats of players with chips")
    return dealt


def _finish_hand(draft: Draft, c: cmd.FinishHand) -> None:
    state, rng = draft.state, shuffler(seed_of(c.seed))
    require_running(state)
    table = _table(state, c.table)
    hand = state.tables[table].hand
    if hand is None:
        raise IllegalAction(f"no hand is running at table {table}")
    dealt = state.hands[hand].players
    stacks = _final_stacks(c.stacks, dealt)
    after = tuple(ev.PlayerStack(p.player, p.seat, stacks[p.player]) for p in dealt)
    busts = knockouts(dealt, stacks, c.pots) if state.definition.bounty is not None else ()
    draft.add(ev.HandFinished(hand, table, after, busts))
    busted = sorted((p.stack, p.player) for p in dealt if stacks[p.player] == 0)
    for _, player in busted:
        if draft.state.entrants[player].disqualify_queued:
            continue
        if not may_rebuy(draft.state, player):
            eliminate(draft, player)
        elif c.at is not None:
            until = moment(c.at) + state.definition.rebuy_decision_seconds
            draft.add(ev.RebuyOffered(player, until))
    for p in dealt:
        if draft.state.entrants[p.player].disqualify_queued:
            draft.add(ev.Disqualified(p.player, stacks[p.player]))
    settle(draft, rng)


def _final_stacks(given: Mapping[str, int], dealt: tuple[ev.PlayerStack, ...]) -> dict[str, int]:
    if not isinstance(given, Mapping):
        raise Malformed("stacks map each player dealt in to his chips")
    stacks = dict(given)
    if set(stacks) != {p.player for p in dealt}:
        raise Malformed("give the final stack of exactly the players dealt in")
    if any(not whole(v) or v < 0 for v in stacks.values()):
        raise Malformed("final stacks are whole numbers, not negative")
    before = sum(p.stack for p in dealt)
    if sum(stacks.values()) != before:
        raise Malformed(f"the hand must conserve chips: {before} in, {sum(stacks.values())} out")
    return stacks


def verify_rebuy(state: TournamentState, player: object) -> Entrant:
    """The player who may rebuy now, or why not (a ``TournamentError``)."""
    require_running(state)
    entrant = _in(state, player)
    if state.definition.rebuys is None:
        raise RebuyRefused("this tournament has no rebuys")
    if not q.rebuys_open(state):
        raise RebuyRefused("the rebuy window is closed")
    if q.in_hand(state, entrant.player):
        raise RebuyRefused("no rebuy during a hand you are in")
    if entrant.stack > state.definition.rebuy_threshold:
        most = state.definition.rebuy_threshold
        raise RebuyRefused(
            f"a rebuy needs a stack of at most {most}", values={"rebuy_threshold": most}
        )
    if not may_rebuy(state, entrant.player):
        raise RebuyRefused("no rebuys left")
    return entrant


def can_rebuy(state: TournamentState, player: str) -> bool:
    """``player`` may rebuy now."""
    return _allowed(verify_rebuy, state, player)


def _rebuy(draft: Draft, c: cmd.Rebuy) -> None:
    entrant = verify_rebuy(draft.state, c.player)
    rebuys = draft.state.definition.rebuys
    assert rebuys is not None
    draft.add(ev.Rebought(entrant.player, rebuys.chips, rebuys.price))


def verify_add_on(state: TournamentState, player: object) -> Entrant:
    """The player who may take the add-on now, or why not."""
    require_running(state)
    entrant = _in(state, player)
    rebuys = state.definition.rebuys
    if rebuys is None or not rebuys.add_on:
        raise RebuyRefused("this tournament has no add-on")
    if not q.add_on_open(state):
        raise RebuyRefused("the add-on is taken once the rebuy period is over")
    if q.add_on_missed(state, entrant):
        raise RebuyRefused("the add-on came before your first hand after the rebuy period")
    if q.in_hand(state, entrant.player):
        raise RebuyRefused("no add-on during a hand you are in")
    if entrant.added_on:
        raise RebuyRefused("one add-on per entry")
    return entrant


def can_add_on(state: TournamentState, player: str) -> bool:
    """``player`` may take the add-on now."""
    return _allowed(verify_add_on, state, player)


def _add_on(draft: Draft, c: cmd.AddOn) -> None:
    entrant = verify_add_on(draft.state, c.player)
    rebuys = draft.state.definition.rebuys
    assert rebuys is not None
    draft.add(ev.AddedOn(entrant.player, rebuys.add_on_chips, rebuys.add_on_price))


Verify = Callable[[TournamentState, Any], object]


def _allowed(verify: Verify, state: TournamentState, arg: Any) -> bool:
    try:
        verify(state, arg)
    except TournamentError:
        return False
    return True


def _decline(draft: Draft, c: cmd.DeclineRebuy) -> None:
    state, rng = draft.state, shuffler(seed_of(c.seed))
    require_running(state)
    entrant = _in(state, c.player)
    if entrant.stack or entrant.table is None:
        raise IllegalAction(f"{entrant.player} still has chips")
    eliminate(draft, entrant.player)
    settle(draft, rng)


def _rebuy_timeout(draft: Draft, c: cmd.RebuyTimeout) -> None:
    """The rebuy clock ran out: out as if he declined (a timer that finds
    the decision made, or its time not yet come, is refused)."""
    state, at, rng = draft.state, moment(c.at), shuffler(seed_of(c.seed))
    require_running(state)
    entrant = _in(state, c.player)
    if entrant.rebuy_until is None or entrant.stack:
        raise IllegalAction(f"{entrant.player} has no rebuy decision pending")
    if at < entrant.rebuy_until:
        raise IllegalAction(f"{entrant.player} may decide until {entrant.rebuy_until}")
    eliminate(draft, entrant.player)
    settle(draft, rng)


def _move_player(draft: Draft, c: cmd.MovePlayer) -> None:
    state = draft.state
    require_running(state)
    entrant = _in(state, c.player)
    table = _table(state, c.table)
    size = state.definition.seats_per_table
    seat = number(c.seat, "a seat")
    if seat > size:
        raise Malformed(f"seats are 1 to {size}")
    if q.in_hand(state, entrant.player):
        raise IllegalAction(f"{entrant.player} is in a hand")
    if seat in state.tables[table].seats:
        raise SeatTaken(
            f"seat {seat} at table {table} is taken", values={"table": table, "seat": seat}
        )
    assert entrant.table is not None and entrant.seat is not None
    draft.add(ev.PlayerMoved(entrant.player, entrant.table, entrant.seat, table, seat))


def _disqualify(draft: Draft, c: cmd.Disqualify) -> None:
    state, rng = draft.state, shuffler(seed_of(c.seed))
    require_running(state)
    entrant = _in(state, c.player)
    if entrant.disqualify_queued:
        raise IllegalAction(f"{entrant.player} is already being disqualified")
    staying = sum(1 for e in state.entrants.values() if e.alive and not e.disqualify_queued)
    if staying <= 1:
        raise IllegalAction("the last player in cannot be disqualified: cancel instead")
    if q.in_hand(state, entrant.player):
        draft.add(ev.DisqualificationQueued(entrant.player))
        return
    draft.add(ev.Disqualified(entrant.player, entrant.stack))
    settle(draft, rng)


PLAY_HANDLERS: dict[type[Any], Callable[[Draft, Any], None]] = {
    cmd.StartHand: _start_hand,
    cmd.FinishHand: _finish_hand,
    cmd.Rebuy: _rebuy,
    cmd.AddOn: _add_on,
    cmd.DeclineRebuy: _decline,
    cmd.RebuyTimeout: _rebuy_timeout,
    cmd.MovePlayer: _move_player,
    cmd.Disqualify: _disqualify,
}
