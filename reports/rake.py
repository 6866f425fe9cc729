"""Who paid the rake: each raked hand's rake shared among the players who
put chips into the pots it came from ("contributed" rake).

A card room attributes the rake one of two ways: "dealt" (each hand's rake
split evenly among everyone dealt in) or "contributed" (each pot's rake
shared among the players who put chips into that pot, in proportion to
their chips in it).  Contributed is the fairer and the one used here: the
hand's events say what each player put in (blinds, antes, calls, bets and
raises, less a bet returned uncalled), the pots are layered from those
totals as the engine layers them when it rakes (``engine.showdown.pots``),
and ``hand.raked`` says the chips taken from each pot.  A player who folded
after putting chips into a pot pays his part of its rake; one who put
nothing in pays nothing.

The shares are whole chips that add up to each pot's rake exactly: each
contributor gets his proportional share rounded down, and the chips left
over go one each to the largest remainders, a tie to the seat first
clockwise from the button (the order odd chips are dealt in, RULES.md 1).

No read model keeps a hand's contributions, so the raked hands are folded
here: one query reads every event of the hands that ended in the period
and were raked (a hand's rake moves to the house's account in the command
that ends it), whatever their number, and only those hands are folded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import groupby

from django.db.models import F, Value
from django.db.models.functions import Concat

from kernel.eventstore import FIELDS, Recorded, recorded
from kernel.models import Event
from poker.engine.events import EVENT_TYPES, HandRaked
from poker.engine.evolve import evolve
from poker.engine.state import HandState
from poker.models import Hand
from poker.streams import decode_hand
from poker.upcast import HANDS
from reports.period import Period

RAKED = sorted(HANDS.stored_names(next(k for k, v in EVENT_TYPES.items() if v is HandRaked)))
"""Every name a hand's rake event may be stored under."""


def rake_paid(*, period: Period) -> dict[int, int]:
    """Each player's part (by id) of the rake of the hands that ended in
    ``period``, as the module says; players named otherwise (hand scripts)
    are left out."""
    hands = (
        Hand.objects.filter(period.during("ended_at"))
        .annotate(name=Concat(Value("hand-"), F("id")))
        .values("name")
    )
    raked = Event.objects.filter(type__in=RAKED, stream__in=hands).values("stream")
    rows = Event.objects.filter(stream__in=raked).order_by("stream", "version").only(*FIELDS)
    paid: dict[int, int] = defaultdict(int)
    for _, events in groupby(recorded(rows, positions=False), key=lambda r: r.stream):
        for player, chips in hand_rake(events).items():
            if player.isdigit():
                paid[int(player)] += chips
    return dict(paid)


def hand_rake(events: Iterable[Recorded]) -> dict[str, int]:
    """Each player's part (by name) of one hand's rake: nothing if the
    hand was not raked."""
    state: HandState | None = None
    for row in events:
        event = decode_hand(row)
        if isinstance(event, HandRaked) and state is not None:
            return _shares(state, event)
        state = evolve(state, event)
    return {}


def _shares(state: HandState, raked: HandRaked) -> dict[str, int]:
    """The rake of each pot of ``state`` (the hand as it was raked) shared
    among the pot's contributors."""
    players = state.players
    n = len(players)
    order = [(k - state.button - 1) % n for k in range(n)]  # clockwise from the button
    out: dict[str, int] = defaultdict(int)
    for chips, taken in zip(pot_contributions(state), raked.pots, strict=True):
        for i, share in enumerate(share_out(taken, chips, order)):
            if share:
                out[players[i].name] += share
    return dict(out)


def pot_contributions(state: HandState) -> list[list[int]]:
    """Each pot's chips by player (``[pot][position]``), the pots as
    ``engine.showdown.pots`` makes them (``engine.pots.build_pots``): each
    contending player's total closes a layer, a folded player's chips
    fall into the layers they reach and any above them into the last,
    dead money into the main pot."""
    totals = [p.total for p in state.players]
    dead = [p.dead for p in state.players]
    contesting = [i for i, p in enumerate(state.players) if not p.folded]
    layers: list[list[int]] = []
    floor = 0
    for level in sorted({totals[i] for i in contesting if totals[i] > 0}):
        layers.append([min(t, level) - min(t, floor) for t in totals])
        floor = level
    above = [t - min(t, floor) for t in totals]
    if not layers:
        return [[a + d for a, d in zip(above, dead, strict=True)]] if any(above + dead) else []
    layers[-1] = [c + a for c, a in zip(layers[-1], above, strict=True)]
    layers[0] = [c + d for c, d in zip(layers[0], dead, strict=True)]
    return layers


def share_out(amount: int, weights: Sequence[int], order: Sequence[int]) -> list[int]:
    """``amount`` in whole chips in proportion to ``weights``, summing to it
    exactly: each share rounded down, then one chip each to the largest
    remainders, a tie to the one earlier in ``order`` (positions ranked:
    ``order[i]`` is position i's rank)."""
    whole = sum(weights)
    if not amount:
        return [0] * len(weights)
    if whole <= 0:
        raise ValueError("a raked pot has chips in it")
    shares = [amount * w // whole for w in weights]
    left = amount - sum(shares)
    ranked = sorted(
        (i for i, w in enumerate(weights) if w),
        key=lambda i: (-(amount * weights[i] % whole), order[i]),
    )
    for i in ranked[:left]:
        shares[i] += 1
    return shares
