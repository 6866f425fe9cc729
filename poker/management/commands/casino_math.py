"""``manage.py casino_math``: the game math of a casino table's settings
(``poker.engine.casino.report``): the best response and the reference
strategies played through the engine, the largest payout of a round and
the sensitivity table.  ``--pay LINE=N`` changes a pay line (hand names as
in the API: ``--pay full-house=3``), ``--jokers N`` the jokers;
``--rounds``, ``--processes`` and ``--dealer-samples`` size the work;
``--no-sensitivity`` skips the table of variations."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from poker.engine.casino import CasinoRules, PayTable, report
from poker.engine.casino.decide import RULE_SETTINGS
from poker.engine.errors import Malformed
from poker.engine.settings import check_all


class Command(BaseCommand):
    help = (
        "The house edge of a casino table's settings against the best response and the "
        "reference strategies, with the largest payout of a round and a sensitivity table."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--jokers", type=int, default=CasinoRules().jokers)
        parser.add_argument("--pay", action="append", default=[], metavar="LINE=N")
        parser.add_argument("--rounds", type=int, default=report.FULL.rounds)
        parser.add_argument("--processes", type=int, default=report.FULL.processes)
        parser.add_argument("--dealer-samples", type=int, default=report.FULL.dealer_samples)
        parser.add_argument("--no-sensitivity", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        changes: dict[str, int] = {}
        for item in options["pay"]:
            line, _, pays = item.partition("=")
            if not pays.isdigit():
                raise CommandError(f"--pay takes LINE=N, not {item!r}")
            changes[line] = int(pays)
        try:
            rules = CasinoRules(jokers=options["jokers"], pay_table=PayTable.from_json(changes))
            check_all(rules, RULE_SETTINGS)
        except Malformed as exc:
            raise CommandError(str(exc)) from exc
        if min(options["rounds"], options["processes"], options["dealer_samples"]) < 1:
            raise CommandError("--rounds, --processes and --dealer-samples are at least 1")
        size = replace(
            report.FULL,
            rounds=options["rounds"],
            processes=options["processes"],
            dealer_samples=options["dealer_samples"],
            sensitivity=not options["no_sensitivity"],
        )
        for line in report.lines(rules, size):
            self.stdout.write(line)
