"""What the tournament's tables report: a hand dealt, a hand over.

The tables are the service itself (no caller to check): the table side
calls these in its own command, after the hand engine has dealt or
settled the hand, with a command id derived from the hand (so a retried
report is answered once); its content, for the digest stored with the
id, is its kind and table: all else follows from the hand the id names.
Each is a tournament command like any other (``work.run``): busts,
balancing, table breaks, hand-for-hand and the end of play follow by the
rules, and a finished tournament pays its prizes in the same transaction.
What the rules decided (``PlayerMoved``, ``TableBroken``,
``FinalTableDrawn``, ``Eliminated``, ...) is in the returned
``Outcome.events`` for the tables to carry out.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping

from poker.work import Unit
from tournaments.rules import FinishHand, PotResult, StartHand, TournamentState
from tournaments.work import Decide, Outcome, run


def tournament_hand_start(
    *,
    tournament_id: int,
    table: int,
    big_blind: int | None = None,
    over_blind: int | None = None,
    seats: tuple[int, ...] | None = None,
    command_id: uuid.UUID | None = None,
    unit: Unit | None = None,
) -> Outcome | None:
    """A hand is dealt at ``table`` to ``seats`` (None: everyone there
    with chips), at the level in force (refused on a break or a pause, in
    hand-for-hand while the table waits, or with fewer than two players
    with chips); None: this command id reported it before."""
    decide: Decide = lambda s, now: StartHand(table, big_blind, over_blind, seats)  # noqa: E731
    return _report(tournament_id, table, command_id, unit, "tournament.hand_start", decide)


def tournament_hand_finish(
    *,
    tournament_id: int,
    table: int,
    stacks: Mapping[int, int] | Mapping[str, int],
    pots: tuple[PotResult, ...] = (),
    command_id: uuid.UUID | None = None,
    unit: Unit | None = None,
) -> Outcome | None:
    """The hand at ``table`` is over with these stacks (by player, every
    player dealt in; chips conserved) and ``pots`` (who won what of each,
    for bounties); a player left broke who may rebuy gets his decision
    clock from now.  ``unit``: the reporting table command's tables,
    which carry out what follows."""
    final = {str(player): chips for player, chips in stacks.items()}

    def decide(state: TournamentState, now: int) -> FinishHand:
        return FinishHand(table, final, secrets.randbits(64), now, pots)

    return _report(tournament_id, table, command_id, unit, "tournament.hand_finish", decide)


def _report(
    tournament_id: int,
    table: int,
    command_id: uuid.UUID | None,
    unit: Unit | None,
    kind: str,
    decide: Decide,
) -> Outcome | None:
    """A table's report about its hand, as a tournament command of nobody's;
    its digest is the table alone (the rest follows from the hand its id
    names)."""
    return run(
        tournament_id,
        by=None,
        command_id=command_id,
        decide=decide,
        unit=unit,
        kind=kind,
        body={"table": table},
    )
