"""The narrow flush after a transactional test (tests/flush.py) empties every
table a test wrote to, the append-only ones too, keeps the migrations'
content types and permissions as they were, and steps aside for Django's
whole flush when a test changed those."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connections

from poker import services
from tests import flush
from tests.funds import fund

pytestmark = [pytest.mark.django_db(transaction=True, databases=["default", "sqlite"])]


def _rows(alias: str) -> dict[str, int]:
    connection = connections[alias]
    counts = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def _kept(alias: str) -> list[tuple[int, str]]:
    types = ContentType.objects.using(alias).values_list("id", "model")
    permissions = Permission.objects.using(alias).values_list("id", "codename")
    return sorted(types) + sorted(permissions)


def test_every_written_table_is_emptied_and_the_migrations_rows_are_kept():
    kept = _kept("default")
    users = get_user_model().objects
    boss = users.create(username="boss", is_staff=True)
    ann, bob = fund(users.create(username="ann")), fund(users.create(username="bob"))
    table = services.table_create(
        by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
    )
    for seat, user in ((1, ann), (2, bob)):
        services.seat_sit(by=user, table_id=table.pk, seat=seat, buy_in=100)
    Group.objects.using("sqlite").create(name="dealers")
    written = {name for name, count in _rows("default").items() if count}
    assert {"accounts_transfer", "poker_event", "poker_hand", "poker_seat"} <= written

    assert flush._empty_written_tables("default")
    assert flush._empty_written_tables("sqlite")

    for alias in ("default", "sqlite"):
        left = {name: count for name, count in _rows(alias).items() if count}
        assert set(left) == set(flush.KEPT), alias
    assert _kept("default") == kept


def test_a_changed_permission_table_asks_for_the_whole_flush():
    assert flush._empty_written_tables("default")  # the kept counts are known
    Permission.objects.create(
        codename="deal_faster",
        name="Can deal faster",
        content_type=ContentType.objects.get_for_model(Group),
    )
    assert not flush._empty_written_tables("default")
