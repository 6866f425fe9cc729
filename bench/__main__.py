"""Run the benchmark modules named on the command line (``python -m bench
clocks``), or every one listed in BENCHMARKS: ``bench.<name>.main()``."""

import importlib
import platform
import sys

# Module names under bench/, each with a ``main() -> None`` that prints its results.
BENCHMARKS: list[str] = [
    "evaluators",
    "engine",
    "service",
    "websockets",
    "clocks",
    "tournament",
    "casino",
]


def main() -> int:
    print(f"pokerroom benchmarks — Python {platform.python_version()} on {platform.machine()}")
    names = sys.argv[1:] or BENCHMARKS
    unknown = sorted(set(names) - set(BENCHMARKS))
    if unknown:
        print(f"unknown benchmarks {unknown}: choose from {BENCHMARKS}")
        return 2
    if not names:
        print("no benchmarks registered (add module names to bench.__main__.BENCHMARKS)")
    for name in names:
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
