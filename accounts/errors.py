"""Why the ledger refuses: typed API errors with stable codes; and the
rules' refusals as API errors, their players named by screen name
(``refusal``, for every app that runs the engine: the cash tables, the
casino)."""

from __future__ import annotations

from typing import cast

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.refusals import engine_message
from kernel.api_errors import ApiError
from poker.engine.errors import EngineError, ErrorCode


class FieldRefusal(ApiError):
    """A refusal of one input field's value (``field``): its message is
    under ``fields`` too, where an invalid body says what is wrong."""

    field: str

    def __init__(self, message: str | None = None) -> None:
        text = message or str(type(self).message)
        super().__init__(text, extra={"fields": {self.field: [text]}})


def api_error(
    status: int, code: str, message: str | Promise, *, field: str | None = None
) -> type[ApiError]:
    """The class of one kind of refusal, named by its code: ``status``,
    ``code`` and ``message`` unless the raiser gives others; with
    ``field``, a ``FieldRefusal`` of that input field."""
    namespace = {"__module__": __name__, "status": status, "code": code, "message": message}
    if field is None:
        return cast(type[ApiError], type(code, (ApiError,), namespace))
    return cast(type[ApiError], type(code, (FieldRefusal,), {**namespace, "field": field}))


InsufficientFunds = api_error(409, "insufficient_funds", _("Not enough money for this."))
"""The transfer would take an account below zero; nothing moved."""

DuplicateTransfer = api_error(
    409, "duplicate_transfer", _("This transfer id was used for a different transfer.")
)
"""The transfer id was used before for a different movement."""

ReservedTransferId = api_error(
    400,
    "reserved_transfer_id",
    _("Transfer ids of UUID version 8 are the room's own: pick another (a UUID4)."),
)
"""A client chose a transfer id of the kind the room derives for its
own movements (UUID version 8): those are never a client's."""

UnknownAccount = api_error(404, "unknown_account", _("No such account."))
"""No such player (or account) to move money for."""

NotPermitted = api_error(403, "forbidden", _("You may not do that."))
"""The caller lacks the permission this needs (same code as every 403)."""

BadAmount = api_error(400, "bad_amount", _("Amounts are positive whole numbers."))
"""An amount that is not a positive whole number."""

UsernameTaken = api_error(409, "username_taken", _("That username is taken."))

ScreenNameTaken = api_error(409, "screen_name_taken", _("That screen name is taken."))
"""Another player's name, or one confusable with it (Unicode TR39)."""

SecondFactorRequired = api_error(
    400,
    "second_factor_required",
    _("Staff accounts log in with a code from their authenticator (otp)."),
)
"""A staff account logs in with the code of his TOTP device
(``accounts.second_factor``); none was given, or he has no device."""

BadSecondFactor = api_error(
    400, "bad_second_factor", _("That code is not a current code of your authenticator.")
)

SecondFactorMissing = api_error(
    401, "second_factor_required", _("Log in again with a code from your authenticator.")
)
"""A staff account's token or session that no code was given for."""

BadUsername = api_error(400, "bad_username", _("That username is not allowed."), field="username")
"""A username Django's validator refuses once normalized."""

BadScreenName = api_error(
    400, "bad_screen_name", _("That screen name is not allowed."), field="screen_name"
)
"""A screen name with what a reader cannot see (controls, bidi or
zero-width characters), too long, or without a letter or digit; the
message says which."""

ScreenNameReserved = api_error(400, "screen_name_reserved", _("That screen name is reserved."))
"""A name the room keeps for itself (admin, staff, dealer, house,
system) or one confusable with it."""

WrongPassword = api_error(400, "wrong_password", _("The current password is wrong."))

AccountLocked = api_error(403, "account_locked", _("This account is locked."))
"""The account is locked by staff (``accounts.locks``): he may not play."""

SelfExcluded = api_error(403, "self_excluded", _("You have excluded yourself from play for now."))
"""The player excluded himself until a time still ahead: no seat, no
registration, no deposit (``until`` says when it ends)."""

ExclusionShortened = api_error(
    409, "exclusion_not_shortened", _("A self-exclusion cannot be shortened.")
)
"""A self-exclusion ending before the one in force: it only ever grows."""

DepositLimitReached = api_error(
    409, "deposit_limit", _("This deposit is over the player's deposit limit for 24 hours.")
)
"""The deposit would take the player past his limit for 24 hours
(``limit``, and ``remaining``: what he may still deposit)."""


def unknown_player(player: object) -> ApiError:
    """``UnknownAccount`` for a player id nobody has."""
    return UnknownAccount(_("No player with id %(player)s.") % {"player": player})


_STATUS = {
    ErrorCode.OUT_OF_TURN: 409,
    ErrorCode.ILLEGAL_ACTION: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.TABLE_CLOSED: 409,
    ErrorCode.NOT_SEATED: 409,
    ErrorCode.BET_WINDOW_CLOSED: 409,
}


def refusal(error: EngineError) -> ApiError:
    """An engine refusal as an API error with the same code: ``message`` in
    the reader's language (``accounts.refusals``), ``detail`` the engine's
    own words (English, for logs and scripts), ``values`` the figures the
    message names (for a client's own wording); the players either names
    are shown by their screen names (the engine knows only their ids)."""
    from accounts.selectors import player_name  # which imports this module's errors

    extra: dict[str, object] = {"detail": error.named(player_name)}
    if error.values:
        extra["values"] = dict(error.values)
    return ApiError(
        engine_message(error.code.value, error.players, error.values, player_name),
        code=error.code.value,
        status=_STATUS.get(error.code, 400),
        extra=extra,
    )
