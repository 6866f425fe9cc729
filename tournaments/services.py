"""The write side of tournaments: one function per command.

Each runs as one transaction through ``work.run`` (lock the tournament,
fold its stream, decide with the rules, post the ledger transfers, append,
project, set its clocks) and, once committed, sends the frames
(``work.follow_up``).  Services take keyword arguments, answer with the
tournament as the caller may see it, and refuse with ``ApiError``s: the
rules' refusals keep their codes.

Who may do what: any logged-in player registers, unregisters, rebuys and
takes the add-on for himself; only tournament directors (the
``accounts.direct_tournaments`` permission, held by the
``tournament_director`` role and by superusers) create tournaments and use
the staff controls; the clocks (``clocks``) and the tables (``tables``)
act as the service itself.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.limits import play_check
from kernel.api_errors import ApiError
from kernel.commands import user_of
from kernel.eventstore import Batch, append
from tournaments import payments, projections, selectors, timing
from tournaments.errors import BadTarget, Forbidden, NotAuthenticated, TicketExpired, refusal
from tournaments.models import TAKING, FlightEvent, StepChain, Tournament
from tournaments.rules import (
    AcceptDeal,
    AddOn,
    AddTime,
    Cancel,
    DeclineDeal,
    DeclineRebuy,
    Disqualify,
    MovePlayer,
    Pause,
    ProposeDeal,
    Rebuy,
    Register,
    RegistrationOpened,
    Resume,
    Satellite,
    TournamentDefinition,
    TournamentError,
    TournamentState,
    Unregister,
    create_tournament,
    definition_from_json,
    replay,
)
from tournaments.work import Decide, Outcome, folds, follow_up, run

# --------------------------------------------------------------------------
# Who is asking


def is_director(user: Any) -> bool:
    """A tournament director by role (``accounts.direct_tournaments``; a
    superuser holds every permission).  ``is_staff`` alone is not enough:
    granting any staff role, cashier included, makes a user staff."""
    if user_of(user) is None:
        return False
    return bool(user.has_perm("accounts.direct_tournaments"))


def ensure_director(by: Any) -> None:
    """Refuse anyone but a tournament director (401 without a login)."""
    if user_of(by) is None:
        raise NotAuthenticated()
    if not is_director(by):
        raise Forbidden()


def _player(by: Any) -> str:
    if user_of(by) is None:
        raise NotAuthenticated()
    return str(by.pk)


def _command(
    tournament_id: int,
    by: Any,
    command_id: uuid.UUID | None,
    decide: Decide,
    kind: str,
    body: Mapping[str, Any] | None = None,
    ticket: bool | None = None,
) -> dict[str, Any]:
    """Run one command and answer with the tournament as ``by`` sees it;
    ``kind`` and ``body``: what it asks (stored as a digest with its id)."""
    outcome = run(
        tournament_id,
        by=by,
        command_id=command_id,
        decide=decide,
        kind=kind,
        body=body,
        ticket=ticket,
    )
    viewer = user_of(by)
    if outcome is None:  # carried out before: the tournament as it stands now
        row = Tournament.objects.get(pk=tournament_id)
        return selectors.tournament_detail(row, viewer)
    return selectors.tournament_detail(outcome.row, viewer, outcome.state)


# --------------------------------------------------------------------------
# Creating


def tournament_create(
    *,
    by: Any,
    name: str,
    definition: TournamentDefinition,
    starts_at: datetime | None = None,
    step_chain: StepChain | None = None,
    step: int | None = None,
    flight_event: FlightEvent | None = None,
) -> Tournament:
    """Set a tournament up, registration open (directors only).  A scheduled
    tournament starts at ``starts_at`` by its timer (cancelled with refunds
    below the minimum); a sit-and-go has none and starts when it fills.  A
    guarantee is held from the house now (refused if it cannot cover it).
    A step satellite's tournament names its chain and step (its definition
    made by ``steps.step_definition``).  A flight or Day 2 of a
    multi-flight event names its event (``flights.flight_event_create``);
    Day 2 opens no registration: its players come from the flights."""
    ensure_director(by)
    return tournament_open(
        by=by, name=name, definition=definition, starts_at=starts_at,
        step_chain=step_chain, step=step, flight_event=flight_event,
    )  # fmt: skip


def tournament_open(
    *,
    by: Any,
    name: str,
    definition: TournamentDefinition,
    starts_at: datetime | None = None,
    step_chain: StepChain | None = None,
    step: int | None = None,
    flight_event: FlightEvent | None = None,
) -> Tournament:
    """``tournament_create`` once its caller is known to be allowed (a
    director, or a schedule a director set up: ``schedules``); ``by`` is
    recorded as its author."""
    if definition.sit_and_go and starts_at is not None:
        raise ApiError(_("A sit-and-go starts when it fills: no starts_at."), code="invalid")
    if not definition.sit_and_go and (starts_at is None or starts_at <= timing.now()):
        raise ApiError(_("A scheduled tournament needs a start in the future."), code="invalid")
    if definition.satellite is not None and step_chain is None:
        _check_target(definition.satellite)
    at = None if starts_at is None else timing.seconds(starts_at)
    try:
        day_two = definition.flight is not None and definition.flight.day_two
        opened = [] if day_two else [RegistrationOpened()]
        events = [*create_tournament(definition, name, at), *opened]
    except TournamentError as error:
        raise refusal(error) from error
    state = replay(events)
    with transaction.atomic():
        fields = projections.tournament_fields(state)
        number = None if definition.flight is None else definition.flight.number
        row = Tournament.objects.create(
            **fields, step_chain=step_chain, step=step, flight_event=flight_event, flight=number
        )
        batch = Batch(row.stream, 0, projections.encode(events))
        created = replay(events[:1])
        payments.post(tournament=row.pk, stream=row.stream, state=created, events=events[1:])
        recorded = append([batch], by=user_of(by))
        projections.write_tournament(row, state, created_at=recorded[0].recorded_at)
        outcome = Outcome(row, created, state, events, recorded, recorded[0].recorded_at)
        transaction.on_commit(lambda: folds.remember(row.stream, state.version, state))
        follow_up(outcome)
    return row


def _check_target(satellite: Satellite) -> None:
    """A satellite's target is a tournament taking entries, and each seat
    is worth exactly one entry there (so its ticket pays it whole)."""
    target = satellite.target
    row = Tournament.objects.filter(pk=int(target)).first() if target.isdigit() else None
    if row is None or row.status not in TAKING:
        raise BadTarget(extra={"fields": {"satellite.target": [BadTarget.message]}})
    price = definition_from_json(row.definition).entry_price
    if satellite.target_buy_in != price:
        raise BadTarget(
            f"A seat is worth the target's entry price, {price}.",
            extra={"fields": {"satellite.target_buy_in": ["not the target's entry price"]}},
        )


# --------------------------------------------------------------------------
# Players


def tournament_register(
    *,
    by: Any,
    tournament_id: int,
    ticket: bool | None = None,
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Buy an entry (or re-enter after busting, while late registration is
    open): with a ticket for this tournament if he holds one (``ticket``
    None), with it only (True) or with cash only (False).  Refused to a
    locked or self-excluded player (``accounts.limits``)."""
    player = _player(by)
    play_check(by)
    ticket = _ticket_still_good(tournament_id, ticket)
    from tournaments.flights import verify_may_enter  # flights builds on this module

    verify_may_enter(tournament_id, player)
    decide: Decide = lambda s, now: Register(player, now, secrets.randbits(64))  # noqa: E731
    body = {"ticket": ticket}
    return _command(tournament_id, by, command_id, decide, "tournament.register", body, ticket)


def _ticket_still_good(tournament_id: int, ticket: bool | None) -> bool | None:
    """How an entry into a step whose chain has expired is paid: in cash
    (``ticket`` None), or refused (``ticket`` True)."""
    row = Tournament.objects.filter(pk=tournament_id).select_related("step_chain").first()
    chain = None if row is None else row.step_chain
    if chain is None or not chain.expired(timing.now()):
        return ticket
    if ticket:
        raise TicketExpired()
    return False


def tournament_unregister(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Withdraw before the start: the buy-in and fee back (or the ticket)."""
    player = _player(by)
    decide: Decide = lambda s, now: Unregister(player)  # noqa: E731
    return _command(tournament_id, by, command_id, decide, "tournament.unregister")


def tournament_rebuy(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Rebuy while the window is open and the stack is at or below the
    threshold, between hands (or during one he is not in)."""
    player = _player(by)
    decide: Decide = lambda s, now: Rebuy(player)  # noqa: E731
    return _command(tournament_id, by, command_id, decide, "tournament.rebuy")


def tournament_add_on(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Take the add-on at the end of the rebuy window, once per entry."""
    player = _player(by)
    decide: Decide = lambda s, now: AddOn(player)  # noqa: E731
    return _command(tournament_id, by, command_id, decide, "tournament.add_on")


def tournament_decline_rebuy(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Out of chips and not rebuying: out of the tournament now."""
    player = _player(by)
    decide: Decide = lambda s, now: DeclineRebuy(player, secrets.randbits(64))  # noqa: E731
    return _command(tournament_id, by, command_id, decide, "tournament.decline_rebuy")


# --------------------------------------------------------------------------
# Staff controls


def _staff(
    by: Any,
    tournament_id: int,
    command_id: uuid.UUID | None,
    decide: Decide,
    kind: str,
    body: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    ensure_director(by)
    return _command(tournament_id, by, command_id, decide, kind, body)


def tournament_pause(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Stop the clock (levels stop; tables deal on unless staff halt them)."""
    return _staff(by, tournament_id, command_id, lambda s, now: Pause(now), "tournament.pause")


def tournament_resume(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Restart the clock: the level's timer is set again for its new end."""
    return _staff(by, tournament_id, command_id, lambda s, now: Resume(now), "tournament.resume")


def tournament_add_time(
    *, by: Any, tournament_id: int, seconds: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Lengthen the level or break in force by ``seconds``."""
    decide: Decide = lambda s, now: AddTime(seconds)  # noqa: E731
    return _staff(
        by, tournament_id, command_id, decide, "tournament.add_time", {"seconds": seconds}
    )


def tournament_move(
    *,
    by: Any,
    tournament_id: int,
    player: int,
    table: int,
    seat: int,
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Move a player not in a hand to an empty seat of a table in play."""
    decide: Decide = lambda s, now: MovePlayer(str(player), table, seat)  # noqa: E731
    body = {"player": player, "table": table, "seat": seat}
    return _staff(by, tournament_id, command_id, decide, "tournament.move", body)


def tournament_disqualify(
    *, by: Any, tournament_id: int, player: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Disqualify a player: unplaced, his chips leave play (at the end of a
    hand he is in), his money stays in the pool."""
    decide: Decide = lambda s, now: Disqualify(str(player), secrets.randbits(64))  # noqa: E731
    body = {"player": player}
    return _staff(by, tournament_id, command_id, decide, "tournament.disqualify", body)


def tournament_cancel(
    *, by: Any, tournament_id: int, reason: str = "", command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Call the tournament off: everybody gets back all he paid."""
    decide: Decide = lambda s, now: Cancel(reason)  # noqa: E731
    return _staff(by, tournament_id, command_id, decide, "tournament.cancel", {"reason": reason})


# --------------------------------------------------------------------------
# Deals at the final table


def tournament_deal_propose(
    *,
    by: Any,
    tournament_id: int,
    kind: str,
    left_to_play: int = 0,
    amounts: Mapping[int | str, int] | None = None,
    command_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    """Offer the players left a deal (icm, chip_chop, or custom with
    ``amounts`` by player), keeping ``left_to_play`` for the winner: no
    hand is dealt and the clock stops until they answer."""
    shares = None if amounts is None else {str(p): v for p, v in amounts.items()}

    def decide(state: TournamentState, now: int) -> ProposeDeal:
        return ProposeDeal(kind, now, left_to_play, shares)

    body = {"kind": kind, "left_to_play": left_to_play, "amounts": shares}
    return _staff(by, tournament_id, command_id, decide, "tournament.deal_propose", body)


def tournament_deal_accept(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Accept the deal offered; the last acceptance makes it."""
    player = _player(by)
    decide: Decide = lambda s, now: AcceptDeal(player, now)  # noqa: E731
    return _command(tournament_id, by, command_id, decide, "tournament.deal_accept")


def tournament_deal_decline(
    *, by: Any, tournament_id: int, command_id: uuid.UUID | None = None
) -> dict[str, Any]:
    """Decline the deal offered: it is withdrawn and play resumes."""
    player = _player(by)
    decide: Decide = lambda s, now: DeclineDeal(player, now)  # noqa: E731
    return _command(tournament_id, by, command_id, decide, "tournament.deal_decline")
