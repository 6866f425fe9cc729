"""Deals at the final table: ICM (Malmuth-Harville), chip-chop or a custom
split, with some money left to play for.

Rules (RULES.md 6 is silent; chosen here, stated in docs/rules.md 6):

- A director proposes a deal at the final table, between hands, once the
  pool is final; a satellite takes no deal (its seats are never dealt).
  While it is offered no hand is dealt and the clock stops; it is made
  when every player left accepts, and withdrawn (play and the clock
  resume) as soon as one declines.
- What is dealt is the prizes of the places still to be decided (1st down
  to the number of players left) less the money left to play for, which
  comes out of the first prize and goes to the winner of the play that
  follows.  With nothing left to play for, play ends with the deal (the
  places by chips).
- ICM: each player's share is his Malmuth-Harville equity over those
  prizes (the first one less the money left to play for): a player
  finishes first with the chance his stack is of all the chips, and each
  next place likewise among those not yet placed.  Computed exactly over
  every order of finish (fractions, up to 10 players), then rounded down
  to whole units, the units left over one each to the largest remainders
  (then by player id), so the shares add up to what is dealt.
- Chip-chop: each player gets the smallest of those prizes, and what is
  left is split by chips (whole units as above).
- Custom: the director names every player's amount; they must add up to
  what is dealt.
- After a deal the places still count (they decide who wins the money
  left to play for) but pay nothing else; a player disqualified after the
  deal loses his share, which goes to the winner with the money left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from tournaments.rules import events as ev
from tournaments.rules import queries as q
from tournaments.rules.checks import whole
from tournaments.rules.errors import IllegalAction, Malformed
from tournaments.rules.payouts import Prize
from tournaments.rules.prizes import Award, award
from tournaments.rules.state import TournamentState

MAX_ICM_PLAYERS = 10
KINDS = ("icm", "chip_chop", "custom")


def icm(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's Malmuth-Harville equity in ``prizes`` (by place, best
    first; missing places pay nothing), exactly: a dynamic program over the
    sets of players already placed, each reached with the chance of the
    orders of finish that place exactly them on top."""
    n = len(stacks)
    total = sum(stacks)
    reach: dict[int, Fraction] = {0: Fraction(1)}
    equity = [Fraction(0)] * n
    chips = {0: 0}
    for place in range(n):
        prize = prizes[place] if place < len(prizes) else 0
        following: dict[int, Fraction] = {}
        for placed, chance in reach.items():
            left = total - chips[placed]
            for j in range(n):
                if placed >> j & 1 or not stacks[j]:
                    continue
                p = chance * Fraction(stacks[j], left)
                equity[j] += p * prize
                nxt = placed | 1 << j
                following[nxt] = following.get(nxt, Fraction(0)) + p
                chips[nxt] = chips[placed] + stacks[j]
        reach = following
    return equity


def whole_units(shares: Mapping[str, Fraction], total: int) -> dict[str, int]:
    """``shares`` (adding up to ``total``) in whole units: each rounded
    down, the units left over one each to the largest remainders, then by
    player id."""
    out = {p: int(s) for p, s in shares.items()}  # floor: shares are not negative
    order = sorted(shares, key=lambda p: (-(shares[p] - out[p]), p))
    for p in order[: total - sum(out.values())]:
        out[p] += 1
    return out


def dealt_prizes(state: TournamentState) -> list[int]:
    """The cash prizes of the places still to be decided, best first."""
    left = q.players_left(state)
    prizes = q.prizes(state)
    return [prizes[k].cash if k < len(prizes) else 0 for k in range(left)]


def verify_deal_possible(state: TournamentState) -> None:
    """Why no deal may be proposed now, if not."""
    if state.definition.satellite is not None:
        raise IllegalAction("a satellite's seats are never dealt: no deal")
    if len(state.tables) != 1:
        raise IllegalAction("deals are made at the final table")
    if state.hands:
        raise IllegalAction("a deal is proposed between hands")
    if not q.pool_final(state) or q.broke(state):
        raise IllegalAction("a deal waits for the pool to be final")
    if state.deal_offer is not None or state.deal is not None:
        raise IllegalAction("a deal is already offered or made")
    if q.players_left(state) > MAX_ICM_PLAYERS:
        raise IllegalAction(f"deals are for at most {MAX_ICM_PLAYERS} players")


def deal_amounts(
    state: TournamentState, kind: str, left_to_play: object, custom: object
) -> dict[str, int]:
    """Each remaining player's share of a deal of ``kind``."""
    if kind not in KINDS:
        raise Malformed(f"a deal is one of {', '.join(KINDS)}")
    prizes = dealt_prizes(state)
    if not whole(left_to_play) or not 0 <= left_to_play <= prizes[0]:  # type: ignore[operator]
        raise Malformed(f"the money left to play for is 0 to the first prize, {prizes[0]}")
    assert isinstance(left_to_play, int)
    prizes[0] -= left_to_play
    dealt = sum(prizes)
    stacks = {e.player: e.stack for e in q.alive(state)}
    players = sorted(stacks)
    if kind == "custom":
        return _custom(custom, players, dealt)
    if custom is not None:
        raise Malformed("amounts are given for a custom deal only")
    if kind == "icm":
        equity = icm([stacks[p] for p in players], prizes)
        return whole_units(dict(zip(players, equity, strict=True)), dealt)
    floor = min(prizes)
    chips = sum(stacks.values())
    rest = dealt - floor * len(players)
    shares = {p: floor + Fraction(rest * stacks[p], chips) for p in players}
    return whole_units(shares, dealt)


def _custom(custom: object, players: list[str], dealt: int) -> dict[str, int]:
    if not isinstance(custom, Mapping) or sorted(custom) != players:
        raise Malformed("a custom deal names the amount of every player left")
    if any(not whole(v) or v < 0 for v in custom.values()):
        raise Malformed("a deal's amounts are whole units, not negative")
    if sum(custom.values()) != dealt:
        raise Malformed(f"a custom deal shares out {dealt}")
    return {p: int(custom[p]) for p in players}


def awards_with_deal(state: TournamentState) -> tuple[Award, ...]:
    """The prizes once play is over after a deal: the places outside it as
    usual, each dealer his share, and the winner the money left to play for
    (and the share of a dealer disqualified since)."""
    deal = state.deal
    assert deal is not None
    dealers = {a.player: a.amount for a in deal.amounts}
    prizes = q.prizes(state)
    kept = tuple(Prize() if k < len(dealers) else p for k, p in enumerate(prizes))
    out = [a for a in award(state.standings, kept) if a.player not in dealers]
    placed = {s.player: s.place for s in state.standings}
    forfeited = sum(v for p, v in dealers.items() if p not in placed)
    top = min((placed[p], p) for p in dealers if p in placed)[1] if placed else None
    for player, amount in sorted(dealers.items()):
        if player not in placed:
            continue
        extra = deal.left_to_play + forfeited if player == top else 0
        if amount + extra:
            out.append(Award(player, placed[player], amount + extra))
    return tuple(sorted(out, key=lambda a: (a.place, a.player)))


def amounts_of(shares: Mapping[str, int]) -> tuple[ev.PlayerAmount, ...]:
    """A deal's shares as an event carries them, by player id."""
    return tuple(ev.PlayerAmount(p, v) for p, v in sorted(shares.items()))
