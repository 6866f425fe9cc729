"""Every app's read models, rebuilt from the event log in one place.

Each app that keeps read models registers the function that rebuilds them
from its streams (in its ``AppConfig.ready``), naming the apps whose
models it must follow: ``manage.py rebuild_projections`` runs them all,
lower layers first, in one transaction.  The registry lives here, below
every app, so no app ever imports a higher one to be rebuilt with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class Projection:
    """One app's rebuild: ``rebuild(using=alias) -> streams replayed``."""

    app: str
    rebuild: str
    """Dotted path of the function (imported when it runs, not at start-up)."""
    after: tuple[str, ...] = ()
    """Apps whose read models are rebuilt first (the layers below)."""


_registry: dict[str, Projection] = {}


def projection_register(*, app: str, rebuild: str, after: tuple[str, ...] = ()) -> None:
    """Register ``app``'s rebuild (again: replaced, so a reloaded app is harmless)."""
    _registry[app] = Projection(app, rebuild, after)


def projections_ordered() -> list[Projection]:
    """The registered rebuilds, each after those it follows, else in the
    order registered; an ``after`` naming an app that registered nothing
    is no constraint (that app has no read models here)."""
    done: list[Projection] = []
    waiting = list(_registry.values())
    while waiting:
        ready = [
            p
            for p in waiting
            if all(a in {d.app for d in done} or a not in _registry for a in p.after)
        ]
        if not ready:
            raise ValueError(f"projections wait on each other: {[p.app for p in waiting]}")
        done.append(ready[0])
        waiting.remove(ready[0])
    return done


def projections_rebuild(
    *, using: str = "default", say: Callable[[str, int], None] | None = None
) -> dict[str, int]:
    """Rebuild every registered app's read models in one transaction, lower
    layers first; the number of streams replayed per app."""
    counts: dict[str, int] = {}
    with transaction.atomic(using=using):
        for projection in projections_ordered():
            rebuild: Callable[..., int] = import_string(projection.rebuild)
            counts[projection.app] = rebuild(using=using)
            if say is not None:
                say(projection.app, counts[projection.app])
    return counts
