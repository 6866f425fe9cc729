"""Bounties: knockouts and progressive knockouts (PKO).

Rules (RULES.md 6 is silent; chosen here, stated in docs/rules.md 6):

- Every entry pays the bounty with its buy-in; it is the head on the
  player.  The money is held with the pool, apart from the prizes.
- A player's head is won by the players who busted him, at the moment he
  goes out (in the command that reports the hand, or later if he could
  still rebuy and did not): a player who rebuys keeps his head.
- Several players busting one opponent split his head by the side pots:
  each gets a part in proportion to the chips he took from the pots the
  busted player contested (his main pot and the side pots he was in).
  Parts are whole units, rounded down, the units left over going one
  each to the knockers who took the most chips (then by player id).
  When the hand's pots are not known, the chips each player won in the
  hand stand in for them.
- In a PKO, of each part ``paid_now_percent`` (rounded down) is paid now
  and the rest is added to the knocker's own head; a knocker no longer in
  gets it all in cash.
- When the tournament ends, every player still in collects his own head,
  and a head nobody won (a disqualified player's) goes to the winner.
- A re-entry carries a fresh head, added to any the player still has.
- Once a bounty has been paid the tournament cannot be cancelled: the
  money already won cannot be refunded to everyone (before that, a
  cancellation refunds every head with the entries).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.rules import commands as cmd
from tournaments.rules import events as ev
from tournaments.rules.checks import whole
from tournaments.rules.errors import Malformed
from tournaments.rules.payouts import split
from tournaments.rules.placements import Standing
from tournaments.rules.state import TournamentState


def knockouts(
    dealt: Sequence[ev.PlayerStack], stacks: Mapping[str, int], pots: Sequence[cmd.PotResult]
) -> tuple[ev.Knockout, ...]:
    """Who busted whom in a hand: each player who ends it with no chips,
    and the chips each winner took from the pots he contested."""
    start = {p.player: p.stack for p in dealt}
    checked = _checked(pots, frozenset(start))
    out = []
    for player in sorted(p for p in start if stacks[p] == 0):
        took: dict[str, int] = {}
        for pot in checked:
            if player in pot.eligible:
                for winner, chips in pot.shares.items():
                    if winner != player and chips:
                        took[winner] = took.get(winner, 0) + chips
        if not took:  # no pots given: the chips each won in the hand
            took = {p: stacks[p] - s for p, s in start.items() if stacks[p] > s}
        by = sorted(took.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(ev.Knockout(player, tuple(ev.Knocker(p, c) for p, c in by)))
    return tuple(out)


def _checked(pots: object, dealt: frozenset[str]) -> tuple[cmd.PotResult, ...]:
    if not isinstance(pots, tuple) or not all(isinstance(p, cmd.PotResult) for p in pots):
        raise Malformed("pots are a tuple of PotResult")
    for pot in pots:
        if not isinstance(pot.eligible, tuple) or not set(pot.eligible) <= dealt:
            raise Malformed("a pot is contested by players dealt in")
        if not isinstance(pot.shares, Mapping) or not set(pot.shares) <= set(pot.eligible):
            raise Malformed("a pot is won by players who contested it")
        if any(not whole(c) or c < 0 for c in pot.shares.values()):
            raise Malformed("a pot's shares are whole chips, not negative")
    return pots


def head_won(state: TournamentState, player: str) -> ev.BountyPaid | None:
    """The head on ``player``, who just went out, to those who busted him
    (None: no bounty, or nobody to win it: it waits for the end)."""
    bounty = state.definition.bounty
    entrant = state.entrants[player]
    if bounty is None or not entrant.bounty or not entrant.knocked_by:
        return None
    by = entrant.knocked_by
    parts = split(entrant.bounty, tuple(k.chips for k in by))
    shares = []
    for knocker, part in zip(by, parts, strict=True):
        if not part:
            continue
        later = 0
        if bounty.progressive and state.entrants[knocker.player].alive:
            later = part - part * bounty.paid_now_percent // 100
        shares.append(ev.BountyShare(knocker.player, part - later, later))
    return ev.BountyPaid(player, tuple(shares))


def heads_at_end(state: TournamentState, standings: Sequence[Standing]) -> list[ev.BountyPaid]:
    """The heads left when play is over: each player still in collects his
    own, and any other (nobody won it) goes to the winner."""
    if state.definition.bounty is None or not standings:
        return []
    winner = min(standings, key=lambda s: (s.place, s.player)).player
    out = []
    for player, entrant in sorted(state.entrants.items()):
        if entrant.bounty:
            to = player if entrant.alive else winner
            out.append(ev.BountyPaid(player, (ev.BountyShare(to, entrant.bounty),)))
    return out


def bounty_paid(state: TournamentState) -> bool:
    """Some head has been won already (the tournament can no longer be
    cancelled and refunded)."""
    return state.bounties_paid > 0
