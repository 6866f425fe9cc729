"""Who is dealt in to the next hand, where the button and blinds go, who posts.

``plan_hand(state)`` answers with a ``HandPlan`` (everything for the hand
engine's ``Deal`` but the deck and seed), ``began(plan, number)`` is the
``HandBegan`` event it stands for.  ``dealt_in(state)`` tells each seat
when these rules will deal him in, for the table view.

Rules chosen (RULES.md 1, TDA dead button, Robert's Rules where both are
silent):

- Moving blinds: the big blind advances exactly one seat each hand, to the
  next seat clockwise whose player is ready (has chips, is not sitting out or
  leaving), whatever he owes: nobody posts the big blind twice in a row and
  nobody skips it.  The small blind is due in the seat of the last big blind:
  it is dead when that player is no longer there or not dealt in.  The
  button goes to the seat of the last small blind, and is dead when nobody is
  dealt in there.
- 32 Card Draw with 4-5 players dealt in: the over blind is posted by the
  next player dealt in left of the big blind (so it advances like the big
  blind).
- Heads-up (two dealt in): the big blind advances as always and the player
  on it is the dealer; the other posts the small blind.  No dead small blind
  or dead button heads-up: the button moves onto the big blind (TDA).  Coming
  back from heads-up, when the last small blind's seat is not between the
  big and the small blind, the button goes to the last player dealt in
  before the small blind.
- The first hand of a table: the button on the lowest-numbered ready seat
  (a tournament table after a seat draw: the drawn button's seat, or the
  first ready seat after it), the blinds (and the over blind) on the next
  ready seats, everyone ready dealt in, no posts.
- New players and players who missed blinds: dealt in at once with a post
  (``entry_post``), except while their seat is between the button and the
  small blind, both included (Robert's Rules: no entry between the small
  blind and the button; they come in once the button has passed).  A player
  who waits for the big blind is dealt in when it reaches his seat.  A
  player in the blind positions posts his blind and nothing else; being
  dealt in settles everything he owed.
- Should these rules leave fewer than two players dealt in while two or more
  are ready (say one regular and one waiting for the big blind), the table
  restarts around the big blind rather than stall: everyone ready is dealt
  in, the big blind still advances one seat, the small blind and the button
  are on the players dealt in just before it, and those who owe post.

Tournament tables (RULES.md 6, TDA) move the button and blinds the same
way, with these differences:

- Everyone with chips is ready, sitting out or not (he is blinded off), and
  nobody ever posts: no missed blinds, no entry posts, no waiting for the
  big blind.
- A player who arrives (moved from another table, a late entry) or comes
  back from no chips (a rebuy) is dealt in at once wherever he sits, on
  the button or in a blind included, except strictly between the button
  and the small blind (TDA: "dealt in except between the small blind and
  button"): he waits until the button has passed.  Regulars are never
  there, so the rule needs no memory of who is new.
- The blinds and ante are the level's the tournament gives (``Stakes``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum, unique

from poker.engine.cards import Card
from poker.engine.commands import BlindPlan, Deal, Post
from poker.engine.events import Blind
from poker.engine.rake import Rake
from poker.engine.rules import Rules
from poker.engine.table.config import Stakes
from poker.engine.table.events import HandBegan, SeatPost
from poker.engine.table.ring import first_after, from_up_to, last_before, strictly_between
from poker.engine.table.state import SeatState, TableState


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The next hand, in the hand engine's terms.

    ``seats`` are the seats dealt in, in increasing seat number, and
    ``players`` their (player id, stack) in the same order; ``button``,
    ``blinds`` and ``posts`` are indexes into them.  ``button`` is the player
    on the button, or with ``button_dead`` the player just before the empty
    button seat ``button_seat``.  ``stakes``: the blinds and ante of a
    tournament hand (its level); None: the table's own.
    """

    seats: tuple[int, ...]
    players: tuple[tuple[str, int], ...]
    button: int
    button_seat: int
    button_dead: bool
    blinds: BlindPlan
    posts: tuple[Post, ...] = ()
    stakes: Stakes | None = None

    def to_deal(
        self, rules: Rules, deck: tuple[Card, ...], seed: int, rake: Rake | None = None
    ) -> Deal:
        """The hand engine's ``Deal`` for this plan."""
        return to_deal(self, rules, deck, seed, rake)


def to_deal(
    plan: HandPlan, rules: Rules, deck: tuple[Card, ...], seed: int, rake: Rake | None = None
) -> Deal:
    """The hand engine's ``Deal`` for ``plan`` with the table's rules
    (``config.rules``), at the plan's stakes when it has its own, and the
    table's rake (``config.rake``)."""
    if plan.stakes is not None:
        rules = plan.stakes.apply(rules)
    return Deal(
        rules,
        plan.players,
        plan.button,
        deck,
        seed,
        button_dead=plan.button_dead,
        blinds=plan.blinds,
        posts=plan.posts,
        rake=rake,
    )


def began(plan: HandPlan, number: int) -> HandBegan:
    """The ``HandBegan`` event of ``plan`` as hand ``number``."""
    seats = plan.seats
    small, over = plan.blinds.small, plan.blinds.over
    return HandBegan(
        number=number,
        button=plan.button_seat,
        dealt_in=seats,
        small=None if small is None else seats[small],
        big=seats[plan.blinds.big],
        over=None if over is None else seats[over],
        posts=tuple(SeatPost(seats[p.player], p.live, p.dead) for p in plan.posts),
        button_dead=plan.button_dead,
        stakes=plan.stakes,
    )


@dataclass(frozen=True, slots=True)
class _Layout:
    dealt: frozenset[int]
    button: int
    small: int | None
    big: int
    over: int | None = None
    free: bool = False
    """The table's first hand: nobody posts."""


def plan_hand(state: TableState, rules: Rules | None = None) -> HandPlan | None:
    """The next hand; None while a hand runs, when the table is closed, or
    when fewer than two players are ready.

    ``rules``: a tournament table's level, as ``StartHand`` gives it (None:
    the stakes in force); ``Malformed`` if it changes more than the blinds
    and ante.  A cash table ignores it and deals its own rules.
    """
    if state.closed or state.closing or state.hand_running:
        return None
    ready = state.dealable
    if len(ready) < 2:
        return None
    stakes = _stakes(state, rules)
    layout = _first_hand(state, ready) if state.big is None else _next_hand(state, ready)
    return _plan(state, layout, stakes)


def _stakes(state: TableState, rules: Rules | None) -> Stakes | None:
    """A tournament hand's stakes, always recorded; None at a cash table."""
    if not state.config.is_tournament:
        return None
    if rules is None:
        return Stakes.of(state.rules)
    return state.config.level_stakes(rules)


def entry_post(rules: Rules, seat: SeatState, largest: int) -> tuple[int, int]:
    """(live, dead) a new or returning player posts to be dealt in at once.

    ``largest`` is the hand's largest blind (the over blind if posted, else
    the big blind).  A new player posts the largest blind.  A returning
    player (RULES.md 1) posts the largest blind he missed live, at least a
    big blind (missed small blind: a big blind) and at most the hand's
    largest blind (no live post above the blind the others must call), plus
    the other blinds he missed dead: missed small and big: a big blind plus
    a dead small blind; all three: an over blind plus a dead small and big
    blind.
    """
    if seat.new:
        return largest, 0
    amounts = {
        Blind.SMALL: rules.small_blind,
        Blind.BIG: rules.big_blind,
        Blind.OVER: 2 * rules.big_blind,
    }
    owed = [amounts[b] for b in seat.missed]
    if not owed:
        return 0, 0
    top = max(owed)
    return min(max(rules.big_blind, top), largest), sum(owed) - top


def _first_hand(state: TableState, ready: frozenset[int]) -> _Layout:
    n, drawn = state.config.seats, state.button
    # From the drawn button (the first ready seat from it), else the lowest seat.
    order = sorted(ready, key=lambda s: s if drawn is None else (s - drawn) % n)
    if len(order) == 2:
        return _Layout(ready, button=order[0], small=order[1], big=order[0], free=True)
    over = order[3] if state.config.rules.over_blind(len(order)) else None
    return _Layout(ready, order[0], order[1], order[2], over, free=True)


def _next_hand(state: TableState, ready: frozenset[int]) -> _Layout:
    n = state.config.seats
    assert state.big is not None
    small = state.big  # the small blind is due where the big blind was
    big = first_after(ready, small, n)
    assert big is not None
    last_small = state.small
    # Where the button is due: the last small blind's seat, or (coming back
    # from heads-up) the last ready seat before the small blind.
    if last_small is not None and strictly_between(last_small, big, small, n):
        due = last_small
    else:
        due = last_before(ready - {big, small}, small, n) or small
    dealt = frozenset(number for number in ready if _deals_in(state, number, due, small, big))
    if len(dealt) < 2:
        return _restart(state, ready, big)
    if len(dealt) == 2:
        (other,) = dealt - {big}
        return _Layout(dealt, button=big, small=other, big=big)
    # Nobody dealt in may sit between the button and the small blind.
    last_dealt = last_before(dealt - {big, small}, small, n)
    assert last_dealt is not None
    button = due if from_up_to(due, last_dealt, small, n) and due != small else last_dealt
    return _Layout(
        dealt,
        button=button,
        small=small if small in dealt else None,
        big=big,
        over=_over(state, dealt, big),
    )


def _deals_in(state: TableState, number: int, due: int, small: int, big: int) -> bool:
    """Whether the ready player in ``number`` is dealt in, the button due in
    ``due`` and the blinds in ``small`` and ``big``."""
    n = state.config.seats
    if state.config.is_tournament:
        return not strictly_between(number, due, small, n)
    seat = state.seats[number]
    return (
        number == big
        or seat.regular
        or (not seat.waiting and not from_up_to(number, due, small, n))
    )


def _restart(state: TableState, ready: frozenset[int], big: int) -> _Layout:
    n = state.config.seats
    small = last_before(ready - {big}, big, n)
    assert small is not None
    if len(ready) == 2:
        return _Layout(ready, button=big, small=small, big=big)
    button = last_before(ready - {big, small}, small, n)
    assert button is not None
    return _Layout(ready, button, small, big, _over(state, ready, big))


def _over(state: TableState, dealt: frozenset[int], big: int) -> int | None:
    if not state.config.rules.over_blind(len(dealt)):
        return None
    return first_after(dealt, big, state.config.seats)


def _plan(state: TableState, layout: _Layout, stakes: Stakes | None) -> HandPlan:
    rules, n = state.config.rules, state.config.seats
    seats = tuple(sorted(layout.dealt))
    index = {seat: i for i, seat in enumerate(seats)}
    button_dead = layout.button not in layout.dealt
    holder = last_before(layout.dealt, layout.button, n) if button_dead else layout.button
    assert holder is not None
    blinds = {layout.small, layout.big, layout.over}
    largest = 2 * rules.big_blind if layout.over is not None else rules.big_blind
    posts = []
    if not layout.free and not state.config.is_tournament:
        for seat in seats:
            if seat in blinds:
                continue
            live, dead = entry_post(rules, state.seats[seat], largest)
            if live or dead:
                posts.append(Post(index[seat], live, dead))
    return HandPlan(
        seats=seats,
        players=tuple((state.seats[s].player, state.seats[s].stack) for s in seats),
        button=index[holder],
        button_seat=layout.button,
        button_dead=button_dead,
        blinds=BlindPlan(
            small=None if layout.small is None else index[layout.small],
            big=index[layout.big],
            over=None if layout.over is None else index[layout.over],
        ),
        posts=tuple(posts),
        stakes=stakes,
    )


@unique
class DealtIn(StrEnum):
    """When the player in a seat will be dealt in, as the table stands."""

    NEXT_HAND = "next_hand"
    """The next hand deals him in (posting what he owes, if anything)."""
    AT_BIG_BLIND = "at_big_blind"
    """He waits for the big blind, and the next hand does not bring it to
    his seat."""
    AFTER_BUTTON = "after_button"
    """His seat is between the button and the small blind of the next hand
    (no entry there): he is dealt in once the button has passed."""


def dealt_in(state: TableState) -> dict[int, DealtIn]:
    """When each seat is dealt in, from the plan of the next hand as the
    table stands (during a hand: as if it ended now, with the stacks it
    began with and those leaving gone).  A seat left out is not dealt in
    at all for now: its player sits out, leaves or has no chips, or no hand
    is in sight (fewer than two players ready, the table closing).  A
    prediction, not a promise: a player who busts or sits down changes
    the next hand's layout."""
    upcoming = replace(state, hand_running=False)
    plan = plan_hand(upcoming)
    if plan is None:
        return {}
    return {
        number: DealtIn.NEXT_HAND
        if number in plan.seats
        else DealtIn.AT_BIG_BLIND
        if state.seats[number].waiting
        else DealtIn.AFTER_BUTTON
        for number in upcoming.dealable
    }
