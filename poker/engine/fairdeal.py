"""A fair deal that shows nobody a card he did not hold or see shown.

Each hand commits to its deck at the deal, one card position at a time:
the leaves of a Merkle tree (``engine.merkle``, RFC 9162) are the salted
``(position, card)`` pairs of the deck order, top card first, and only the
root is published (``HandStarted.root``).  A reshuffle of discards commits
to the new stub the same way, as tree 1, 2, ... (``MuckReshuffled.root``),
before anyone draws from it.  A card then *opens* alone: its tree,
position, salt and audit path prove it sat at that position of the order
fixed before anyone acted, and show nothing of the other positions (their
leaves are salted with 256 secret bits each).

Who gets which opening is decided here, from the hand's full state: a
player gets those of every card dealt or drawn to him, and everyone those
of the cards turned up.  The deck order, the seed and every other salt
never leave the server, during the hand or after it.

``audit`` is the check a player runs on what he was given: every card he
got, and every card he saw shown, must open at the position the deal order
says it came from, against the root published before it was dealt.
docs/fair-deal.md describes the scheme byte by byte.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from poker.engine import merkle
from poker.engine.cards import Card, CardError, card
from poker.engine.events import Commitment, HandShown
from poker.engine.rules import VARIANTS, Game
from poker.engine.state import HandState, Receipt

# --------------------------------------------------------------------------
# Committing


def salt(seed: int, tree: int, position: int) -> bytes:
    """The secret salt of one leaf: HMAC-SHA256 keyed by the hand's seed.

    Derived rather than drawn, so the events need no more secrets than the
    seed they already hold; HMAC shows nothing of its key, so a salt opened
    tells nothing of any other.
    """
    message = f"fair-deal salt {tree} {position}".encode()
    return hmac.new(str(seed).encode(), message, hashlib.sha256).digest()


def leaf(position: int, card: Card, salt: bytes) -> bytes:
    """The leaf hash of ``card`` at ``position``: SHA-256 of 0x00, the text
    ``"<position>:<card code>:"`` and the 32 bytes of salt."""
    return merkle.leaf_hash(f"{position}:{card}:".encode() + salt)


def _leaves(seed: int, tree: int, order: tuple[Card, ...]) -> tuple[bytes, ...]:
    """The leaf hashes of one committed order, top card first."""
    return tuple(leaf(k, c, salt(seed, tree, k)) for k, c in enumerate(order))


@lru_cache(maxsize=512)
def _openers(seed: int, tree: int, order: tuple[Card, ...]) -> tuple[tuple[str, ...], ...]:
    """Each position's salt then audit path, hex: kept, since every view of
    a hand opens cards of the same few trees."""
    leaves = _leaves(seed, tree, order)
    paths = merkle.audit_paths(leaves)
    return tuple(
        (salt(seed, tree, k).hex(), *(h.hex() for h in paths[k])) for k in range(len(order))
    )


def commit(order: Sequence[Card], seed: int, tree: int) -> str:
    """The root (hex) of tree number ``tree`` over ``order``, top card first."""
    return merkle.root(_leaves(seed, tree, tuple(order))).hex()


# --------------------------------------------------------------------------
# Opening


@dataclass(frozen=True, slots=True)
class Opening:
    """The proof that ``card`` sat at place ``index`` (from the top) of
    committed tree ``tree``: the RFC's leaf index, named apart from the
    players' positions and seats."""

    tree: int
    index: int
    card: Card
    salt: str
    """The leaf's salt, hex."""
    path: tuple[str, ...]
    """The audit path, hex, leaf level first."""

    def to_json(self) -> dict[str, Any]:
        return {
            "tree": self.tree,
            "index": self.index,
            "card": str(self.card),
            "salt": self.salt,
            "path": list(self.path),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Opening:
        """An opening as ``to_json`` wrote it; ``ValueError`` if it is not one."""
        try:
            tree, index, path = data["tree"], data["index"], data["path"]
            if type(tree) is not int or type(index) is not int or not isinstance(path, list):
                raise ValueError("tree and index are whole numbers, path a list")
            return cls(tree, index, card(str(data["card"])), str(data["salt"]), tuple(path))
        except (KeyError, TypeError, CardError) as exc:
            raise ValueError(f"not an opening: {exc}") from exc

    def proves(self, root: str, size: int) -> bool:
        """Whether this opening verifies against ``root`` of a tree of ``size``."""
        try:
            salt = bytes.fromhex(self.salt)
            path = [bytes.fromhex(h) for h in self.path]
            expected = bytes.fromhex(root)
        except (ValueError, TypeError):
            return False
        mine = leaf(self.index, self.card, salt)
        return merkle.verify(mine, self.index, size, path, expected)


def _open(state: HandState, receipt: Receipt) -> Opening:
    order = state.trees[receipt.tree]
    secret, *path = _openers(state.seed, receipt.tree, order)[receipt.position]
    return Opening(receipt.tree, receipt.position, order[receipt.position], secret, tuple(path))


def _shown(state: HandState, player: int) -> list[Receipt]:
    """Where the cards ``player`` turned up came from: for each, his latest
    receipt of it (a card thrown and drawn again later came twice)."""
    held = set(state.players[player].cards)
    latest: dict[Card, Receipt] = {}
    for r in state.receipts:
        if r.player == player and (c := state.trees[r.tree][r.position]) in held:
            latest[c] = r
    return [latest[c] for c in state.players[player].cards if c in latest]


def openings(state: HandState, viewer: int | None) -> list[Opening]:
    """Every opening ``viewer`` (a position, None for a spectator) may have:
    each card ever dealt or drawn to him, then each card turned up."""
    if state.commitment is not Commitment.MERKLE:
        return []
    slots = [r for r in state.receipts if r.player == viewer]
    for i, p in enumerate(state.players):
        if p.shown and i != viewer:
            slots += _shown(state, i)
    return [_open(state, r) for r in slots]


def event_openings(state: HandState, version: int, event: Any, viewer: int | None) -> list[Opening]:
    """The openings that go with the event at ``version``, as ``viewer``
    receives it: his cards dealt or drawn by it, or the cards it turns up.
    ``state`` is the hand at ``version`` or later."""
    if state.commitment is not Commitment.MERKLE:
        return []
    if isinstance(event, HandShown):
        return [_open(state, r) for r in _shown(state, event.player)]
    return [_open(state, r) for r in state.receipts if r.version == version and r.player == viewer]


# --------------------------------------------------------------------------
# Checking


@dataclass(frozen=True)
class Audit:
    """What ``audit`` found: the cards checked and anything wrong."""

    checked: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Every card checked opens where it must (a spectator of a hand
        nobody showed has none to check)."""
        return not self.problems


_Slot = tuple[int, int]


def _deck_size(started: Mapping[str, Any]) -> int:
    return len(VARIANTS[Game(started["rules"]["game"])].deck)


def audit(
    events: Sequence[Mapping[str, Any]],
    openings: Sequence[Mapping[str, Any]],
    position: int | None,
) -> Audit:
    """Check a viewer's copy of a hand: ``events`` as he was shown them (a
    hand history's events, hidden cards left out), the ``openings`` he was
    given, and his ``position`` in the hand (None: not dealt in).

    From the public part of the events alone it works out where every card
    dealt or drawn came from (the deal order from the button, then each
    draw from the top of the latest tree); each card the viewer got must
    open at its place, in that order, and each card turned up at one of the
    places its owner drew from, against the root published before it.
    """
    try:
        return _audit(events, openings, position)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        return Audit(0, (f"not a hand history as the API gives it: {exc!r}",))


def _audit(
    events: Sequence[Mapping[str, Any]],
    openings: Sequence[Mapping[str, Any]],
    position: int | None,
) -> Audit:
    problems: list[str] = []
    roots: list[str] = []
    sizes: list[int] = []
    slots: dict[int, list[_Slot]] = {}
    wanted: list[tuple[_Slot, str, str]] = []
    """(where, card, why): the cards the viewer got, in the order he got them."""
    cursor = 0
    given = openings_by_place(openings, problems)
    n = button = 0
    for event in events:
        kind = event.get("type")
        if kind != "hand.started" and not roots:
            return Audit(0, ("the history does not begin with hand.started",))
        if kind == "hand.started":
            if event.get("commitment", Commitment.MERKLE.value) != Commitment.MERKLE.value:
                return Audit(0, ("the hand was dealt before cards were committed one by one",))
            n, button = len(event["players"]), int(event["button"])
            roots.append(str(event["root"]))
            sizes.append(_deck_size(event))
        elif kind == "hand.cards_dealt":
            counts = event["counts"]
            for i, count in enumerate(counts):
                first = (i - button - 1) % n
                slots[i] = [(0, first + j * n) for j in range(count)]
            cursor = sum(counts)
            if position is not None:
                mine = event["hands"][position]
                wanted += [
                    (w, c, "dealt to you") for w, c in zip(slots[position], mine, strict=True)
                ]
        elif kind == "hand.muck_reshuffled":
            roots.append(str(event["root"]))
            sizes.append(int(event["count"]))
            cursor = 0
        elif kind == "hand.cards_drawn":
            drawn = event.get("cards")
            count = len(drawn) if drawn is not None else int(event["count"])
            got = [(len(roots) - 1, cursor + k) for k in range(count)]
            cursor += count
            slots.setdefault(int(event["player"]), []).extend(got)
            if drawn is not None:
                wanted += [(where, c, "drawn by you") for where, c in zip(got, drawn, strict=True)]
        elif kind == "hand.shown":
            owner = int(event["player"])
            theirs = {where: given[where] for where in slots.get(owner, []) if where in given}
            for c in event["cards"]:
                match = [w for w, o in theirs.items() if str(o.card) == c]
                if match:
                    wanted.append((match[-1], c, f"shown by player {owner}"))
                else:
                    problems.append(f"{c} shown by player {owner} opens at none of his places")
    if not roots:
        return Audit(0, ("the history holds no hand.started event",))
    return check_openings(wanted, given, roots, sizes, problems)


def openings_by_place(
    openings: Sequence[Mapping[str, Any]], problems: list[str]
) -> dict[_Slot, Opening]:
    """A viewer's openings by their (tree, position); one that does not
    parse is a problem, not an exception.  (Shared by the casino's audit.)"""
    given: dict[_Slot, Opening] = {}
    for raw in openings:
        try:
            opened = Opening.from_json(raw)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        given[(opened.tree, opened.index)] = opened
    return given


def check_openings(
    wanted: Sequence[tuple[_Slot, str, str]],
    given: Mapping[_Slot, Opening],
    roots: Sequence[str],
    sizes: Sequence[int],
    problems: list[str],
) -> Audit:
    """Each (where, card, why) ``wanted`` must have an opening at its place
    showing that card and proving it against its tree's root: the audit's
    verdict, after the ``problems`` found before.  (Shared by the casino's.)"""
    checked = 0
    for where, c, why in wanted:
        found = given.get(where)
        tree, at = where
        if found is None:
            problems.append(f"{c} ({why}) has no opening at tree {tree} position {at}")
        elif str(found.card) != c:
            problems.append(f"{c} ({why}) but tree {tree} position {at} opens as {found.card}")
        elif not found.proves(roots[tree], sizes[tree]):
            problems.append(f"{c} ({why}) does not open at tree {tree} position {at}")
        else:
            checked += 1
    return Audit(checked, tuple(problems))
