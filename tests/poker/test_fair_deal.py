"""The fair deal through the service (docs/fair-deal.md): a viewer's copy of
a real hand checks out with ``verify_hand`` (the function and the
command) and a tampered one does not; and over the API and the sockets a
folded player and a non-participant never get a card, a salt or anything
of the deck order beyond the cards they held or saw shown."""

from __future__ import annotations

import json
import uuid
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from poker import selectors, services, streams
from poker.engine.fairdeal import Opening, salt
from poker.models import Hand, Table
from poker.verify import verify_hand
from tests.poker.api_support import add_user, cards_in, ok, seat_players
from tests.poker.conftest import act
from tests.poker.ws_support import (
    Store,
    actor,
    keep_stacks,
    keys_in,
    leaks,
    make_users,
    open_table,
    position_of_table,
    seat_all,
    table_client,
)

PLAYERS = ("ann", "bob", "cy", "dee", "eve")
"""Five at a 32 Card Draw table: 25 cards dealt, 7 left, so the draw
reshuffles the discards."""
FOLDER = "cy"


def choose(hand: dict[str, Any], folds: bool) -> dict[str, Any]:
    """Fold when ``folds`` and facing a bet; else throw three cards, check,
    call, show: every hand reaches the draw, a reshuffle and the showdown."""
    legal = hand["legal"]["actions"]
    if folds and "fold" in legal:
        return {"action": "fold"}
    if "discard" in legal:
        mine = next(p for p in hand["players"] if p["seat"] == hand["your_seat"])
        return {"action": "discard", "cards": mine["cards"][:3]}
    for action in ("check", "call", "show", "stand", "decline"):
        if action in legal:
            return {"action": action}
    return {"action": legal[0]}


def detail(client: APIClient, hand_id: str) -> dict[str, Any]:
    return json.loads(json.dumps(ok(client.get(f"/api/hands/{hand_id}/"))))


# --------------------------------------------------------------------------
# verify_hand on a real hand


@pytest.fixture
def dealt(open_table, make_user, client_for) -> tuple[Any, str, APIClient]:
    """A finished hand: five players, one folded, a reshuffle, a showdown;
    the room, the hand's id and a non-participant's client."""
    r = seat_players(open_table, make_user, client_for, PLAYERS)
    carl = add_user(r, make_user, client_for, "carl")
    r.play_until(lambda v: len(v["hand"]["seats"]) == len(PLAYERS))
    start = r.view()["hand"]
    while (public := r.view())["hand"]["id"] == start["id"]:
        hand = public["hand"]
        if hand["phase"] == "complete":
            break
        owner = next(s["player"] for s in public["seats"] if s["seat"] == hand["to_act_seat"])
        name = next(n for n, u in r.users.items() if u.pk == owner)
        mine = r.view(name)
        ok(act(r.client(name), r.table, mine, **choose(mine["hand"], name == FOLDER)))
    return r, start["id"], carl


def test_every_viewer_s_copy_of_a_real_hand_checks_out(dealt) -> None:
    r, hand_id, carl = dealt
    copies = {name: detail(r.client(name), hand_id) for name in PLAYERS}
    copies |= {"carl": detail(carl, hand_id), "anonymous": detail(APIClient(), hand_id)}
    assert len(copies["ann"]["roots"]) == 2, "the draw reshuffled the discards"
    shown = sum(len(c) for c in Hand.objects.get(pk=hand_id).result["shown"].values())
    assert shown >= 10
    for name, copy in copies.items():
        result = verify_hand(hand_id=hand_id, data=copy)
        assert result.ok, (name, result.problems)
        if name in ("carl", "anonymous"):
            assert result.checked == shown
    folded = verify_hand(hand_id=hand_id, data=copies[FOLDER])
    assert folded.checked == 5 + shown  # his own five, then the hands shown


@pytest.mark.parametrize(
    "change",
    [{"card": "swap"}, {"salt": "11" * 32}, {"path": ["22" * 32] * 5}, {"index": 7}],
    ids=["card", "salt", "proof", "index"],
)
def test_a_tampered_opening_fails_verify_hand(dealt, change: dict[str, Any]) -> None:
    r, hand_id, _ = dealt
    copy = detail(r.client("ann"), hand_id)
    first = copy["openings"][0]
    if "card" in change:
        change = {"card": "7s" if first["card"] != "7s" else "7d"}
    copy["openings"][0] = {**first, **change}
    assert not verify_hand(hand_id=hand_id, data=copy).ok


def test_a_copy_whose_roots_differ_from_the_published_ones_fails(dealt) -> None:
    r, hand_id, _ = dealt
    copy = detail(r.client("ann"), hand_id)
    started = copy["events"][0]
    started["root"] = "00" * 32
    result = verify_hand(hand_id=hand_id, data=copy)
    assert not result.ok and "published" in result.problems[0]


def test_the_verify_hand_command_passes_a_true_copy_and_refuses_a_tampered_one(
    dealt, tmp_path: Path
) -> None:
    r, hand_id, _ = dealt
    copy = detail(r.client("bob"), hand_id)
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(copy))
    out = StringIO()
    call_command("verify_hand", hand_id, str(good), stdout=out)
    assert f"hand {hand_id}:" in out.getvalue() and "cards open" in out.getvalue()
    copy["openings"][-1]["salt"] = "ab" * 32
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(copy))
    with pytest.raises(CommandError, match="does NOT check out"):
        call_command("verify_hand", hand_id, str(bad), stdout=StringIO())
    with pytest.raises(CommandError, match="cannot read"):
        call_command("verify_hand", hand_id, str(tmp_path / "missing.json"))


def test_verify_hand_names_a_hand_that_does_not_exist(db) -> None:
    result = verify_hand(hand_id="9-9", data={"events": [], "openings": []})
    assert not result.ok and "no hand" in result.problems[0]


# --------------------------------------------------------------------------
# Nobody gets a card he did not hold or see shown


def _secrets(stream: str) -> tuple[dict[str, str], str]:
    """Every salt of a hand by hex, to the card at its place; and its seed."""
    state = streams.hands.state(stream, Hand.objects.get(pk=stream.removeprefix("hand-")).version)
    salts = {
        salt(state.seed, t, k).hex(): str(c)
        for t, order in enumerate(state.trees)
        for k, c in enumerate(order)
    }
    return salts, str(state.seed)


@database_sync_to_async
def _api_copies(table: int, user: Any) -> list[Any]:
    """What the API answers ``user`` about the table and each of its hands."""
    row = Table.objects.get(pk=table)
    out: list[Any] = [selectors.table_view(row, user)]
    for hand in selectors.hands_of(row):
        out += [selectors.hand_detail(hand, user), selectors.hand_phh(hand, user)]
    return json.loads(json.dumps(out, default=str))


@pytest.mark.django_db(transaction=True)
async def test_a_folded_player_and_a_non_participant_get_no_card_or_salt_beyond_what_they_saw():
    tid = await open_table()
    users = await make_users(*PLAYERS, "carl")
    seated, carl = users[:-1], users[-1]
    folder = seated[PLAYERS.index(FOLDER)]
    sockets = {
        "folded": await table_client(tid, folder),
        "carl": await table_client(tid, carl),
        "anonymous": await table_client(tid),
    }
    await seat_all(tid, seated)
    while True:
        turn = await actor(tid, seated)
        if turn is None:
            await keep_stacks(tid, seated)
            continue
        user, view = turn
        if view["hand"]["number"] > 4:
            break
        await database_sync_to_async(services.hand_act)(
            by=user,
            table_id=tid,
            hand=view["hand"]["id"],
            version=view["hand"]["version"],
            command_id=uuid.uuid4(),
            **choose(view["hand"], user is folder),
        )
    end = await position_of_table(tid)
    for client in sockets.values():
        await client.until_position(end)
        await client.quiet()
    store = await database_sync_to_async(Store)(tid)
    streams_ = [s for s in store.hands if s != f"hand-{tid}-5"]
    folded_in = [s for s in streams_ if any(
        r["type"] == "hand.folded" and store.names(s)[r["data"]["player"]] == str(folder.pk)
        for r in store.hands[s]
    )]  # fmt: skip
    assert folded_in and any(
        r["type"] == "hand.muck_reshuffled" for s in folded_in for r in store.hands[s]
    )

    secrets = {s: await database_sync_to_async(_secrets)(s) for s in store.hands}
    for name, client in sockets.items():
        viewer = client.viewer
        assert leaks(store, client) == [], name
        api = await _api_copies(tid, None if viewer is None else client.user)
        text = json.dumps([client.frames, api])
        assert not keys_in([client.frames, api]) & {"deck", "seed", "reveal"}
        seen_in = {
            stream: store.visible(stream, len(rows), store.seat_in(stream, viewer))
            for stream, rows in store.hands.items()
        }
        assert cards_in(api) <= set().union(*seen_in.values()), name
        for stream, (salts, seed) in secrets.items():
            seen = seen_in[stream]
            assert seed not in text, (name, stream)
            given = {s for s in salts if s in text}
            assert {salts[s] for s in given} <= seen, (name, stream)
            if name == "folded" and store.seat_in(stream, viewer) is not None:
                assert given, stream  # his own cards' salts did reach him
        # Whatever opened in a frame proves against the root its hand published.
        for frame in client.frames:
            for raw in frame.get("openings", []):
                state = await database_sync_to_async(streams.hands.state)(
                    frame["stream"], frame["version"]
                )
                opened = Opening.from_json(raw)
                size = len(state.trees[opened.tree])
                assert opened.proves(state.roots[opened.tree], size), (name, frame)
    assert any("openings" in f for f in sockets["carl"].frames)  # the shown hands
    # His own cards' openings came with his private frames of the deal, cut
    # from the table's one message.
    assert any(f["type"] == "private" and f.get("openings") for f in sockets["folded"].frames)
