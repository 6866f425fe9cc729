"""``rebuild_projections`` reproduces every read model exactly."""

from __future__ import annotations

import random
from importlib import import_module
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.forms.models import model_to_dict

import poker.migrations
from poker.models import Hand, Seat, Table
from tests.poker.api_support import random_action
from tests.poker.test_session import act, command


def snapshot() -> dict[str, Any]:
    """Every read-model row by its natural key (seat ids are surrogates)."""
    return {
        "tables": {t.pk: model_to_dict(t) for t in Table.objects.all()},
        "seats": {
            (s.table_id, s.number): {k: v for k, v in model_to_dict(s).items() if k != "id"}
            for s in Seat.objects.all()
        },
        "hands": {
            h.pk: model_to_dict(h) | {"started_at": h.started_at, "ended_at": h.ended_at}
            for h in Hand.objects.all()
        },
    }


def test_rebuild_reproduces_every_read_model(open_table, make_user, client_for):
    rng = random.Random(3)
    tables = [open_table()["table"]["id"], open_table(game="five-card-draw")["table"]["id"]]
    users = [make_user(n) for n in ("ann", "bob", "cy", "dee")]
    clients = {u.pk: client_for(u) for u in users}
    for tid in tables:
        for seat, user in enumerate(users[:3], start=1):
            command(clients[user.pk], f"/api/tables/{tid}/sit/", seat=seat, buy_in=100)
    for _ in range(150):
        tid = rng.choice(tables)
        view = client_for(None).get(f"/api/tables/{tid}/").json()
        hand = view["hand"]
        if hand is None or hand["phase"] == "complete":
            continue
        owner = next(s["player"] for s in view["seats"] if s["seat"] == hand["to_act_seat"])
        mine = clients[owner].get(f"/api/tables/{tid}/").json()
        assert act(clients[owner], tid, mine, **random_action(rng, mine["hand"])).status_code == 200
    command(clients[users[0].pk], f"/api/tables/{tables[0]}/leave/")
    command(clients[users[1].pk], f"/api/tables/{tables[1]}/sit-out/")
    before = snapshot()
    assert len(before["hands"]) > 5
    # The running totals the commands kept are the finished hands' own, and
    # the lobby's average pot follows from them.
    lobby = {t["id"]: t for t in client_for(None).get("/api/tables/").json()}
    for table in Table.objects.filter(pk__in=tables):
        ended = Hand.objects.filter(table=table, ended_at__isnull=False)
        assert table.hands_ended == ended.count() > 0
        assert table.pots_total == sum(ended.values_list("pot", flat=True)) > 0
        assert lobby[table.pk]["average_pot"] == table.pots_total // table.hands_ended

    Seat.objects.update(stack=0, sitting_out=True)
    Hand.objects.update(phase="garbage", pot=12345)
    Table.objects.update(version=999, name="scrambled", hands_ended=7, pots_total=1)
    out = StringIO()
    call_command("rebuild_projections", stdout=out)

    assert "rebuilt" in out.getvalue()
    assert snapshot() == before

    # The migration that added the totals fills them in from the hand rows alike.
    Table.objects.update(hands_ended=0, pots_total=0)
    _average_pot_migration().backfill(apps, SimpleNamespace(connection=connection))
    assert snapshot() == before


def _average_pot_migration() -> Any:
    (path,) = Path(poker.migrations.__file__).parent.glob("*_table_average_pot.py")
    return import_module(f"poker.migrations.{path.stem}")
