"""Run the benchmark modules named on the command line (``python -m bench
service clocks``), or every one listed in BENCHMARKS: ``bench.<name>.main()``."""

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


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(BENCHMARKS))
    if unknown:
        print(f"no such benchmark: {', '.join(unknown)} (one of: {', '.join(BENCHMARKS)})")
        return 2
    print(f"pokerroom benchmarks — Python {platform.python_version()} on {platform.machine()}")
    for name in names or BENCHMARKS:
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
