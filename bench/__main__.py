"""Run every benchmark module listed in BENCHMARKS: ``bench.<name>.main()``."""

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
    if not BENCHMARKS:
        print("no benchmarks registered (add module names to bench.__main__.BENCHMARKS)")
    for name in BENCHMARKS:
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
