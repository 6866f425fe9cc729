"""``kernel.projections``: every app registers the rebuild of its read
models, and they run lower layers first whatever the order they were
registered in."""

from __future__ import annotations

import pytest

from kernel import projections
from kernel.projections import projection_register, projections_ordered


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(projections, "_registry", {})


def test_every_app_with_read_models_is_registered_lower_layers_first():
    assert [(p.app, p.rebuild) for p in projections_ordered()] == [
        ("poker", "poker.projections.rebuild"),
        ("casino", "casino.projections.rebuild"),
        ("tournaments", "tournaments.projections.rebuild"),
    ]


def test_an_app_runs_after_the_apps_it_names_whatever_the_order_registered(registry):
    projection_register(app="top", rebuild="x.top", after=("middle", "bottom"))
    projection_register(app="middle", rebuild="x.middle", after=("bottom", "absent"))
    projection_register(app="bottom", rebuild="x.bottom")
    assert [p.app for p in projections_ordered()] == ["bottom", "middle", "top"]


def test_apps_that_wait_on_each_other_are_refused(registry):
    projection_register(app="a", rebuild="x.a", after=("b",))
    projection_register(app="b", rebuild="x.b", after=("a",))
    with pytest.raises(ValueError, match="wait on each other"):
        projections_ordered()
