"""Play at the tables is the hands' rows and events, summed by game; the
tournaments run are their rows and their pools' and the house's entries."""

from __future__ import annotations

import pytest

from accounts import ledger
from accounts.models import Account, Transfer
from bench.simulation import Passive
from kernel.models import Event
from poker.models import Hand, Seat
from reports import money as money_report
from reports import sources
from reports.sources import Source
from tests.reports.support import dealt, entries, pots_awarded, raked, report
from tests.tournaments.service_support import (
    bot_act,
    create,
    register,
    tournament_tables,
)
from tournaments import play
from tournaments.models import Entrant

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

Kind = Transfer.Kind


def test_the_tables_report_counts_the_hands_players_and_pots_of_the_events(world, client_for):
    [row] = report(client_for(world.boss), "tables")
    hands = list(Hand.objects.filter(table_id=world.table))
    ended = [h for h in hands if h.ended_at is not None]
    assert (row["game"], row["kind"], row["tables"]) == ("32-card-draw", "cash", 1)
    assert row["hands"] == len(hands) == sum(dealt().values()) // 2
    assert row["players"] == len(dealt()) == 2
    assert row["pots"] == pots_awarded() + raked() == sum(h.pot for h in ended)
    assert row["average_pot"] == round(row["pots"] / len(ended), 1)
    assert row["house"] == 0  # no rake at this table
    span = max(h.ended_at or h.started_at for h in hands) - min(h.started_at for h in hands)
    assert row["hours"] == round(span.total_seconds() / 3600, 2)
    assert row["hands_per_hour"] == round(len(hands) * 3600 / span.total_seconds(), 1)


def test_hands_before_the_period_are_left_out(world, client_for):
    past = {"from": "2020-01-01", "to": "2020-01-31"}
    assert report(client_for(world.boss), "tables", **past) == []


def test_the_tournaments_report_is_its_entrants_pool_and_fees(world, client_for):
    [row] = report(client_for(world.boss), "tournaments")
    t = world.tournament
    pool = entries(account__key=ledger.pool(t.pk).key)
    into = [e.amount for e in pool if e.amount > 0]
    out = [-e.amount for e in pool if e.amount < 0]
    fees = [e.amount for e in entries(account__key="house", transfer__ref=f"tournament:{t.pk}")]
    assert row["tournament"] == t.pk and row["status"] == "finished"
    assert row["entrants"] == Entrant.objects.filter(tournament=t).count() == 3
    assert row["entries"] == t.entries == 3
    assert row["prize_pool"] == sum(into) == t.prize_pool == 300
    assert row["prizes"] == sum(out) == 300
    assert row["fees"] == sum(f for f in fees if f > 0) == 300
    assert row["overlay"] == -sum(f for f in fees if f < 0) == 200


def test_a_tournament_that_did_not_start_in_the_period_is_left_out(world, client_for):
    past = {"from": "2020-01-01", "to": "2020-01-31"}
    assert report(client_for(world.boss), "tournaments", **past) == []


def test_tournament_tables_are_a_row_of_their_own(world, make_user, client_for, settings):
    settings.TOURNAMENT_TABLES = True
    people = [make_user(name) for name in ("dan", "eve", "fay")]
    users = {str(u.pk): u for u in people}
    t = create(world.boss, name="Turbo", sit_and_go=True, max_players=3)
    register(t, *people)  # full: it starts, and its table deals
    [table] = tournament_tables(t)
    rng = Passive()  # calls and checks: hands end at showdowns, nobody busts soon
    for _ in range(40):
        act = bot_act(table, users, rng)
        if act is None:  # between hands: the deal timer fires
            play.deal_due(tournament_id=t.pk)
        else:
            act()
    rows = {r["kind"]: r for r in report(client_for(world.boss), "tables")}
    hands = Hand.objects.filter(table=table)
    at_table = Event.objects.filter(type="hand.started", feed=table.pk).count()
    assert rows["tournament"]["game"] == t.game
    assert rows["tournament"]["tables"] == 1
    assert rows["tournament"]["hands"] == hands.count() == at_table > 1
    assert rows["tournament"]["players"] == 3
    assert rows["cash"]["hands"] == Hand.objects.filter(table_id=world.table).count()
    [listed] = [r for r in report(client_for(world.boss), "tournaments") if r["name"] == "Turbo"]
    assert (listed["status"], listed["entrants"]) == ("running", 3)


def test_the_floor_is_the_tables_running_now_and_their_players(world, client_for):
    [row] = report(client_for(world.boss), "floor", **{"from": "2020-01-01", "to": "2020-01-02"})
    assert row == {"game": "32-card-draw", "kind": "cash", "tables": 1, "players": 1, "hands": 0}
    assert Seat.objects.filter(table_id=world.table).count() == 1  # bob left; ann sits alone


def test_the_house_column_is_the_income_at_the_games_tables(world, client_for, monkeypatch):
    """The rake's and the casino's place: any source of income whose
    transfers name a table (here, as if its cash-outs were the house's)."""
    extra = Source("cash_outs", Account.Kind.TABLE, frozenset({Kind.CASH_OUT}), sign=-1)
    monkeypatch.setattr(money_report, "INCOME", (*sources.INCOME, extra))
    [row] = report(client_for(world.boss), "tables")
    cash_outs = entries(account__kind=Account.Kind.TABLE, transfer__kind=Kind.CASH_OUT)
    assert row["house"] == -sum(e.amount for e in cash_outs) > 0
