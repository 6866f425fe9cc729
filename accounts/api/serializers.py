"""Input and output shapes of the accounts API (validation only: the
services decide)."""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings
from django.contrib.auth.password_validation import (
    MinimumLengthValidator,
    get_default_password_validators,
)
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from accounts.limits import MAX_EXCLUSION_DAYS
from accounts.models import Transfer, User
from accounts.names import MAX_LENGTH
from accounts.notes import MAX_NOTE
from kernel.api import ClientUUID, Email, Pattern, Query, StrictInteger, Text, chips
from kernel.system_ids import SYSTEM_VERSION

# --------------------------------------------------------------------------
# In


PASSWORD_MIN_LENGTH = max(
    (
        v.min_length
        for v in get_default_password_validators()
        if isinstance(v, MinimumLengthValidator)
    ),
    default=1,
)
"""The shortest password the validators accept."""
EMAIL_MAX_LENGTH = User._meta.get_field("email").max_length
"""The longest address the column holds."""
MEMO_MAX_LENGTH = Transfer._meta.get_field("memo").max_length
"""The longest memo a transfer holds."""


def transfer_id() -> ClientUUID:
    """A transfer id a client picks: any UUID but of the kind the room
    derives for its own movements (``kernel.system_ids.SYSTEM_VERSION``)."""
    return ClientUUID(reserved_version=SYSTEM_VERSION)


def _screen_name(*, required: bool = True) -> Text:
    """A JSON string of at most as many characters as a stored name has:
    ``accounts.names`` normalizes it and says what else it refuses
    (``bad_screen_name``, ``screen_name_reserved``)."""
    return Text(max_length=MAX_LENGTH, required=required)


def _new_password() -> Text:
    """A password being chosen: as long as the validators want at least
    (``AUTH_PASSWORD_VALIDATORS``), so the schema says so too."""
    return Text(
        min_length=PASSWORD_MIN_LENGTH,
        max_length=128,
        trim_whitespace=False,
        error_messages={
            "min_length": (
                _("This password is too short: it must have at least {min_length} characters.")
            )
        },
    )


class RegisterIn(serializers.Serializer[dict[str, object]]):
    """A new player."""

    username = Text(max_length=150, validators=[UnicodeUsernameValidator()])
    password = _new_password()
    email = Email(required=False, max_length=EMAIL_MAX_LENGTH)
    screen_name = _screen_name(required=False)


class LoginIn(serializers.Serializer[dict[str, object]]):
    """Credentials for a session and a token."""

    username = Text(max_length=150)
    password = Text(max_length=128, trim_whitespace=False)
    otp = Pattern(
        r"^[0-9]{6}$",
        required=False,
        help_text="Staff accounts, when the room asks for it: the code their authenticator shows.",
    )


class PasswordIn(serializers.Serializer[dict[str, object]]):
    """A password change."""

    old_password = Text(max_length=128, trim_whitespace=False)
    new_password = _new_password()


class ProfileIn(serializers.Serializer[dict[str, object]]):
    """What a player may change about himself."""

    screen_name = _screen_name()


class MoneyIn(serializers.Serializer[dict[str, object]]):
    """A deposit or a withdrawal: the client picks the transfer id, so a
    retry cannot move the money twice."""

    transfer_id = transfer_id()
    amount = chips(min_value=1)
    memo = Text(max_length=MEMO_MAX_LENGTH, required=False, default="", allow_blank=True)


class SelfExclusionIn(serializers.Serializer[dict[str, object]]):
    """Stay away from play for ``days`` from now (never shortens one in force)."""

    days = StrictInteger(min_value=1, max_value=MAX_EXCLUSION_DAYS)


class LanguageIn(serializers.Serializer[dict[str, object]]):
    """The language the client shows itself in (null: the browser's)."""

    language = serializers.ChoiceField(
        choices=[code for code, _name in settings.LANGUAGES], allow_null=True
    )


class DepositLimitIn(serializers.Serializer[dict[str, object]]):
    """The most that may be deposited in any 24 hours (null: no limit).
    Lower: at once; higher or null: after 24 hours."""

    daily = chips(min_value=0, allow_null=True)


class NoteIn(serializers.Serializer[dict[str, object]]):
    """A staff note on a player."""

    text = Text(max_length=MAX_NOTE)


class HistoryQuery(Query):
    """Filters and page of a ledger history (the page read by ``HistoryPages``)."""

    kind = serializers.ChoiceField(choices=Transfer.Kind.choices, required=False)
    page = serializers.IntegerField(min_value=1, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=200, required=False)


# --------------------------------------------------------------------------
# Out


class MeOut(serializers.Serializer[Mapping[str, object]]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    screen_name = serializers.CharField()
    email = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
    is_staff = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    language = serializers.CharField(allow_null=True, help_text="null: the browser's")


class SessionOut(serializers.Serializer[Mapping[str, object]]):
    user = MeOut()
    token = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True)


class TokenOut(serializers.Serializer[Mapping[str, object]]):
    """A new API token for one device (shown only once) and when it expires."""

    token = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True)


class WsTicketOut(serializers.Serializer[Mapping[str, object]]):
    """A WebSocket ticket (``?ticket=``): good once, for ``expires_in`` seconds."""

    ticket = serializers.CharField()
    expires_in = serializers.IntegerField()


class TicketOut(serializers.Serializer[Mapping[str, object]]):
    tournament = serializers.CharField()
    count = serializers.IntegerField()


class WalletOut(serializers.Serializer[Mapping[str, object]]):
    user = serializers.IntegerField()
    screen_name = serializers.CharField()
    cash = serializers.IntegerField()
    tickets = TicketOut(many=True)


class SubjectOut(serializers.Serializer[Mapping[str, object]]):
    """What a reference names: a table, casino table or tournament."""

    kind = serializers.ChoiceField(choices=["table", "casino", "tournament"])
    id = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)


class EntryOut(serializers.Serializer[Mapping[str, object]]):
    id = serializers.IntegerField()
    transfer = serializers.CharField()
    kind = serializers.CharField()
    account = serializers.CharField()
    tournament = serializers.CharField(allow_null=True)
    amount = serializers.IntegerField()
    balance_after = serializers.IntegerField()
    ref = serializers.CharField()
    subject = SubjectOut(allow_null=True)
    memo = serializers.CharField()
    at = serializers.DateTimeField()


class TransferEntryOut(serializers.Serializer[Mapping[str, object]]):
    account = serializers.CharField()
    amount = serializers.IntegerField()
    balance_after = serializers.IntegerField()


class TransferOut(serializers.Serializer[Mapping[str, object]]):
    id = serializers.CharField()
    kind = serializers.CharField()
    ref = serializers.CharField()
    memo = serializers.CharField()
    at = serializers.DateTimeField()
    entries = TransferEntryOut(many=True)


class MoneyOut(serializers.Serializer[Mapping[str, object]]):
    transfer = TransferOut()
    wallet = WalletOut()


class LimitsOut(serializers.Serializer[Mapping[str, object]]):
    """A player's limits as they hold now."""

    excluded_until = serializers.DateTimeField(
        allow_null=True, help_text="Self-excluded until then (null: not excluded)."
    )
    daily_deposit = serializers.IntegerField(
        allow_null=True, help_text="The most deposited in any 24 hours (null: no limit)."
    )
    next_daily_deposit = serializers.IntegerField(
        allow_null=True, help_text="A raised limit (null: none) waiting for next_from."
    )
    next_from = serializers.DateTimeField(
        allow_null=True, help_text="When next_daily_deposit holds (null: nothing waiting)."
    )
    deposited_24h = serializers.IntegerField(help_text="Deposited in the last 24 hours.")
    deposit_remaining = serializers.IntegerField(
        allow_null=True, help_text="What may still be deposited now (null: no limit)."
    )


class NoteOut(serializers.Serializer[Mapping[str, object]]):
    id = serializers.IntegerField()
    player = serializers.IntegerField()
    text = serializers.CharField()
    by = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()
