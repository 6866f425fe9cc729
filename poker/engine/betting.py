"""Who acts next and what he may do: the one place the betting rules live.

``legal_actions`` is both the menu a client shows and the check ``decide``
applies, so what is offered and what is accepted cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.engine.commands import Action
from poker.engine.rules import Betting
from poker.engine.showdown import can_win
from poker.engine.state import LEGAL_MEMO, HandState, Phase, Player

FIXED_LIMIT_CAP = 4
"""Bet, raise, re-raise, cap (RULES.md section 1); the blind is the first."""


@dataclass(frozen=True, slots=True)
class Legal:
    """What the player to act may do; amounts are round totals."""

    player: int
    actions: tuple[Action, ...]
    call: int = 0
    """Chips a call adds (less than the bet when it puts him all-in)."""
    min_bet_to: int | None = None
    max_bet_to: int | None = None
    min_raise_to: int | None = None
    max_raise_to: int | None = None
    max_discard: int | None = None


def bet_unit(state: HandState, betting_round: int) -> int:
    """The minimum bet of a round; in fixed limit, the bet size."""
    unit = state.blind_level
    if state.rules.betting is Betting.FIXED_LIMIT and (
        betting_round >= state.variant.first_big_bet_round
    ):
        return 2 * unit
    return unit


def needs_action(state: HandState, i: int) -> bool:
    """Whether player ``i`` still has to act in this betting round.

    He has chips, and either owes a call, or has not acted while somebody
    else could still answer a bet.
    """
    bettors = sum(1 for p in state.players if p.can_bet)
    return _needs_action(state.players[i], state.current_bet, bettors)


def _needs_action(player: Player, current_bet: int, bettors: int) -> bool:
    if not player.can_bet:
        return False
    return player.bet < current_bet or (not player.acted and bettors > 1)


def next_to_bet(players: tuple[Player, ...], current_bet: int, after: int) -> int | None:
    """The first player clockwise after ``after`` who must act, if any."""
    if sum(1 for p in players if p.in_hand) <= 1:
        return None
    bettors = sum(1 for p in players if p.can_bet)
    n = len(players)
    for k in range(after + 1, after + 1 + n):
        if _needs_action(players[k % n], current_bet, bettors):
            return k % n
    return None


def parole_open(state: HandState, i: int) -> bool:
    """Player ``i`` may offer Parole: 32 Card Draw, first to act after the
    draw, nobody has acted yet, never offered this hand, and at least two
    players can still bet."""
    return (
        state.variant.parole
        and state.round == state.variant.draws
        and state.parole_by is None
        and state.current_bet == 0
        and not any(p.acted for p in state.players)
        and len(state.can_bet()) >= 2
        and state.players[i].can_bet
    )


def legal_actions(state: HandState) -> Legal | None:
    """What the player to act may do, or None when nobody is to act.

    Memoised on the state (states never change; ``evolved`` drops the memo
    from copies), since clients and ``decide`` both ask for every state.
    """
    memo = state.__dict__
    if LEGAL_MEMO not in memo:
        memo[LEGAL_MEMO] = _legal_actions(state)
    legal: Legal | None = memo[LEGAL_MEMO]
    return legal


def _legal_actions(state: HandState) -> Legal | None:
    i = state.to_act
    if i is None:
        return None
    phase = state.phase
    if phase is Phase.BETTING:
        return _betting(state, i)
    if phase is Phase.DRAW:
        available = len(state.stub) + len(state.muck)
        most = min(state.variant.max_discard, len(state.players[i].cards), available)
        return Legal(i, (Action.STAND, Action.DISCARD), max_discard=most)
    if phase is Phase.PAROLE:
        return Legal(i, (Action.ACCEPT, Action.DECLINE))
    if phase is Phase.SHOWDOWN:
        if can_win(state, i):
            return Legal(i, (Action.SHOW,))
        return Legal(i, (Action.SHOW, Action.MUCK))
    return None


def _betting(state: HandState, i: int) -> Legal:
    player = state.players[i]
    call = min(state.current_bet - player.bet, player.stack)
    actions = [Action.FOLD, Action.CALL] if call > 0 else [Action.CHECK]
    if parole_open(state, i):
        actions.append(Action.PAROLE)
    if not _may_raise(state, i, call):
        return Legal(i, tuple(actions), call=call)
    all_in = player.bet + player.stack
    low, high = _raise_bounds(state, i)
    low, high = min(low, all_in), min(max(low, high), all_in)
    if state.current_bet == 0:
        actions.append(Action.BET)
        return Legal(i, tuple(actions), call=call, min_bet_to=low, max_bet_to=high)
    actions.append(Action.RAISE)
    return Legal(i, tuple(actions), call=call, min_raise_to=low, max_raise_to=high)


def _may_raise(state: HandState, i: int, call: int) -> bool:
    """Bet or raise allowed: chips beyond the call, no draw-clock penalty,
    someone who could put in more than the current bet, betting open to
    him (an all-in short of a full raise does not reopen it), and under the
    fixed-limit cap."""
    player = state.players[i]
    if player.no_raise or player.stack <= call or not _someone_can_answer(state, i):
        return False
    if player.acted and state.current_bet - player.faced < state.min_raise:
        return False
    return not (state.rules.betting is Betting.FIXED_LIMIT and state.bets >= FIXED_LIMIT_CAP)


def _someone_can_answer(state: HandState, i: int) -> bool:
    """A raise nobody can call is only a bet to be handed back: not offered."""
    current = state.current_bet
    return any(
        p.can_bet and p.bet + p.stack > current for j, p in enumerate(state.players) if j != i
    )


def _raise_bounds(state: HandState, i: int) -> tuple[int, int]:
    """Round totals for the smallest and largest bet or raise, before the
    stack limit."""
    player = state.players[i]
    betting = state.rules.betting
    if betting is Betting.FIXED_LIMIT:
        to = state.full_level + state.min_raise
        return to, to
    low = state.current_bet + state.min_raise
    if betting is Betting.NO_LIMIT:
        return low, player.bet + player.stack
    # Pot limit: call first, then raise by at most the whole pot.
    call = state.current_bet - player.bet
    return low, state.current_bet + state.pot + call


def is_full_raise(state: HandState, to: int) -> bool:
    """Whether a bet or raise to ``to`` is full (reopens the betting and, in
    fixed limit, counts toward the cap)."""
    if state.rules.betting is Betting.FIXED_LIMIT:
        return to >= state.full_level + state.min_raise
    return to - state.current_bet >= state.min_raise
