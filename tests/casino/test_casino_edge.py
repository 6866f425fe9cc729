"""The house edge's guard (``poker.casino.edge``): a casino table opens only
when its configuration's stored figures hold the house at or above the
floor against the best response, on the model edge and on the
simulation's 95% lower bound; the figures are stored once per
configuration, never computed per request; a player reads the table's
published edge and strategy card."""

from __future__ import annotations

import json

import pytest
from django.core.management.sql import emit_post_migrate_signal
from django.test import override_settings
from rest_framework.test import APIClient

from kernel.models import Event
from poker.casino.edge import DEFAULT_FIGURES, shipped_figures
from poker.casino.models import CasinoMath, CasinoTable
from poker.engine.casino import CasinoRules, PayTable, report
from poker.engine.casino import edge as engine_edge
from poker.engine.casino.edge import below_floor, rules_digest, settings_digest
from poker.engine.casino.solve import Settings, largest_payout
from tests.casino.support import ok, refused, store_figures

pytestmark = pytest.mark.django_db

GENEROUS = {"pair": 3, "two-pair": 3}
"""A pay table no house can offer: the best player wins a quarter of B."""


def opened(client: APIClient, **body: object) -> object:
    return client.post("/api/casino/tables/", {"name": "Guarded", **body}, format="json")


def nothing_opened() -> None:
    assert not CasinoTable.objects.exists()
    assert not Event.objects.filter(stream__startswith="casino-table-").exists()


def test_the_default_configuration_opens_with_its_shipped_figures(staff, client_for):
    view = ok(opened(client_for(staff)), 201)
    shipped = shipped_figures()
    math = view["house_math"]
    assert math["digest"] == rules_digest(CasinoRules()) == shipped.digest
    assert math["model_edge"] == shipped.model_edge > 0
    assert math["simulated_confidence"] == [shipped.simulated_low, shipped.simulated_high]
    assert math["largest_payout"] == 120 and math["floor"] == 0


def test_a_configuration_without_stored_figures_is_refused_with_the_command_to_run(
    staff, client_for
):
    body = refused(
        opened(client_for(staff), jokers=3, pay_table={"full-house": 3}),
        409,
        "casino_math_missing",
    )
    assert body["command"] == "manage.py casino_math --store --jokers 3 --pay full-house=3"
    assert body["command"] in body["message"]
    nothing_opened()


def test_a_too_generous_pay_table_is_refused_below_the_floor(staff, client_for):
    store_figures(pay_table=GENEROUS, model_edge=-0.25, low=-0.27)
    body = refused(opened(client_for(staff), pay_table=GENEROUS), 409, "house_edge_below_floor")
    assert "-25.000%" in body["message"] and body["house_math"]["model_edge"] == -0.25
    nothing_opened()


@pytest.mark.parametrize(
    ("model_edge", "low", "opens"),
    [(0.02, -0.001, False), (-0.001, 0.02, False), (0.0, 0.0, True), (0.02, 0.01, True)],
)
def test_both_the_model_edge_and_the_simulated_lower_bound_must_reach_the_floor(
    staff, client_for, model_edge, low, opens
):
    store_figures(jokers=1, model_edge=model_edge, low=low)
    response = opened(client_for(staff), jokers=1)
    if opens:
        assert ok(response, 201)["house_math"]["model_edge"] == model_edge
    else:
        refused(response, 409, "house_edge_below_floor")
        nothing_opened()


def test_an_operator_may_raise_the_floor_above_the_default_configurations_edge(staff, client_for):
    shipped = shipped_figures()
    with override_settings(CASINO_EDGE_FLOOR=shipped.model_edge + 0.001):
        refused(opened(client_for(staff)), 409, "house_edge_below_floor")
    nothing_opened()
    with override_settings(CASINO_EDGE_FLOOR=min(shipped.model_edge, shipped.simulated_low)):
        ok(opened(client_for(staff)), 201)


def test_figures_are_never_computed_per_request(staff, make_user, client_for, monkeypatch):
    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("the figures were computed during a request")

    monkeypatch.setattr(engine_edge, "solve", no_solving)
    monkeypatch.setattr(engine_edge, "measure", no_solving)
    monkeypatch.setattr(report, "solve", no_solving)
    monkeypatch.setattr(report, "measure", no_solving)
    store_figures(jokers=1, model_edge=0.02, low=0.01)
    boss, player = client_for(staff), client_for(make_user("ann"))
    for jokers in (2, 1):
        table = ok(opened(boss, jokers=jokers), 201)["table"]["id"]
        ok(boss.get(f"/api/casino/tables/{table}/"))
        ok(player.get(f"/api/casino/tables/{table}/strategy/"))
    refused(opened(boss, jokers=4), 409, "casino_math_missing")
    ok(boss.get("/api/casino/math/"))


def test_staff_see_the_figures_on_the_table_and_players_do_not(staff, make_user, client_for):
    table = ok(opened(client_for(staff)), 201)["table"]["id"]
    seen = ok(client_for(staff).get(f"/api/casino/tables/{table}/"))
    assert seen["house_math"]["digest"] == shipped_figures().digest
    for viewer in (None, make_user("ann")):
        assert ok(client_for(viewer).get(f"/api/casino/tables/{table}/"))["house_math"] is None


def test_the_stored_configurations_are_listed_for_staff_only(staff, make_user, client_for):
    store_figures(pay_table=GENEROUS, model_edge=-0.25, low=-0.27)
    listed = ok(client_for(staff).get("/api/casino/math/"))
    assert all(list(m["pay_table"]) == list(PayTable().to_json()) for m in listed)
    assert [(m["jokers"], m["pay_table"]["pair"], m["model_edge"]) for m in listed] == [
        (2, 1, shipped_figures().model_edge),
        (2, 3, -0.25),
    ]
    refused(client_for(make_user("ann")).get("/api/casino/math/"), 403, "forbidden")


def test_the_table_serves_its_strategy_card_and_published_edge_to_anyone(staff, client_for):
    table = ok(opened(client_for(staff)), 201)["table"]["id"]
    served = ok(APIClient().get(f"/api/casino/tables/{table}/strategy/"))
    shipped = shipped_figures()
    assert served["house_edge"] == shipped.simulated_edge
    assert served["strategy_card"] == list(shipped.strategy_card)
    assert served["strategy_card"][0].startswith("Play with a pair of ")
    kinds = [line["kind"] for line in served["strategy_lines"]]
    assert len(kinds) == len(served["strategy_card"]) and "text" not in kinds  # each line read back
    assert served["strategy_lines"][0]["kind"] == "play_pair"
    assert list(served["pay_table"]) == list(PayTable().to_json())  # lowest line first
    assert (served["name"], served["jokers"], served["pay_table"]["full-house"]) == (
        "Guarded",
        2,
        2,
    )


def test_storing_a_configuration_again_replaces_its_figures():
    store_figures(jokers=1, model_edge=0.01, low=0.0)
    store_figures(jokers=1, model_edge=0.03, low=0.02)
    assert list(CasinoMath.objects.filter(jokers=1).values_list("model_edge", flat=True)) == [0.03]


def test_the_default_configuration_opens_on_the_shipped_figures_when_none_are_stored(
    staff, client_for
):
    CasinoMath.objects.all().delete()
    view = ok(opened(client_for(staff)), 201)
    assert view["house_math"]["model_edge"] == shipped_figures().model_edge
    listed = ok(client_for(staff).get("/api/casino/math/"))
    assert [m["digest"] for m in listed] == [shipped_figures().digest]
    assert not CasinoMath.objects.exists()  # a read writes nothing


# --------------------------------------------------------------------------
# The shipped figures


def test_each_migrate_stores_the_shipped_default_figures_over_stored_ones():
    store_figures(model_edge=0.5, low=0.4)  # the default configuration, other figures
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    stored = CasinoMath.objects.get(digest=shipped_figures().digest)
    assert (stored.model_edge, stored.simulated_low, stored.rounds) == (
        shipped_figures().model_edge,
        shipped_figures().simulated_low,
        shipped_figures().rounds,
    )


def test_the_shipped_figures_are_the_default_configurations():
    shipped = json.loads(DEFAULT_FIGURES.read_text())
    assert shipped["digest"] == settings_digest(Settings())
    assert (shipped["jokers"], shipped["pay_table"]) == (2, PayTable().to_json())
    assert shipped["largest_payout"] == largest_payout(Settings(), 1)
    assert shipped["rounds"] >= 1_000_000
    assert not below_floor(shipped["model_edge"], shipped["simulated_low"], 0.0)


def test_the_digest_names_the_configuration_whatever_the_order_of_its_lines():
    one = CasinoRules(2, PayTable.from_json({"pair": 2, "flush": 3}))
    two = CasinoRules(2, PayTable.from_json({"flush": 3, "pair": 2}))
    assert rules_digest(one) == rules_digest(two) != rules_digest(CasinoRules())
    assert rules_digest(CasinoRules(3)) != rules_digest(CasinoRules())
