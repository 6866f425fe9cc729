"""Tables and hand histories show players by their screen names, never by
their login names: seats, the running hand, hand details and PHH files."""

from __future__ import annotations

import tomllib

import pytest

from accounts import services as accounts
from tests.poker.api_support import ok, seat_players

pytestmark = pytest.mark.django_db

LOGINS = ("ann.login", "bob.login")
SHOWN = {"ann.login": "Ann", "bob.login": "Bob"}


@pytest.fixture
def played(open_table, make_user, client_for):
    """A table where ann and bob (shown as Ann and Bob) played a hand."""
    room = seat_players(open_table, make_user, client_for, LOGINS)
    for login, shown in SHOWN.items():
        accounts.profile_update(user=room.users[login], screen_name=shown)
    room.finish_hand()
    return room


def no_login_in(body: bytes) -> None:
    text = body.decode()
    assert not any(login in text for login in LOGINS), text


def test_seats_show_screen_names_and_no_login_name(played, client_for):
    for viewer in (None, "ann.login"):
        view = played.view(viewer)
        names = {s["player"]: s["screen_name"] for s in view["seats"]}
        assert names == {u.pk: SHOWN[n] for n, u in played.users.items()}
        assert all("username" not in s for s in view["seats"])
        hand = view["hand"]
        by_player = {p["player"]: p["screen_name"] for p in hand["players"]}
        assert by_player == names
        client = played.client(viewer) if viewer else client_for(None)
        no_login_in(client.get(f"/api/tables/{played.table}/").content)


def test_hand_histories_show_no_login_name(played, client_for):
    anyone = client_for(None)
    hands = ok(anyone.get(f"/api/hands/?table={played.table}"))
    no_login_in(anyone.get(f"/api/hands/?table={played.table}").content)
    for hand in hands:
        no_login_in(anyone.get(f"/api/hands/{hand['id']}/").content)


def test_a_phh_history_names_players_by_screen_name_not_by_id(played, client_for):
    hand = ok(client_for(None).get(f"/api/hands/?table={played.table}"))[0]
    for client in (client_for(None), played.client("ann.login")):
        response = client.get(f"/api/hands/{hand['id']}/phh/")
        assert response.status_code == 200
        no_login_in(response.content)
        players = tomllib.loads(response.content.decode())["players"]
        assert sorted(players) == ["Ann", "Bob"]
        assert not {str(u.pk) for u in played.users.values()} & set(players)
