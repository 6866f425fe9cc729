"""``python -m bench.simulate --players N --game 32-card-draw ...``: bots
play a whole tournament through the real services and clocks, a progress
line per level and at least every few seconds (``bench.simulation``);
``--fast`` runs every clock at its shortest.  ``bench.simulate`` runs it."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.simulation import Plan, simulate
from kernel.api_errors import ApiError
from poker.engine.rules import Betting, Game
from tournaments.rules import TournamentError

DEFAULT = "(default: %(default)s)"


@dataclass(frozen=True)
class Clocks:
    """The lengths of a level and a break (in minutes of the clock) and of a
    minute of the clock (in seconds)."""

    level_minutes: int
    minute_seconds: int
    break_minutes: int | None


FAST = Clocks(level_minutes=1, minute_seconds=1, break_minutes=1)
"""``--fast``: the shortest clock a structure takes (a minute lasts a
second: pauses between hands round down to none), one-minute levels and
breaks."""


def _or(given: int | None, fast: bool, name: str) -> Any:
    """An option as given, else its ``--fast`` value or the plan's default."""
    return given if given is not None else getattr(FAST if fast else Plan, name)


class Command(BaseCommand):
    help = (
        "Bots play a sit-and-go (a satellite with --seat-value, rebuys with --rebuy-until, "
        "a knockout with --bounty, a step satellite chain with --steps, a multi-flight event "
        "with --flights) "
        "to the end through the services and the clocks; a progress line per level and at "
        "least every --progress-seconds."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, required=True, help="bots in the field")
        parser.add_argument(
            "--game",
            choices=[g.value for g in Game],
            default=Game.THIRTY_TWO_CARD_DRAW.value,
            help=DEFAULT,
        )
        parser.add_argument(
            "--betting",
            choices=[b.value for b in Betting],
            default=Betting.NO_LIMIT.value,
            help=DEFAULT,
        )
        parser.add_argument(
            "--table-size", type=int, help="seats per table (default: the game's most)"
        )
        parser.add_argument("--buy-in", type=int, default=Plan.buy_in, help=f"chips {DEFAULT}")
        parser.add_argument("--fee", type=int, default=Plan.fee, help=f"to the house {DEFAULT}")
        parser.add_argument(
            "--starting-stack", type=int, default=Plan.starting_stack, help=f"chips {DEFAULT}"
        )
        parser.add_argument(
            "--level-minutes",
            type=int,
            help=f"minutes a level (default: {Plan.level_minutes}; {FAST.level_minutes} with "
            "--fast)",
        )
        parser.add_argument(
            "--minute-seconds",
            type=int,
            help="seconds in a minute of the clock: 60 in play, fewer scale every level, break "
            f"and pause between hands down (default: {Plan.minute_seconds}; "
            f"{FAST.minute_seconds} with --fast)",
        )
        parser.add_argument(
            "--break-minutes",
            type=int,
            help="minutes a break (default: the structure's, 5; 1 with --fast)",
        )
        parser.add_argument(
            "--fast",
            action="store_true",
            help=f"every clock and pause at its shortest: as --minute-seconds "
            f"{FAST.minute_seconds} --level-minutes {FAST.level_minutes} --break-minutes "
            f"{FAST.break_minutes} (a level a second, no pause between hands) where those "
            "are not given (default: off)",
        )
        parser.add_argument(
            "--rebuy-until", type=int, help="rebuys through this level (default: none)"
        )
        parser.add_argument(
            "--max-rebuys", type=int, default=Plan.max_rebuys, help=f"each {DEFAULT}"
        )
        parser.add_argument(
            "--add-on", action="store_true", help="an add-on after the rebuys (default: off)"
        )
        parser.add_argument(
            "--seat-value",
            type=int,
            help="a satellite: seats into a new target of this entry (default: none)",
        )
        parser.add_argument(
            "--registered-in-target",
            type=int,
            default=Plan.registered_in_target,
            help=f"bots already in the target (a seat they win is paid in cash) {DEFAULT}",
        )
        parser.add_argument(
            "--bounty", type=int, help="a knockout: this bounty on every entry (default: none)"
        )
        parser.add_argument(
            "--progressive",
            action="store_true",
            help="the bounty is a progressive knockout, half of a head paid at once (default: off)",
        )
        parser.add_argument(
            "--guarantee",
            type=int,
            default=Plan.guarantee,
            help=f"the least prize pool, the house's account funded with it first {DEFAULT}",
        )
        parser.add_argument(
            "--deal-at",
            type=int,
            help="with this many left at the final table the director offers an ICM deal "
            "(a tenth of the first prize played for) and the bots accept (default: none)",
        )
        parser.add_argument(
            "--steps",
            type=int,
            help="a step satellite chain of this many steps, each a sit-and-go of --players "
            "played in turn, its ticket winners entering the next (default: none)",
        )
        parser.add_argument(
            "--flights",
            type=int,
            help="a multi-flight event of this many starting flights of --players each, played "
            "side by side to a fifth of their fields, then its Day 2 (default: none)",
        )
        parser.add_argument(
            "--seed", type=int, default=Plan.seed, help=f"the bots' choices {DEFAULT}"
        )
        parser.add_argument(
            "--bot-threads",
            type=int,
            default=Plan.bot_threads,
            help=f"threads acting at the tables at once {DEFAULT}",
        )
        parser.add_argument(
            "--time-limit",
            type=float,
            default=Plan.time_limit,
            help=f"seconds of play before giving up {DEFAULT}",
        )
        parser.add_argument(
            "--progress-seconds",
            type=float,
            default=Plan.progress_seconds,
            help=f"a progress line at least this often, besides one a level {DEFAULT}",
        )
        parser.add_argument(
            "--no-worker",
            action="store_true",
            help="clocks run on a worker started elsewhere (default: one in this process)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.CLOCKS_ENABLED:
            raise CommandError("the clocks are off (CLOCKS_ENABLED): nothing would deal or move")
        plan = self._plan(options)
        from kernel import embedded_worker

        for noisy in ("celery", "kombu", "kernel.embedded_worker"):
            logging.getLogger(noisy).setLevel(logging.WARNING)  # the progress lines stand out
        if not options["no_worker"]:
            embedded_worker.start()
        try:
            report = simulate(plan, say=self._say)
        except (TimeoutError, ApiError, TournamentError) as error:
            raise CommandError(str(error)) from error
        finally:
            embedded_worker.stop()
        self.stdout.write(f"results: /api/tournaments/{report.tournament.pk}/results/")

    def _plan(self, options: dict[str, Any]) -> Plan:
        """The plan from the options, refused before anything is made."""
        fast = options["fast"]
        try:
            plan = Plan(
                players=options["players"],
                game=Game(options["game"]),
                betting=Betting(options["betting"]),
                table_size=options["table_size"],
                buy_in=options["buy_in"],
                fee=options["fee"],
                starting_stack=options["starting_stack"],
                level_minutes=_or(options["level_minutes"], fast, "level_minutes"),
                minute_seconds=_or(options["minute_seconds"], fast, "minute_seconds"),
                break_minutes=_or(options["break_minutes"], fast, "break_minutes"),
                rebuy_until=options["rebuy_until"],
                max_rebuys=options["max_rebuys"],
                add_on=options["add_on"],
                seat_value=options["seat_value"],
                registered_in_target=options["registered_in_target"],
                bounty=options["bounty"],
                progressive=options["progressive"],
                guarantee=options["guarantee"],
                deal_at=options["deal_at"],
                steps=options["steps"],
                flights=options["flights"],
                seed=options["seed"],
                time_limit=options["time_limit"],
                bot_threads=options["bot_threads"],
                progress_seconds=options["progress_seconds"],
            )
            plan.definition(None)  # what the rules refuse
        except (ValueError, TournamentError) as error:
            raise CommandError(str(error)) from error
        return plan

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
