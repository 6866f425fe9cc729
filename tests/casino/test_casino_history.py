"""Casino round histories: a player's rounds by pages, one round as each
viewer may see it (stakes, cards as revealed, the dealer's exchange, the
settlement per box), and its deck commitment checked by ``verify_hand``."""

from __future__ import annotations

import copy
import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from accounts.models import Entry, Transfer
from kernel.eventstore import load
from kernel.models import Event
from poker.casino import publish, streams
from poker.casino.models import CasinoRound, CasinoTable, casino_feed
from poker.casino.verify import verify_round
from poker.engine.cards import CARD_PATTERN, SEED_BITS
from poker.engine.casino import fairdeal
from tests.casino.support import command, move, ok, play_out, view_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_user, client_for, open_casino, bankroll):
    """Two rounds played at one table by ann (box 1) and bob (box 3), each
    exchanging his first card once."""
    bankroll()
    table = open_casino()["table"]["id"]
    ann, bob = make_user("ann"), make_user("bob")
    clients = {ann.pk: client_for(ann), bob.pk: client_for(bob)}
    ok(command(clients[ann.pk], table, "sit", box=1))
    ok(command(clients[bob.pk], table, "sit", box=3))
    for _ in range(2):
        ok(command(clients[ann.pk], table, "bet", amount=10))
        ok(command(clients[bob.pk], table, "bet", amount=20))
        for _ in range(2):
            current = view_of(APIClient(), table)["round"]
            player = next(b["player"] for b in current["boxes"] if b["box"] == current["to_act"])
            mine = view_of(clients[player], table)
            cards = next(b["cards"] for b in mine["round"]["boxes"] if b["player"] == player)
            ok(move(clients[player], table, mine, "exchange", cards=cards[:1]))
        play_out(clients, table, policy="play")
    return table, ann, bob, clients


def history(client: APIClient, round_id: str) -> dict:
    return ok(client.get(f"/api/casino/rounds/{round_id}/"))


def test_a_player_gets_his_rounds_newest_first_by_pages(played, make_user, client_for):
    table, ann, _bob, clients = played
    page = ok(clients[ann.pk].get("/api/casino/rounds/", {"page_size": 1}))
    assert page["count"] == 2 and page["next"] and len(page["results"]) == 1
    newest = page["results"][0]
    assert (newest["id"], newest["table"], newest["your_box"]) == (f"{table}-2", table, 1)
    assert newest["boxes"] == [1, 3] and newest["phase"] == "complete"
    older = ok(clients[ann.pk].get("/api/casino/rounds/", {"page_size": 1, "page": 2}))
    assert older["results"][0]["id"] == f"{table}-1" and older["next"] is None
    stranger = client_for(make_user("cy"))
    assert ok(stranger.get("/api/casino/rounds/"))["count"] == 0
    assert APIClient().get("/api/casino/rounds/").status_code == 401
    assert clients[ann.pk].get("/api/casino/rounds/", {"page": 9}).json()["code"] == "not_found"
    assert clients[ann.pk].get("/api/casino/rounds/", {"page_size": 0}).status_code == 400


def test_a_history_shows_each_viewer_only_his_cards_and_the_dealers_once_up(played):
    table, ann, bob, clients = played
    round_id = f"{table}-1"
    mine = history(clients[ann.pk], round_id)
    theirs = history(clients[bob.pk], round_id)
    public = history(APIClient(), round_id)
    assert (mine["your_box"], theirs["your_box"], public["your_box"]) == (1, 3, None)
    [dealt] = [e for e in mine["events"] if e["type"] == "casino.cards_dealt"]
    assert len(dealt["hands"][0]) == 5 and dealt["hands"][1] is None and dealt["dealer"] is None
    [seen] = [e for e in public["events"] if e["type"] == "casino.cards_dealt"]
    assert seen["hands"] == [None, None] and seen["counts"] == [5, 5]
    for event in public["events"]:
        if event["type"] in ("casino.exchanged", "casino.cards_drawn"):
            assert event["cards"] is None
        assert "deck" not in event and "seed" not in event
    drawn = [e for e in mine["events"] if e["type"] == "casino.cards_drawn"]
    assert [e["box"] for e in drawn if e["cards"] is not None] == [1]
    assert all(e["cards"] is None for e in drawn if e["box"] != 1)
    # The round as it ended: the stakes, the results, the dealer's hand and exchange.
    boxes = {b["box"]: b for b in mine["round"]["boxes"]}
    assert boxes[1]["cards"] is not None and boxes[3]["cards"] is None
    assert all(b["result"] is not None for b in boxes.values())
    dealer = mine["round"]["dealer"]
    assert dealer["cards"] is not None and dealer["discarded"] is not None
    assert [e["type"] for e in mine["events"]][-1] == "casino.round_ended"


def test_the_settlement_per_box_is_what_the_ledger_moved(played):
    table, ann, _bob, clients = played
    done = history(clients[ann.pk], f"{table}-1")
    settled = {s["box"]: s for s in done["settlement"]}
    assert settled[1]["held"] is not None and settled[3]["held"] is None
    round_boxes = {b["box"]: b for b in done["round"]["boxes"]}
    for number, box in settled.items():
        assert box["staked"] == round_boxes[number]["ante"] + round_boxes[number]["bet"]
        assert box["won"] == round_boxes[number]["won"]
        transfer = Transfer.objects.get(ref=f"casino-{table}@{_version(table, 1)}:{number - 1}")
        bankroll = Entry.objects.get(transfer=transfer, account__key="bankroll").amount
        assert bankroll == -box["net"] == box["staked"] - box["won"]


def _version(table: int, number: int) -> int:
    """The table stream's version of round ``number``'s settlement."""
    for row in load(f"casino-table-{table}"):
        if row.type == "casino_table.round_finished" and row.data["number"] == number:
            return row.version
    raise AssertionError("not settled")


def test_every_viewers_copy_checks_out_against_the_stored_deck(played):
    table, ann, bob, clients = played
    round_id = f"{table}-1"
    row = CasinoRound.objects.get(pk=round_id)
    stored = [streams.decode_round(r) for r in load(row.stream)]
    roots = fairdeal.trace(stored).roots
    for client, own in ((clients[ann.pk], 5), (clients[bob.pk], 5), (APIClient(), 0)):
        copy_ = history(client, round_id)
        assert copy_["roots"] == roots and copy_["commitment"] == roots[0]
        result = verify_round(round_id=round_id, data=copy_)
        assert result.ok, result.problems
        # his own cards dealt and drawn (one exchange of one card), then the
        # dealer's five and what he drew
        dealer = 5 + len(copy_["round"]["dealer"]["discarded"])
        mine = own + (1 if own else 0)
        assert result.checked == mine + dealer
        assert len(copy_["openings"]) == result.checked
        hidden = [b for b in copy_["round"]["boxes"] if b["cards"] is None]
        assert len(hidden) == (1 if own else 2)


def test_verify_hand_checks_a_casino_round_and_catches_a_forged_copy(played, tmp_path):
    table, ann, _bob, clients = played
    round_id = f"{table}-2"
    saved = history(clients[ann.pk], round_id)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(saved))
    out = io.StringIO()
    call_command("verify_hand", round_id, str(path), stdout=out)
    assert f"hand {round_id}:" in out.getvalue() and "cards open" in out.getvalue()

    forged = copy.deepcopy(saved)
    [dealt] = [e for e in forged["events"] if e["type"] == "casino.cards_dealt"]
    swap = dealt["hands"][0][0]
    other = next(o["card"] for o in forged["openings"] if o["card"] not in dealt["hands"][0])
    dealt["hands"][0][0] = other
    path.write_text(json.dumps(forged))
    with pytest.raises(CommandError, match="does NOT check out"):
        call_command("verify_hand", round_id, str(path), stdout=io.StringIO())
    assert swap != other

    reroot = copy.deepcopy(saved)
    reroot["events"][0]["root"] = "0" * 64
    result = verify_round(round_id=round_id, data=reroot)
    assert not result.ok and any("not the ones published" in p for p in result.problems)


def test_a_spectator_is_given_the_openings_of_the_dealers_cards_alone(played):
    table, ann, _bob, clients = played
    public = history(APIClient(), f"{table}-1")
    [revealed] = [e for e in public["events"] if e["type"] == "casino.dealer_revealed"]
    [exchanged] = [e for e in public["events"] if e["type"] == "casino.dealer_exchanged"]
    dealers = revealed["cards"] + exchanged["drawn"]
    assert sorted(o["card"] for o in public["openings"]) == sorted(dealers)
    mine = history(clients[ann.pk], f"{table}-1")
    [dealt] = [e for e in mine["events"] if e["type"] == "casino.cards_dealt"]
    assert set(dealt["hands"][0]) <= {o["card"] for o in mine["openings"]}


def test_the_tables_feed_holds_its_stream_and_its_rounds_in_the_order_written(played):
    table, *_ = played
    fed = list(Event.objects.filter(feed=casino_feed(table)).order_by("position"))
    streams_of = {f"casino-table-{table}", f"casino-round-{table}-1", f"casino-round-{table}-2"}
    assert [e.position for e in fed] == list(range(1, len(fed) + 1))
    assert {e.stream for e in fed} == streams_of
    assert len(fed) == Event.objects.filter(stream__in=streams_of).count()
    assert CasinoTable.objects.get(pk=table).position == len(fed)
    ids = [e.id for e in fed]
    assert ids == sorted(ids)  # the order they were written
    assert not Event.objects.filter(feed=table).exists()  # no pot table's feed


def _cards_of(frames: list[dict]) -> set[str]:
    return set(re.findall(r'"(' + CARD_PATTERN.strip("^$") + ')"', json.dumps(frames)))


def test_the_feed_replayed_shows_each_viewer_only_his_cards_and_the_dealers(played):
    table, ann, bob, _ = played
    stored = {}
    for number in (1, 2):
        events = [streams.decode_round(r) for r in load(f"casino-round-{table}-{number}")]
        stored[number] = events
    boxes: dict[int, set[str]] = {0: set(), 1: set()}
    dealer: set[str] = set()
    for events in stored.values():
        trace = fairdeal.trace(events)
        for _, owner, (tree, index) in trace.receipts:
            code = str(trace.trees[tree][index])
            (dealer if owner == fairdeal.DEALER else boxes[owner]).add(code)
    spectator = publish.replay(table, 0, None)
    assert [f["position"] for f in spectator] == list(range(1, len(spectator) + 1))
    assert _cards_of(spectator) <= dealer
    mine = publish.replay(table, 0, ann.pk)
    assert boxes[0] <= _cards_of(mine) <= boxes[0] | dealer
    theirs = publish.replay(table, 0, bob.pk)
    assert boxes[1] <= _cards_of(theirs) <= boxes[1] | dealer
    privates = [i for i, f in enumerate(mine) if f["type"] == "private"]
    assert privates
    for i in privates:  # each right after its event's public frame, which says so
        before = mine[i - 1]
        assert (before["type"], before["position"]) == ("event", mine[i]["position"])
        assert ann.pk in before["private_for"]
    later = publish.replay(table, 10, ann.pk)
    assert later == [f for f in mine if f["position"] > 10]


def test_every_rounds_seed_is_128_bits_wide(played):
    """The stored seed keys every salt of the round's commitment: drawn
    from 128 bits (docs/fair-deal.md), two rounds both under 2**64 would
    come once in 2**128."""
    table, *_ = played
    seeds = [
        fairdeal.trace([streams.decode_round(r) for r in load(f"casino-round-{table}-{n}")]).seed
        for n in (1, 2)
    ]
    assert all(0 <= seed < 2**SEED_BITS for seed in seeds)
    assert SEED_BITS == 128 and max(seeds).bit_length() > 64
