"""``python -m bench.chaos [--short] [--keep] [--tables N] [--players N]``
(``make chaos``): the whole run; exits non-zero if any check failed.
``python -m bench.chaos satellite <plan> <dir>`` is the satellite's own
process."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace


def run() -> int:
    from bench.chaos.run import FULL, SHORT, main

    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__)
    parser.add_argument("--short", action="store_true", help="about a minute and a half")
    parser.add_argument("--keep", action="store_true", help="keep the run directory (logs)")
    parser.add_argument("--tables", type=int, help="cash tables (full: 200, short: 20)")
    parser.add_argument("--players", type=int, help="satellite players (full: 300, short: 16)")
    args = parser.parse_args()
    size = SHORT if args.short else FULL
    size = replace(size, tables=args.tables or size.tables, players=args.players or size.players)
    return main(size, keep=args.keep)


if len(sys.argv) > 1 and sys.argv[1] == "satellite":
    from bench.chaos.satellite import main as satellite

    satellite(sys.argv[2], sys.argv[3])
else:
    sys.exit(run())
