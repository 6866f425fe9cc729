"""``python -m bench.chaos [--short] [--keep]`` (``make chaos``): the whole
run; exits non-zero if any check failed.  ``python -m bench.chaos
satellite <plan> <dir>`` is the satellite's own process."""

from __future__ import annotations

import argparse
import sys

if len(sys.argv) > 1 and sys.argv[1] == "satellite":
    from bench.chaos.satellite import main as satellite

    satellite(sys.argv[2], sys.argv[3])
    sys.exit(0)

from bench.chaos.run import FULL, SHORT, main

parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__)
parser.add_argument("--short", action="store_true", help="about a minute: 20 tables, 10 players")
parser.add_argument("--keep", action="store_true", help="keep the run directory (logs)")
args = parser.parse_args()
sys.exit(main(SHORT if args.short else FULL, keep=args.keep))
