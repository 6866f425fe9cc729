"""The schema is enough to build a client: openapi-python-client generates
one from the schema the server serves, and with nothing but that client two
players log in, sit and play a hand to its end that staff opened.

The client talks HTTP to the application in this process (httpx's WSGI
transport): the same requests a client on the network would make.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.config.contract_support import APP, same_connection, served_schema
from tests.isolation import (  # noqa: F401 - autouse
    fast_password_hashing,
    fresh_caches,
    generous_throttles,
    in_memory_channel_layer,
    local_cache,
)
from tests.people import user_maker

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PACKAGE = "poker_room_client"

GENERATOR_CONFIG = {
    "package_name_override": PACKAGE,
    # A hand in PHH is TOML text: the generator reads it as text.
    "content_type_overrides": {"application/toml": "text/plain"},
}


TABLE = {
    "name": "Generated",
    "game": "32-card-draw",
    "betting": "no-limit",
    "small_blind": 1,
    "big_blind": 2,
}


def generate(into: Path) -> Any:
    """Generate the client package from the served schema; the package."""
    (into / "schema.json").write_text(json.dumps(served_schema()))
    (into / "config.json").write_text(json.dumps(GENERATOR_CONFIG))
    bin_dir = str(Path(sys.executable).parent)  # its ruff formats the code
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--meta", "none",
         "--path", "schema.json", "--config", "config.json", "--output-path", PACKAGE],
        cwd=into, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout  # every operation generated whole
    sys.path.insert(0, str(into))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(into))


@pytest.fixture
def generated(tmp_path: Path) -> Any:
    package = generate(tmp_path)
    yield package
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def test_a_generated_client_logs_in_sits_and_plays_a_hand(generated, settings):
    settings.TOURNAMENT_TABLES = False
    models = importlib.import_module(f"{PACKAGE}.models")
    client_module = importlib.import_module(f"{PACKAGE}.client")
    make = user_maker(10**6)
    make("boss", staff=True)
    make("ann")
    make("bob")
    transport = httpx.WSGITransport(app=APP)
    base = "http://localhost"

    def logged_in(username: str) -> Any:
        anonymous = client_module.Client(base_url=base, httpx_args={"transport": transport})
        login = importlib.import_module(f"{PACKAGE}.api.auth.login")
        session = login.sync(
            client=anonymous, body=models.LoginIn(username=username, password="pw")
        )
        assert isinstance(session, models.SessionOut), session
        assert session.user.username == username
        return client_module.AuthenticatedClient(
            base_url=base, token=session.token, prefix="Token", httpx_args={"transport": transport}
        )

    with same_connection():
        staff = logged_in("boss")
        body = models.TableIn.from_dict(TABLE)
        opened = importlib.import_module(f"{PACKAGE}.api.tables.tables_create").sync(
            client=staff, body=body
        )
        assert isinstance(opened, models.TableViewOut), opened
        table = opened.table.id

        players = {name: logged_in(name) for name in ("ann", "bob")}
        sit = importlib.import_module(f"{PACKAGE}.api.tables.seats_sit")
        for seat, client in enumerate(players.values(), start=1):
            body = models.SitIn(seat=seat, buy_in=100, command_id=uuid.uuid4())
            sat = sit.sync(table, client=client, body=body)
            assert isinstance(sat, models.TableViewOut), sat

        retrieve = importlib.import_module(f"{PACKAGE}.api.tables.tables_retrieve")
        act = importlib.import_module(f"{PACKAGE}.api.tables.actions_create")
        first = retrieve.sync(table, client=staff).hand
        assert first is not None
        for _ in range(100):
            views = {name: retrieve.sync(table, client=c) for name, c in players.items()}
            hand = next(iter(views.values())).hand
            if hand.id != first.id or hand.phase == models.PhaseEnum.COMPLETE:
                break
            name, view = next((n, v) for n, v in views.items() if v.hand.legal is not None)
            answer = act.sync(table, client=players[name], body=_action(models, view.hand))
            assert isinstance(answer, models.TableViewOut), answer

        history = importlib.import_module(f"{PACKAGE}.api.hands.hands_retrieve")
        done = history.sync(first.id, client=players["ann"])
        assert isinstance(done, models.HandDetailOut), done
        assert done.events[-1].type_ == models.HandEndedEventTypeEnum("hand.ended")
        assert sum(done.result.stacks.additional_properties.values()) == 200  # chips conserved


def _action(models: Any, hand: Any) -> Any:
    """The most passive legal action (a discard of one card in a draw)."""
    legal = [a.value for a in hand.legal.actions]
    order = ("check", "call", "stand", "decline", "show", "muck", "fold")
    action = next((a for a in order if a in legal), legal[0])
    extra: dict[str, Any] = {}
    if action == "discard":
        mine = next(p for p in hand.players if p.seat == hand.your_seat)
        extra["cards"] = mine.cards[:1]
    return models.ActIn(
        hand=hand.id,
        version=hand.version,
        command_id=uuid.uuid4(),
        action=models.ActionEnum(action),
        **extra,
    )
