"""Seed an integration-test database, in a process of its own.

Run as ``python tests/integration/seed.py`` with ``DATABASE_URL`` set; reads
one JSON request on stdin, ``{"prefix", "players": [names], "table": {...},
"director": bool, "bankroll": amount}`` (the last three optional: more
table settings, such as clocks; whether the staff user directs
tournaments; money for the casino's bankroll), and prints one JSON
line: a staff user and one user per name, each with an API token, and a 32
Card Draw no-limit table (blinds 1/2) opened by the staff user::

    {"table": id, "staff": {"id", "token"}, "players": [{"id", "name", "token"}]}

Seats are taken later, through the servers.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from knox.models import AuthToken  # noqa: E402

from accounts import money  # noqa: E402
from accounts.services import role_grant  # noqa: E402
from poker import services  # noqa: E402
from tests.funds import fund  # noqa: E402


def main() -> None:
    request = json.loads(sys.stdin.read())
    prefix = request["prefix"]
    users = get_user_model()
    staff = users.objects.create_user(f"{prefix}-boss", is_staff=True)
    if request.get("director"):
        role_grant(user=staff, role="tournament_director")
    table = services.table_create(
        by=staff,
        name=prefix,
        game="32-card-draw",
        betting="no-limit",
        small_blind=1,
        big_blind=2,
        **request.get("table", {}),
    )
    players = []
    for name in request["players"]:
        user = fund(users.objects.create_user(f"{prefix}-{name}"))
        players.append(
            {"id": user.pk, "name": name, "token": AuthToken.objects.create(user=user)[1]}
        )
    if request.get("bankroll"):
        money.bankroll_fund(transfer_id=uuid.uuid4(), amount=request["bankroll"])
    _, staff_token = AuthToken.objects.create(user=staff)
    reply = {"table": table.pk, "staff": {"id": staff.pk, "token": staff_token}, "players": players}
    print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
