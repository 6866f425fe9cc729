"""Staff notes on players: what the floor, the cashier or a director
wants the next member of staff to know (never shown to the player).

Only staff with ``accounts.note_players`` read or write them, checked
before the player is looked up (a refusal tells nothing about who
exists).  A note is written once and kept: the notes of a player read as
a log, newest first.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.errors import NotPermitted
from accounts.models import PlayerNote
from accounts.selectors import user_get
from kernel.api_errors import ApiError

NOTE_PERMISSION = "accounts.note_players"
MAX_NOTE = 2000


def _allowed(by: Any) -> None:
    if by is None or not by.has_perm(NOTE_PERMISSION):
        raise NotPermitted(_("Only staff read and write notes on players."))


def note_add(*, by: Any, player_id: int, text: str) -> PlayerNote:
    """A new note on the player, signed by ``by``."""
    _allowed(by)
    text = text.strip()
    if not 0 < len(text) <= MAX_NOTE:
        raise ApiError(
            _("A note is 1 to %(most)s characters.") % {"most": MAX_NOTE}, code="invalid"
        )
    player = user_get(user_id=player_id)
    note: PlayerNote = PlayerNote.objects.create(player=player, text=text, by=by)
    return note


def notes_of(*, by: Any, player_id: int) -> QuerySet[PlayerNote]:
    """The player's notes, newest first."""
    _allowed(by)
    player = user_get(user_id=player_id)
    return PlayerNote.objects.filter(player=player).select_related("by").order_by("-id")


def note_view(note: PlayerNote) -> dict[str, Any]:
    return {
        "id": note.pk,
        "player": note.player_id,
        "text": note.text,
        "by": note.by.get_username() if note.by is not None else None,
        "at": note.at,
    }
