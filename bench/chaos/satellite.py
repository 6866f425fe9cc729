"""The running satellite: ``bench.simulation``'s bots in a process of
their own (``python -m bench.chaos satellite <plan>``), on the harness's
database and Redis, its clocks on the stack's workers.

Its bots act through the services, as the simulation's do; what the chaos
adds is that the database or Redis may be away for a moment under them: a
bot's command that fails for that (not refused: failed) is left, and the
next pass looks at the tournament again, as a client would retry.  When
its bots are set up it writes ``ready.json`` (the tournament, its target
and its bots) in the run's directory; once the harness writes ``go`` (its
play begins) the bots register, the sit-and-go starts when the last one
has, and when it ends the process writes ``done.json``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path

RETRY_PAUSE_S = 0.5


def main(plan_json: str, out: str) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connections

    from bench import simulation
    from bench.simulation import Plan, Report
    from tournaments import services

    settings.TOURNAMENT_TABLES = True
    plan = Plan(**json.loads(plan_json))
    rng = random.Random(plan.seed)
    run = f"chaos{plan.seed}"
    director = simulation._director(run)
    bots = simulation._bots(run, plan.players, plan.wallet)
    target = simulation._target(plan, director, run)
    definition = plan.definition(target)
    row = services.tournament_create(by=director, name=f"Satellite {run}", definition=definition)
    report = Report(row, target, bots)
    ready = {"tournament": row.pk, "target": target.pk, "plan": asdict(plan)}
    ready["bots"] = {player: getattr(user, "pk", None) for player, user in bots.items()}
    Path(out, "ready.json").write_text(json.dumps(ready))
    while not Path(out, "go").exists():  # the harness's play begins: register, and it starts
        time.sleep(0.1)
    for bot in bots.values():
        services.tournament_register(by=bot, tournament_id=row.pk)
    say = _say
    report.started = time.perf_counter()
    failures = 0
    while True:
        try:
            simulation.play(report, rng, plan.time_limit, say, 1, plan.progress_seconds)
            break
        except TimeoutError:
            raise
        except Exception as error:  # the database or Redis away: look again
            failures += 1
            say(f"a bot's command failed ({type(error).__name__}: {error}); again")
            connections.close_all()
            time.sleep(RETRY_PAUSE_S)
    done = {"seconds": report.seconds, "hands": report.hands, "actions": report.actions}
    done |= {"rebuys": report.rebuys, "add_ons": report.add_ons, "failed_commands": failures}
    Path(out, "done.json").write_text(json.dumps(done))


def _say(line: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {line}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
