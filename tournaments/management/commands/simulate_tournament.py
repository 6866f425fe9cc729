"""``manage.py simulate_tournament --players N --game 32-card-draw ...``: bots
play a whole tournament through the real services and clocks, a progress
line per level (``tournaments.simulation``)."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.api_errors import ApiError
from poker.engine.rules import Betting, Game
from tournaments.rules import TournamentError
from tournaments.simulation import Plan, simulate


class Command(BaseCommand):
    help = (
        "Bots play a sit-and-go (a satellite with --seat-value, rebuys with --rebuy-until) "
        "to the end through the services and the clocks; a line per level."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, required=True, help="bots in the field")
        parser.add_argument(
            "--game", choices=[g.value for g in Game], default=Game.THIRTY_TWO_CARD_DRAW.value
        )
        parser.add_argument(
            "--betting", choices=[b.value for b in Betting], default=Betting.NO_LIMIT.value
        )
        parser.add_argument(
            "--table-size", type=int, help="seats per table (default: the game's most)"
        )
        parser.add_argument("--buy-in", type=int, default=100)
        parser.add_argument("--fee", type=int, default=10)
        parser.add_argument("--starting-stack", type=int, default=Plan.starting_stack)
        parser.add_argument("--level-minutes", type=int, default=Plan.level_minutes)
        parser.add_argument(
            "--minute-seconds",
            type=int,
            default=Plan.minute_seconds,
            help="seconds in a minute of the clock: 60 in play, fewer to scale it down",
        )
        parser.add_argument("--rebuy-until", type=int, help="rebuys through this level")
        parser.add_argument("--max-rebuys", type=int, default=Plan.max_rebuys)
        parser.add_argument("--add-on", action="store_true", help="an add-on after the rebuys")
        parser.add_argument(
            "--seat-value", type=int, help="a satellite: seats into a new target of this entry"
        )
        parser.add_argument(
            "--registered-in-target",
            type=int,
            default=0,
            help="bots already in the target (a seat they win is paid in cash)",
        )
        parser.add_argument("--seed", type=int, default=1, help="the bots' choices")
        parser.add_argument(
            "--bot-threads", type=int, default=1, help="threads acting at the tables at once"
        )
        parser.add_argument("--time-limit", type=float, default=Plan.time_limit, help="seconds")
        parser.add_argument(
            "--no-worker",
            action="store_true",
            help="clocks run on a worker started elsewhere (default: one in this process)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.CLOCKS_ENABLED:
            raise CommandError("the clocks are off (CLOCKS_ENABLED): nothing would deal or move")
        plan = self._plan(options)
        from config import embedded_worker

        for noisy in ("celery", "kombu", "config.embedded_worker"):
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
        try:
            plan = Plan(
                players=options["players"],
                game=Game(options["game"]),
                betting=Betting(options["betting"]),
                table_size=options["table_size"],
                buy_in=options["buy_in"],
                fee=options["fee"],
                starting_stack=options["starting_stack"],
                level_minutes=options["level_minutes"],
                minute_seconds=options["minute_seconds"],
                rebuy_until=options["rebuy_until"],
                max_rebuys=options["max_rebuys"],
                add_on=options["add_on"],
                seat_value=options["seat_value"],
                registered_in_target=options["registered_in_target"],
                seed=options["seed"],
                time_limit=options["time_limit"],
                bot_threads=options["bot_threads"],
            )
            plan.definition(None)  # what the rules refuse
        except (ValueError, TournamentError) as error:
            raise CommandError(str(error)) from error
        return plan

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
