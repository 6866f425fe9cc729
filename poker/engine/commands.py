"""Commands: what players (and their clocks) ask of a hand.

``decide`` answers each with events or refuses it with an ``EngineError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

from poker.engine.cards import Card
from poker.engine.rake import Rake
from poker.engine.rules import Rules


@unique
class Action(StrEnum):
    """Everything a player can do, in betting, the draw, Parole and showdown."""

    FOLD = "fold"
    """Give up the hand (only when facing a bet)."""
    CHECK = "check"
    """Pass when there is nothing to call."""
    CALL = "call"
    """Match the current bet (all-in when short)."""
    BET = "bet"
    """Open the betting of a round; the amount is the round total."""
    RAISE = "raise"
    """Raise to a round total."""
    DISCARD = "discard"
    """Throw cards and draw as many."""
    STAND = "stand"
    """Stand pat: keep all five cards."""
    PAROLE = "parole"
    """32 Card Draw: offer to split the pot instead of checking or betting."""
    ACCEPT = "accept"
    """Agree to an offered Parole."""
    DECLINE = "decline"
    """Refuse an offered Parole."""
    SHOW = "show"
    """Turn the hand up at showdown."""
    MUCK = "muck"
    """Throw away a hand that cannot win, unseen."""


@dataclass(frozen=True, slots=True)
class Act:
    """Player ``player`` takes ``action``; ``amount`` is a round total for
    bet and raise, ``cards`` the discards."""

    player: int
    action: Action
    amount: int | None = None
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The player's clock ran out: check or fold, stand pat, decline Parole
    or show, whatever his turn was."""

    player: int


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The player leaves the table during the hand: his hand is folded at
    once, out of turn, and the chips he put in stay in the pot.  Only while
    betting or drawing, and never for an all-in hand, which plays to the
    showdown."""

    player: int


@dataclass(frozen=True, slots=True)
class Post:
    """An extra post by a new or returning player (cash tables).

    ``live`` counts as his bet in the first round; ``dead`` goes straight to
    the pot (RULES.md section 1, missed blinds).
    """

    player: int
    live: int
    dead: int = 0


@dataclass(frozen=True, slots=True)
class BlindPlan:
    """Who posts which blind, when the table decides it (dead button, dead
    small blind); by default the engine derives it from the button."""

    small: int | None
    big: int
    over: int | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """Start a hand.

    ``players`` are ``(name, stack)`` in clockwise seat order and are all dealt
    in; ``deck`` is the complete order of the game's deck, top card first,
    shuffled outside the engine; ``seed`` (secret, from a secure source)
    drives reshuffles of discards and the salts of the deck's commitment.
    ``rake``: the house's rake on a cash table (None: none, RULES.md 8).
    """

    rules: Rules
    players: tuple[tuple[str, int], ...]
    button: int
    deck: tuple[Card, ...]
    seed: int
    button_dead: bool = False
    blinds: BlindPlan | None = None
    posts: tuple[Post, ...] = ()
    rake: Rake | None = None


Command = Act | TimeOut | Forfeit
