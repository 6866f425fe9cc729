"""The fair deal of a casino round: the pot hands' scheme (``engine.fairdeal``,
docs/fair-deal.md) over the round's deck.

Tree 0 is the deck order of ``RoundStarted`` (top card first), tree k the
cards of the k-th ``DiscardsReshuffled`` (they go under what is left of the
stub, so they are drawn after it), each leaf salted from the round's seed.
The roots are published with the events that fix the orders (``roots``);
the stored events keep the orders and the seed, which never leave the
server.

Where each card comes from is a public fact: the deal goes one card at a
time to each box in seat order, then to the dealer, five times (box i of n
gets positions i, i + n + 1, ...; the dealer n, 2n + 1, ...); every draw,
a box's or the dealer's, takes the next places of the stub.  So ``trace``
(from the full events, on the server) and ``audit`` (from a viewer's copy)
agree on every card's place.

Who gets which opening: a box, those of every card dealt or drawn to it;
everyone, those of the dealer's cards once he has turned them up (the
cards he was dealt, with ``DealerRevealed``; the cards he drew, with
``DealerExchanged``).  Nobody ever gets another box's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from poker.engine.cards import Card
from poker.engine.casino.events import (
    CardsDealt,
    CardsDrawn,
    CasinoEvent,
    DealerExchanged,
    DealerRevealed,
    DiscardsReshuffled,
    RoundStarted,
)
from poker.engine.casino.rules import HAND_SIZE
from poker.engine.fairdeal import (
    Audit,
    Opening,
    _openers,
    check_openings,
    commit,
    openings_by_place,
)

DEALER = -1
"""The owner of the dealer's cards in a trace (boxes are 0, 1, ...)."""

Slot = tuple[int, int]
"""(tree, index): where a card sat in a committed order."""


@dataclass
class Trace:
    """Where every card of a round came from, from its full events."""

    seed: int = 0
    trees: list[tuple[Card, ...]] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)
    receipts: list[tuple[int, int, Slot]] = field(default_factory=list)
    """(version, owner, slot) of each card dealt or drawn."""
    revealed: int | None = None
    """The version at which the dealer turned his cards up."""
    rooted: dict[int, int] = field(default_factory=dict)
    """The version of each event that fixed an order: its tree."""

    def commitment(self, version: int) -> dict[str, Any]:
        """What the event at ``version`` publishes of the order it fixes
        (``root`` and ``count``, the tree's size), if it fixes one."""
        tree = self.rooted.get(version)
        if tree is None:
            return {}
        return {"root": self.roots[tree], "count": len(self.trees[tree])}

    def open(self, slot: Slot) -> Opening:
        tree, index = slot
        order = self.trees[tree]
        secret, *path = _openers(self.seed, tree, order)[index]
        return Opening(tree, index, order[index], secret, tuple(path))

    def openings(self, viewer: int | None, upto: int | None = None) -> list[Opening]:
        """Every opening ``viewer`` (a box position, None: a spectator) may
        have of the events up to version ``upto`` (all: None)."""
        out = []
        for version, owner, slot in self.receipts:
            if upto is not None and version > upto:
                continue
            shown = self.revealed is not None and (upto is None or self.revealed <= upto)
            if (owner == viewer and viewer is not None) or (owner == DEALER and shown):
                out.append(self.open(slot))
        return out

    def event_openings(self, version: int, event: CasinoEvent, viewer: int | None) -> list[Opening]:
        """The openings that go with the event at ``version`` as ``viewer``
        receives it: his cards dealt or drawn by it, or the dealer's turned up."""
        if isinstance(event, DealerRevealed):
            dealt = [s for v, o, s in self.receipts if o == DEALER and v < version]
            return [self.open(s) for s in dealt]
        if isinstance(event, DealerExchanged):
            return [self.open(s) for v, o, s in self.receipts if v == version and o == DEALER]
        if viewer is None:
            return []
        return [self.open(s) for v, o, s in self.receipts if v == version and o == viewer]


def trace(events: Sequence[CasinoEvent]) -> Trace:
    """The trees, roots and every card's place, from a round's full events."""
    out = Trace()
    stub: list[Slot] = []
    for version, event in enumerate(events, start=1):
        if isinstance(event, RoundStarted):
            out.seed = event.seed
            _tree(out, stub, event.deck, version)
        elif isinstance(event, CardsDealt):
            n = len(event.hands)
            for _ in range(HAND_SIZE):
                for i in range(n + 1):
                    out.receipts.append((version, DEALER if i == n else i, stub.pop(0)))
        elif isinstance(event, DiscardsReshuffled):
            _tree(out, stub, event.cards, version)
        elif isinstance(event, CardsDrawn):
            out.receipts += [(version, event.box, stub.pop(0)) for _ in event.cards]
        elif isinstance(event, DealerExchanged):
            out.receipts += [(version, DEALER, stub.pop(0)) for _ in event.drawn]
        elif isinstance(event, DealerRevealed):
            out.revealed = version
    return out


def _tree(out: Trace, stub: list[Slot], order: tuple[Card, ...], version: int) -> None:
    tree = len(out.trees)
    out.rooted[version] = tree
    out.trees.append(order)
    out.roots.append(commit(order, out.seed, tree))
    stub += [(tree, k) for k in range(len(order))]


# --------------------------------------------------------------------------
# Checking


def audit(
    events: Sequence[Mapping[str, Any]],
    openings: Sequence[Mapping[str, Any]],
    box: int | None,
) -> Audit:
    """Check a viewer's copy of a round: ``events`` as he was shown them
    (``casino.round_started`` and ``casino.discards_reshuffled`` with their
    ``root`` and ``count``), the ``openings`` he was given, and his box's
    position in the round (None: a spectator).  Each card he got, and each
    card of the dealer's once turned up, must open at the place the deal
    order says it came from, against the root published before it."""
    try:
        return _audit(events, openings, box)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        return Audit(0, (f"not a round history as the API gives it: {exc!r}",))


def _audit(
    events: Sequence[Mapping[str, Any]],
    openings: Sequence[Mapping[str, Any]],
    box: int | None,
) -> Audit:
    problems: list[str] = []
    given = openings_by_place(openings, problems)
    roots: list[str] = []
    sizes: list[int] = []
    stub: list[Slot] = []
    wanted: list[tuple[Slot, str, str]] = []
    dealer: list[Slot] = []
    for event in events:
        kind = event.get("type")
        if kind != "casino.round_started" and not roots:
            return Audit(0, ("the history does not begin with casino.round_started",))
        if kind in ("casino.round_started", "casino.discards_reshuffled"):
            stub += [(len(roots), k) for k in range(int(event["count"]))]
            roots.append(str(event["root"]))
            sizes.append(int(event["count"]))
        elif kind == "casino.cards_dealt":
            n = len(event["counts"])
            dealt: list[list[Slot]] = [[] for _ in range(n + 1)]
            for _ in range(HAND_SIZE):
                for i in range(n + 1):
                    dealt[i].append(stub.pop(0))
            dealer += dealt[n]
            if box is not None:
                mine = event["hands"][box]
                wanted += [(w, c, "dealt to you") for w, c in zip(dealt[box], mine, strict=True)]
        elif kind == "casino.cards_drawn":
            drawn = event.get("cards")
            count = len(drawn) if drawn is not None else int(event["count"])
            got = [stub.pop(0) for _ in range(count)]
            if drawn is not None:
                wanted += [(w, c, "drawn by you") for w, c in zip(got, drawn, strict=True)]
        elif kind == "casino.dealer_revealed":
            wanted += [(w, c, "the dealer's") for w, c in zip(dealer, event["cards"], strict=True)]
        elif kind == "casino.dealer_exchanged":
            got = [stub.pop(0) for _ in event["drawn"]]
            wanted += [
                (w, c, "drawn by the dealer") for w, c in zip(got, event["drawn"], strict=True)
            ]
    if not roots:
        return Audit(0, ("the history holds no casino.round_started event",))
    return check_openings(wanted, given, roots, sizes, problems)
