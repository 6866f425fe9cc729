"""``python -m bench.simulate --players N ...``: bots play a whole
tournament (``bench.simulate_command``; ``--help`` lists every option).

A developer's tool, not the room's: its bots are users with money in the
database it runs on, so it lives with the benchmarks and is not one of
the apps' management commands.  It runs as ``manage.py`` runs a command,
on the room's settings (``DJANGO_SETTINGS_MODULE``, else config.settings).
"""

from __future__ import annotations

import os
import sys

import django

PROG = ("python -m", "bench.simulate")
"""The usage line's program: ``python -m bench.simulate``."""


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from bench.simulate_command import Command  # the room's apps are loaded now

    Command().run_from_argv([*PROG, *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
