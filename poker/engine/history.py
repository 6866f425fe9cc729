"""Hand histories in PHH, the TOML "Poker Hand History" format PokerKit reads.

``to_phh(events, viewer)`` writes one hand (finished or still running) as
PHH text for one viewer; ``to_phh_unredacted(events)`` is the operator's
copy with every card.  Both are pure functions of the engine's events.
docs/hand-histories.md describes the output and the 32 Card Draw extension.

Players.  PHH player ``p1`` is the first player left of the button, then
clockwise; the player on the button is the last one (PokerKit's convention,
RULES.md section 7: its index 0 is the small blind).  Our position ``i``
becomes PHH index ``(i - button - 1) mod n``.  Heads-up, PHH assigns the
``antes`` and ``blinds_or_straddles`` arrays in reverse (player 1 posts the
second entry), so they are written reversed: p1, the non-dealer, still
posts our small blind.

Hidden cards.  A viewer (a position) sees his own cards and the cards
turned up at showdown; every other card is written ``??``, one per card,
so only card counts are known (the PHH convention for unknown cards).  The
public history (``viewer=None``) holds the shown cards only.  Nothing else
hidden is ever written: not the deck order, the seed, the stub, the
discards of other players, nor the cards of a reshuffle.

Variants.  The code is the betting structure (``F``, ``P``, ``N``) followed
by the game (``2L1D``, ``2L3D``, ``5CD``, ``5C3D``, ``A5L1D``, ``A5L3D``,
``32CD``).  Only ``N2L1D`` and ``F2L3D`` are PHH/PokerKit variants
(``POKERKIT_VARIANTS``); the other codes are ours, in the same pattern:
``HandHistory.loads`` reads them, but PokerKit cannot build a game or
replay them.  Every history also carries the user-defined fields
``_game``, ``_betting`` and ``_view`` (the PHH specification reserves names
starting with ``_`` for that; PokerKit keeps them in
``user_defined_fields``), and 32 Card Draw adds its own.

Draws.  The engine deals a player's replacements as soon as he discards;
PHH (like PokerKit) has every player stand pat or discard (``pN sd``)
before the dealer deals the replacements (``d dh``), so each draw is
written that way: its discards first, then the deals in the same order.  A
history cut in the middle of a draw holds the deals so far at its end, and
PokerKit cannot replay it until the draw is over.

What PHH cannot express is written as standalone commentary actions
(``"# p2 parole"``, a PHH no-op) or TOML comments (betting rounds, draws,
uncalled bets, reshuffles, pots), so the ``actions`` array stays valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from poker.engine.cards import Card
from poker.engine.errors import Malformed
from poker.engine.events import (
    AntePosted,
    BetPlaced,
    BetReturned,
    BettingStarted,
    Blind,
    BlindPosted,
    Called,
    CardsDealt,
    CardsDrawn,
    Checked,
    Discarded,
    DrawStarted,
    Event,
    Folded,
    HandEnded,
    HandMucked,
    HandRaked,
    HandShown,
    HandStarted,
    MuckReshuffled,
    ParoleAccepted,
    ParoleDeclined,
    ParoleOffered,
    PotAwarded,
    Raised,
    ShowdownStarted,
    from_json,
)
from poker.engine.evolve import replay
from poker.engine.rules import AnteBy, Betting, Game, Rules, TieBreak

STRUCTURE_CODES: Final[Mapping[Betting, str]] = {
    Betting.FIXED_LIMIT: "F",
    Betting.POT_LIMIT: "P",
    Betting.NO_LIMIT: "N",
}
"""The first letter of a variant code, as in PHH's ``NT``, ``FT``, ``PO``."""

GAME_CODES: Final[Mapping[Game, str]] = {
    Game.DEUCE_TO_SEVEN_SINGLE_DRAW: "2L1D",
    Game.DEUCE_TO_SEVEN_TRIPLE_DRAW: "2L3D",
    Game.FIVE_CARD_DRAW: "5CD",
    Game.FIVE_CARD_TRIPLE_DRAW: "5C3D",
    Game.ACE_TO_FIVE_SINGLE_DRAW: "A5L1D",
    Game.ACE_TO_FIVE_TRIPLE_DRAW: "A5L3D",
    Game.THIRTY_TWO_CARD_DRAW: "32CD",
}
"""The rest of the code: PHH's ``2L1D``/``2L3D`` pattern, extended (the
digit before ``D`` counts the draws; ``5CD`` keeps its single-draw name)."""

POKERKIT_VARIANTS: Final = frozenset({"N2L1D", "F2L3D"})
"""The codes among ours that PHH defines and PokerKit 0.7.7 can replay."""

UNKNOWN_CARD: Final = "??"
"""A card the viewer may not see (PHH notation)."""

THIRTY_TWO_DECK_RANKS: Final = "789TJQKA"
"""``_deck_ranks`` of 32 Card Draw: the ranks dealt, in all four suits."""

SUIT_ORDER: Final = "hdcs"
"""``_suit_order`` of 32 Card Draw: the tie-break suits, highest first."""


def variant_code(rules: Rules) -> str:
    """The PHH ``variant`` of a table: structure letter, then the game."""
    return STRUCTURE_CODES[rules.betting] + GAME_CODES[rules.game]


def to_phh(
    events: Iterable[Event | Mapping[str, Any]],
    viewer: int | None = None,
    *,
    hand_id: str | None = None,
    table: str | None = None,
    seats: Sequence[int] | None = None,
    seat_count: int | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """The hand as PHH text for ``viewer`` (a position), or the public
    history (``None``): the viewer's own cards and the cards shown at
    showdown, every other card ``??``.

    ``events`` are the engine's events of one hand from ``HandStarted``
    on (objects or their ``to_json`` form); the hand may still be running.
    ``hand_id`` and ``table`` fill PHH's ``hand`` and ``table`` fields;
    ``seats`` (each position's seat number) and ``seat_count`` its
    ``seats`` and ``seat_count``; ``names`` (by position) its ``players``,
    instead of the engine's player names.
    """
    if viewer is not None and (type(viewer) is not int or viewer < 0):
        raise Malformed(f"a viewer is a position, not {viewer!r}")
    header = Header(hand_id, table, seats, seat_count, names)
    return _export(_decode(events), viewer, False, header)


def to_phh_unredacted(
    events: Iterable[Event | Mapping[str, Any]],
    *,
    hand_id: str | None = None,
    table: str | None = None,
) -> str:
    """The operator's history: as ``to_phh`` but with every player's cards,
    dealt, discarded and drawn.  Never for players or spectators."""
    return _export(_decode(events), None, True, Header(hand_id, table))


def _decode(events: Iterable[Event | Mapping[str, Any]]) -> list[Event]:
    return [from_json(dict(e)) if isinstance(e, Mapping) else e for e in events]


# --------------------------------------------------------------------------
# Building the fields


@dataclass(frozen=True)
class Header:
    """What a service knows of a hand beyond its events (``to_phh``)."""

    hand_id: str | None = None
    table: str | None = None
    seats: Sequence[int] | None = None
    """Each position's seat number."""
    seat_count: int | None = None
    names: Sequence[str] | None = None
    """Each position's name for people (else the engine's player names)."""


@dataclass
class _Line:
    """One entry of the ``actions`` array, or a TOML comment between them."""

    text: str
    comment: bool = False


@dataclass
class _Writer:
    """The state of one export: who sees what, and the lines so far."""

    start: HandStarted
    viewer: int | None
    reveal_all: bool
    lines: list[_Line] = field(default_factory=list)
    drawn: dict[int, list[Card]] = field(default_factory=dict)
    """Replacements dealt in the current draw, by position, not yet written."""

    @property
    def n(self) -> int:
        return len(self.start.players)

    def order(self) -> list[int]:
        """Our positions in PHH order: ``order()[k]`` is PHH player k + 1."""
        first = self.start.button + 1
        return [(first + k) % self.n for k in range(self.n)]

    def label(self, position: int) -> str:
        """PHH's name of a position: ``p1`` is left of the button."""
        return f"p{(position - self.start.button - 1) % self.n + 1}"

    def cards(self, position: int, cards: Sequence[Card]) -> str:
        """Card codes as the viewer may see them (``??`` when hidden)."""
        if self.reveal_all or position == self.viewer:
            return "".join(str(c) for c in cards)
        return UNKNOWN_CARD * len(cards)

    def act(self, text: str, timed_out: bool = False) -> None:
        self.lines.append(_Line(f"{text} # timed out" if timed_out else text))

    def note(self, text: str) -> None:
        self.lines.append(_Line(text, comment=True))

    def flush_draws(self) -> None:
        """Deal the draw's replacements, in the order the players drew."""
        for position, cards in self.drawn.items():
            self.act(f"d dh {self.label(position)} {self.cards(position, cards)}")
        self.drawn.clear()


def _export(
    events: list[Event],
    viewer: int | None,
    reveal_all: bool,
    header: Header,
) -> str:
    if not events or not isinstance(events[0], HandStarted):
        raise Malformed("a hand history starts with HandStarted")
    start = events[0]
    if any(isinstance(e, HandStarted) for e in events[1:]):
        raise Malformed("a hand history holds one hand")
    if viewer is not None and viewer >= len(start.players):
        raise Malformed(f"there is no player {viewer}")
    writer = _Writer(start, viewer, reveal_all)
    posts = _Posts(len(start.players))
    for event in events[1:]:
        if not isinstance(event, Discarded | CardsDrawn | MuckReshuffled):
            writer.flush_draws()
        if isinstance(event, AntePosted | BlindPosted):
            posts.add(writer, event)
        else:
            _write(writer, event)
    writer.flush_draws()
    return _render(writer, events, posts, header)


def _write(w: _Writer, event: Event) -> None:
    p = w.label
    if isinstance(event, CardsDealt):
        w.note("Deal")
        for i in w.order():
            w.act(f"d dh {p(i)} {w.cards(i, event.hands[i])}")
    elif isinstance(event, BettingStarted):
        w.note(f"Betting round {event.round + 1}")
    elif isinstance(event, Folded):
        w.act(f"{p(event.player)} f", event.timed_out)
    elif isinstance(event, Checked):
        w.act(f"{p(event.player)} cc", event.timed_out)
    elif isinstance(event, Called):
        w.act(f"{p(event.player)} cc")
    elif isinstance(event, BetPlaced | Raised):
        w.act(f"{p(event.player)} cbr {event.to}")
    elif isinstance(event, BetReturned):
        w.note(f"{event.amount} uncalled, back to {p(event.player)}")
    elif isinstance(event, DrawStarted):
        w.note(f"Draw {event.draw + 1}")
    elif isinstance(event, Discarded):
        thrown = w.cards(event.player, event.cards)
        w.act(f"{p(event.player)} sd {thrown}".rstrip(), event.timed_out)
    elif isinstance(event, MuckReshuffled):
        w.note("The stub ran out: the discards were shuffled into a new stub")
    elif isinstance(event, CardsDrawn):
        w.drawn.setdefault(event.player, []).extend(event.cards)
    elif isinstance(event, ParoleOffered):
        w.act(f"# {p(event.player)} parole")
    elif isinstance(event, ParoleAccepted):
        w.act(f"# {p(event.player)} accept")
    elif isinstance(event, ParoleDeclined):
        w.act(f"# {p(event.player)} decline" + (" (timed out)" if event.timed_out else ""))
    elif isinstance(event, ShowdownStarted):
        w.note("Showdown")
    elif isinstance(event, HandShown):
        # Shown cards are public: every viewer gets them.
        w.act(f"{p(event.player)} sm {''.join(str(c) for c in event.cards)}")
    elif isinstance(event, HandMucked):
        w.act(f"{p(event.player)} sm")
    elif isinstance(event, HandRaked):
        taken = ", ".join(f"{_pot_name(k)} {t}" for k, t in enumerate(event.pots) if t)
        w.note(f"Rake {event.amount}: {taken}")
    elif isinstance(event, PotAwarded):
        name = _pot_name(event.pot)
        shares = ", ".join(f"{p(s.player)} {s.amount}" for s in event.shares if s.amount)
        w.note(f"{name} {event.amount}: {shares}")
    elif isinstance(event, HandEnded):
        pass
    else:  # pragma: no cover - every event type is handled above
        raise Malformed(f"unexpected {type(event).__name__}")


def _pot_name(pot: int) -> str:
    return "main pot" if pot == 0 else f"side pot {pot}"


@dataclass
class _Posts:
    """Antes and blinds by position: PHH's forced-bet arrays.

    Live blinds go to ``blinds_or_straddles`` at their nominal size (PokerKit
    trims them to the stack, as the engine does); dead money (antes, dead
    blinds) to ``antes``.  A post by a new or returning player is listed in
    ``_posts`` too: PHH has no such thing, PokerKit would take a live one for
    a straddle.
    """

    n: int
    antes: list[int] = field(init=False)
    blinds: list[int] = field(init=False)
    extra: list[str] = field(default_factory=list)
    over_blind: bool = False

    def __post_init__(self) -> None:
        self.antes = [0] * self.n
        self.blinds = [0] * self.n

    def add(self, w: _Writer, event: AntePosted | BlindPosted) -> None:
        rules = w.start.rules
        if isinstance(event, AntePosted):
            self.antes[event.player] += event.amount
            return
        if event.dead:
            self.antes[event.player] += event.amount
        elif event.blind is Blind.SMALL:
            self.blinds[event.player] += rules.small_blind
        elif event.blind is Blind.BIG:
            self.blinds[event.player] += rules.big_blind
        elif event.blind is Blind.OVER:
            self.blinds[event.player] += 2 * rules.big_blind
            self.over_blind = True
        else:
            self.blinds[event.player] += event.amount
        if event.blind is Blind.EXTRA:
            kind = "dead" if event.dead else "live"
            self.extra.append(f"{w.label(event.player)} {kind} {event.amount}")

    def largest_blind(self, rules: Rules) -> int:
        """The minimum bet (fixed limit: the small bet), RULES.md section 1."""
        return 2 * rules.big_blind if self.over_blind else rules.big_blind


def _render(w: _Writer, events: list[Event], posts: _Posts, header: Header) -> str:
    start, rules = w.start, w.start.rules
    order = w.order()

    def phh_order(values: Sequence[int]) -> list[int]:
        ordered = [values[i] for i in order]
        # Heads-up, PHH assigns the forced bets in reverse.
        return ordered[::-1] if w.n == 2 else ordered

    fields: list[tuple[str, object]] = [
        ("variant", variant_code(rules)),
        ("antes", phh_order(posts.antes)),
        ("blinds_or_straddles", phh_order(posts.blinds)),
    ]
    if rules.ante and rules.ante_by is AnteBy.ALL:
        # Everyone's ante is his matched money: a short ante wins less.
        fields.append(("ante_trimming_status", True))
    unit = posts.largest_blind(rules)
    if rules.betting is Betting.FIXED_LIMIT:
        fields += [("small_bet", unit), ("big_bet", 2 * unit)]
    else:
        fields.append(("min_bet", unit))
    fields.append(("starting_stacks", [start.players[i].stack for i in order]))
    fields.append(("actions", w.lines))
    if header.hand_id is not None:
        fields.append(("hand", header.hand_id))
    if header.seats is not None:
        fields.append(("seats", [header.seats[i] for i in order]))
    if header.seat_count is not None:
        fields.append(("seat_count", header.seat_count))
    if header.table is not None:
        fields.append(("table", header.table))
    names = header.names or [p.name for p in start.players]
    fields.append(("players", [names[i] for i in order]))
    if isinstance(events[-1], HandEnded):
        state = replay(events)
        won = [0] * w.n
        for award in state.awards:
            for share in award.shares:
                won[share.player] += share.amount
        fields.append(("finishing_stacks", [state.players[i].stack for i in order]))
        fields.append(("winnings", [won[i] for i in order]))
        if start.rake is not None:
            # Not PHH's own: PokerKit reads a ``rake`` key as its raking
            # function, so the chips taken go under a user-defined name.
            fields.append(("_rake", state.raked))
    view = "full" if w.reveal_all else "public" if w.viewer is None else w.label(w.viewer)
    fields += [("_game", rules.game.value), ("_betting", rules.betting.value), ("_view", view)]
    if start.button_dead:
        fields.append(("_button_dead", True))
    if posts.extra:
        fields.append(("_posts", posts.extra))
    if rules.game is Game.THIRTY_TWO_CARD_DRAW:
        fields += _thirty_two_fields(w, events)
    comments = [
        "# Poker hand history (PHH, https://github.com/uoftcprg/phh-std).",
        "# p1 is the first player left of the button, then clockwise.",
    ]
    if variant_code(rules) not in POKERKIT_VARIANTS:
        comments.append("# Variant defined by this service: PokerKit cannot replay it.")
    return "\n".join(comments + [_toml_field(k, v) for k, v in fields]) + "\n"


def _thirty_two_fields(w: _Writer, events: list[Event]) -> list[tuple[str, object]]:
    """The 32 Card Draw extension (docs/hand-histories.md)."""
    fields: list[tuple[str, object]] = [
        ("_deck_ranks", THIRTY_TWO_DECK_RANKS),
        ("_tie_break", w.start.rules.tie_break.value),
    ]
    if w.start.rules.tie_break is TieBreak.SUIT:
        fields.append(("_suit_order", SUIT_ORDER))
    parole: list[str] = []
    agreed = False
    for event in events:
        if isinstance(event, ParoleOffered):
            parole.append(f"{w.label(event.player)} parole")
        elif isinstance(event, ParoleAccepted):
            parole.append(f"{w.label(event.player)} accept")
        elif isinstance(event, ParoleDeclined):
            parole.append(f"{w.label(event.player)} decline")
    if parole:
        agreed = not parole[-1].endswith("decline") and isinstance(events[-1], HandEnded)
        fields += [("_parole", parole), ("_parole_agreed", agreed)]
    return fields


# --------------------------------------------------------------------------
# TOML


def _toml_field(key: str, value: object) -> str:
    if isinstance(value, list) and value and isinstance(value[0], _Line):
        body = [f"  # {v.text}" if v.comment else f"  {_toml_value(v.text)}," for v in value]
        return "\n".join([f"{key} = [", *body, "]"])
    return f"{key} = {_toml_value(value)}"


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")  # pragma: no cover


_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n"}
_ESCAPES_MORE: Final = {"\f": "\\f", "\r": "\\r"}


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters
    escaped; a lone surrogate (not encodable) becomes U+FFFD."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch in _ESCAPES_MORE:
            out.append(_ESCAPES_MORE[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\ufffd")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


__all__ = [
    "GAME_CODES",
    "POKERKIT_VARIANTS",
    "STRUCTURE_CODES",
    "to_phh",
    "to_phh_unredacted",
    "variant_code",
]
