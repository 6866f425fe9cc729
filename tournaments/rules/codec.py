"""JSON for tournament events and definitions, through the engine's codec:
frozen dataclasses, enums as their values, the stored name
(``TOURNAMENT_EVENT_TYPES``) under ``"type"``.
Anything that does not decode, or decodes to a definition that no longer
validates, is ``Malformed``.
"""

from __future__ import annotations

from typing import Any

from poker.engine.codec import from_typed_json, to_data, to_typed_json
from poker.engine.errors import EngineError
from tournaments.rules.definition import TournamentDefinition
from tournaments.rules.errors import Malformed, TournamentError
from tournaments.rules.events import TOURNAMENT_EVENT_TYPES, TournamentEvent


def tournament_event_to_json(event: TournamentEvent) -> dict[str, Any]:
    """The event as JSON-ready data with its stored name under ``"type"``."""
    return to_typed_json(event, TOURNAMENT_EVENT_TYPES)


def tournament_event_from_json(data: dict[str, Any]) -> TournamentEvent:
    """The event ``tournament_event_to_json`` made; ``Malformed`` for
    anything else (a stored definition that no longer validates included)."""
    try:
        event: TournamentEvent = from_typed_json(TOURNAMENT_EVENT_TYPES, data, "tournament event")
    except EngineError as exc:
        raise Malformed(exc.message) from exc
    except TournamentError as exc:
        raise Malformed(f"bad {data.get('type')}: {exc.message}") from exc
    return event


def definition_to_json(definition: TournamentDefinition) -> dict[str, Any]:
    """A definition alone as JSON (as in ``TournamentCreated``), for read models."""
    return to_data(definition)


def definition_from_json(data: dict[str, Any]) -> TournamentDefinition:
    """The definition ``definition_to_json`` made; ``Malformed`` for anything else."""
    known = {"TournamentDefinition": TournamentDefinition}
    try:
        definition: TournamentDefinition = from_typed_json(
            known, {"type": "TournamentDefinition", **data}, "definition"
        )
    except EngineError as exc:
        raise Malformed(exc.message) from exc
    except TournamentError as exc:
        raise Malformed(f"bad definition: {exc.message}") from exc
    return definition
