"""Screen names (the only names other players ever see) and usernames.

A name is stored NFKC-normalized (so full-width, mathematical or ligature
look-alikes become their plain letters), with runs of spaces collapsed and
none at either end.  It is refused when it holds what a reader cannot see
or that reorders what he sees (controls, bidi and zero-width characters,
the other default-ignorable code points, line separators), a pile of
combining marks, or no letter or digit at all.

Two names are confusable when their skeletons match (Unicode TR39,
"Confusable Detection"): each character is replaced by the prototype it
can be mistaken for, after case folding (so "ANN" and "ann", "paypal" in
Cyrillic letters and "paypal" in Latin ones collide).  The skeleton is stored in a uniquely
indexed column (``User.screen_name_key``): the database refuses a
confusable name even when two players ask for it at the same moment.

The prototypes are those of Unicode's ``confusables.txt`` as the
``confusable-homoglyphs`` package ships them.  It ships the table's pairs
both ways round (each source lists its prototype, each prototype its
sources), so a character that lists more than one look-alike, or appears
inside a longer prototype, is a prototype itself; either member of a lone
pair is taken as the pair's prototype, the same one for both, which is all
that comparing skeletons needs.

A username is normalized the same way (NFKC, trimmed) at sign-up, at login
and in the login throttle, and its skeleton is uniquely indexed too
(``User.username_key``): a full-width "p1" cannot register beside "p1",
nor "pl".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache

from confusable_homoglyphs.confusables import confusables_data
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts.errors import BadScreenName, BadUsername, ScreenNameReserved

MAX_LENGTH = 30
"""Characters of a screen name, after normalization."""

RESERVED = ("admin", "staff", "dealer", "house", "system")
"""Names nobody may take, nor anything confusable with them (separators
aside: "ad-min" and "HOUSE" are refused too): a player must not pass for
the room."""

MAX_MARKS = 2
"""Combining marks in a row: more only pile up over neighbouring text."""

_REFUSED_CATEGORIES = {
    "Cc": "control characters",
    "Cf": "invisible formatting characters (bidi, zero-width)",
    "Co": "private-use characters",
    "Cs": "surrogates",
    "Cn": "unassigned characters",
    "Zl": "line separators",
    "Zp": "paragraph separators",
}

_INVISIBLE = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0),
        *range(0x180B, 0x1810),
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)
"""Default-ignorable code points (and the blank Braille pattern) that are
not of category Cf: combining grapheme joiner, Hangul fillers, Khmer
inherent vowels, Mongolian and other variation selectors."""

_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")
"""``confusables.txt`` wraps right-to-left characters in direction marks for
display; the package keeps them."""


def screen_name_clean(raw: str) -> str:
    """``raw`` as it would be stored, or ``BadScreenName`` saying why not."""
    name = " ".join(part for part in unicodedata.normalize("NFKC", raw).split(" ") if part)
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES:
            raise BadScreenName(
                _("A screen name may not hold %(what)s.") % {"what": _REFUSED_CATEGORIES[category]}
            )
        if ord(char) in _INVISIBLE or (category == "Zs" and char != " "):
            raise BadScreenName(_("A screen name may not hold invisible characters."))
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise BadScreenName(_("Too many accents on one letter."))
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise BadScreenName(_("A screen name needs at least one letter or digit."))
    if len(name) > MAX_LENGTH:
        raise BadScreenName(
            _("A screen name has at most %(most)s characters.") % {"most": MAX_LENGTH}
        )
    return name


def skeleton(name: str) -> str:
    """TR39's skeleton of the case-folded name: equal skeletons, confusable
    names."""
    prototypes = _prototypes()
    folded = unicodedata.normalize("NFD", name.casefold())
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in folded))


def is_reserved(name: str) -> bool:
    """Whether ``name`` passes for one of the room's own names."""
    return _bare(skeleton(name)) in _reserved_skeletons()


def screen_name_check(raw: str) -> tuple[str, str]:
    """A name a player chose: (the name to store, its skeleton), or
    ``BadScreenName`` / ``ScreenNameReserved``.  Whether it is taken is
    the unique index's to say."""
    name = screen_name_clean(raw)
    if is_reserved(name):
        raise ScreenNameReserved()
    return name, skeleton(name)


def screen_name_free(username: str, *, taken: Callable[[str], bool]) -> str:
    """A name for a user who chose none: his username when it would be a
    valid, unreserved and untaken name, else it (or ``player``) with the
    first number that makes it free.  ``taken(skeleton)`` asks the store."""
    try:
        base, _ = screen_name_check(username[:MAX_LENGTH])
    except (BadScreenName, ScreenNameReserved):
        base = "player"
    name, number = base, 1
    while taken(skeleton(name)):
        number += 1
        suffix = f"-{number}"
        name = base[: MAX_LENGTH - len(suffix)] + suffix
    return name


USERNAME_MAX_LENGTH = 150
"""Characters of a username, after normalization (Django's column)."""


def username_normal(raw: str) -> str:
    """A username as it is stored and looked up: NFKC-normalized (a
    full-width or styled look-alike becomes its plain letters) and trimmed.
    Sign-up, login and the login throttle all read a username through this."""
    return unicodedata.normalize("NFKC", raw).strip()


def username_check(raw: str) -> tuple[str, str]:
    """A username a player chose: (the name to store, its skeleton), or
    ``BadUsername``.  Letters, digits and ``@.+-_`` only (Django's
    validator), checked after normalization; whether it (or a name
    confusable with it) is taken is the unique index's to say."""
    name = username_normal(raw)
    if not name or len(name) > USERNAME_MAX_LENGTH:
        raise BadUsername(
            _("A username has 1 to %(most)d characters.") % {"most": USERNAME_MAX_LENGTH}
        )
    try:
        UnicodeUsernameValidator()(name)
    except ValidationError as error:
        raise BadUsername(" ".join(error.messages)) from error
    return name, skeleton(name)


def username_throttle_key(raw: str) -> str:
    """What the per-account login throttle counts: the skeleton of the
    normalized name, so every spelling that logs in to one account (case,
    spaces, full-width forms) counts against the same window."""
    return skeleton(username_normal(raw))


def _bare(text: str) -> str:
    return "".join(c for c in text if c.isalnum())


@cache
def _reserved_skeletons() -> frozenset[str]:
    return frozenset(_bare(skeleton(name)) for name in RESERVED)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (see the module's docstring)."""
    pairs: dict[str, set[str]] = {}
    for char, homoglyphs in confusables_data.items():
        key = char.translate(_DIRECTION_MARKS)
        pairs.setdefault(key, set()).update(h["c"].translate(_DIRECTION_MARKS) for h in homoglyphs)
    in_longer = {
        c for others in pairs.values() for other in others if len(other) > 1 for c in other
    }
    known = in_longer | {char for char, others in pairs.items() if len(others) > 1}
    prototypes: dict[str, str] = {}
    for char, others in pairs.items():
        if len(char) != 1 or char in known or len(others) != 1:
            continue  # a prototype (or a longer string, looked up by its characters)
        (other,) = others
        lone_pair = len(other) == 1 and other not in known and len(pairs.get(other, ())) == 1
        prototypes[char] = min(char, other) if lone_pair else other
    return prototypes
