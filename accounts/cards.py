"""Cards and fair-deal proofs as every table's API shows them (a cash
hand's and a casino round's alike; docs/fair-deal.md): the response
fields, declared once for the schema, in the layer below both apps that
deal the engine's cards (as ``accounts.errors.refusal`` for its refusals)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from poker.engine.cards import CARD_PATTERN


def card_out(**options: Any) -> serializers.RegexField:
    """A card code (``Ah``, ``Td``, ``X1``)."""
    return serializers.RegexField(CARD_PATTERN, **options)


def cards_out(**options: Any) -> serializers.ListField:
    return serializers.ListField(child=card_out(), **options)


class OpeningOut(serializers.Serializer[dict[str, object]]):
    """The proof that a card the viewer got or saw shown sat at its place
    of a committed order (docs/fair-deal.md)."""

    tree = serializers.IntegerField(help_text="0: the deck; n: the n-th reshuffle.")
    index = serializers.IntegerField(help_text="Its place from the top of that order.")
    card = card_out()
    salt = serializers.RegexField(r"^[0-9a-f]{64}$", help_text="The leaf's salt, hex.")
    path = serializers.ListField(
        child=serializers.RegexField(r"^[0-9a-f]{64}$"), help_text="Audit path, leaf level first."
    )


def roots_out() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(),
        help_text="The published commitments: the deck's, then each reshuffle's.",
    )
