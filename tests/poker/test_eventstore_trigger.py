"""The PostgreSQL trigger behind the append-only event log."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connections, transaction

from kernel.eventstore import Batch, NewEvent, append, load

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(databases=["postgres"])]


def test_the_trigger_refuses_raw_update_and_delete() -> None:
    with transaction.atomic(using="postgres"):
        append([Batch("s-1", 0, [NewEvent("A", {})])], using="postgres")
    for sql in ("UPDATE poker_event SET type = 'B'", "DELETE FROM poker_event"):
        with (
            pytest.raises(IntegrityError, match="append-only"),
            transaction.atomic(using="postgres"),
        ):
            connections["postgres"].cursor().execute(sql)
    assert [e.type for e in load("s-1", using="postgres")] == ["A"]
