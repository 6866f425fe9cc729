"""Why the ledger refuses: typed API errors with stable codes; and the
rules' refusals as API errors, their players named by screen name
(``refusal``, for every app that runs the engine: the cash tables, the
casino)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.refusals import engine_message
from kernel.api_errors import ApiError
from poker.engine.errors import EngineError, ErrorCode


class InsufficientFunds(ApiError):
    """The transfer would take an account below zero; nothing moved."""

    status = 409
    code = "insufficient_funds"
    message = _("Not enough money for this.")


class DuplicateTransfer(ApiError):
    """The transfer id was used before for a different movement."""

    status = 409
    code = "duplicate_transfer"
    message = _("This transfer id was used for a different transfer.")


class ReservedTransferId(ApiError):
    """A client chose a transfer id of the kind the room derives for its
    own movements (UUID version 8): those are never a client's."""

    status = 400
    code = "reserved_transfer_id"
    message = _("Transfer ids of UUID version 8 are the room's own: pick another (a UUID4).")


class UnknownAccount(ApiError):
    """No such player (or account) to move money for."""

    status = 404
    code = "unknown_account"
    message = _("No such account.")


class NotPermitted(ApiError):
    """The caller lacks the permission this needs (same code as every 403)."""

    status = 403
    code = "forbidden"
    message = _("You may not do that.")


class BadAmount(ApiError):
    """An amount that is not a positive whole number."""

    status = 400
    code = "bad_amount"
    message = _("Amounts are positive whole numbers.")


class UsernameTaken(ApiError):
    status = 409
    code = "username_taken"
    message = _("That username is taken.")


class ScreenNameTaken(ApiError):
    """Another player's name, or one confusable with it (Unicode TR39)."""

    status = 409
    code = "screen_name_taken"
    message = _("That screen name is taken.")


class SecondFactorRequired(ApiError):
    """A staff account logs in with the code of his TOTP device
    (``accounts.second_factor``); none was given, or he has no device."""

    status = 400
    code = "second_factor_required"
    message = _("Staff accounts log in with a code from their authenticator (otp).")


class BadSecondFactor(ApiError):
    status = 400
    code = "bad_second_factor"
    message = _("That code is not a current code of your authenticator.")


class SecondFactorMissing(ApiError):
    """A staff account's token or session that no code was given for."""

    status = 401
    code = "second_factor_required"
    message = _("Log in again with a code from your authenticator.")


class BadUsername(ApiError):
    """A username Django's validator refuses once normalized."""

    status = 400
    code = "bad_username"
    message = _("That username is not allowed.")

    def __init__(self, message: str | None = None) -> None:
        text = message or str(type(self).message)
        super().__init__(text, extra={"fields": {"username": [text]}})


class BadScreenName(ApiError):
    """A screen name with what a reader cannot see (controls, bidi or
    zero-width characters), too long, or without a letter or digit; the
    message says which."""

    status = 400
    code = "bad_screen_name"
    message = _("That screen name is not allowed.")

    def __init__(self, message: str | None = None) -> None:
        text = message or str(type(self).message)
        super().__init__(text, extra={"fields": {"screen_name": [text]}})


class ScreenNameReserved(ApiError):
    """A name the room keeps for itself (admin, staff, dealer, house,
    system) or one confusable with it."""

    status = 400
    code = "screen_name_reserved"
    message = _("That screen name is reserved.")


class WrongPassword(ApiError):
    status = 400
    code = "wrong_password"
    message = _("The current password is wrong.")


class AccountLocked(ApiError):
    """The account is locked by staff (``accounts.locks``): he may not play."""

    status = 403
    code = "account_locked"
    message = _("This account is locked.")


class SelfExcluded(ApiError):
    """The player excluded himself until a time still ahead: no seat, no
    registration, no deposit (``until`` says when it ends)."""

    status = 403
    code = "self_excluded"
    message = _("You have excluded yourself from play for now.")


class ExclusionShortened(ApiError):
    """A self-exclusion ending before the one in force: it only ever grows."""

    status = 409
    code = "exclusion_not_shortened"
    message = _("A self-exclusion cannot be shortened.")


class DepositLimitReached(ApiError):
    """The deposit would take the player past his limit for 24 hours
    (``limit``, and ``remaining``: what he may still deposit)."""

    status = 409
    code = "deposit_limit"
    message = _("This deposit is over the player's deposit limit for 24 hours.")


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
