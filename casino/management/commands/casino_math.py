"""``manage.py casino_math``: the game math of a casino table's settings
(``poker.engine.casino.report``): the best response and the reference
strategies played through the engine, the largest payout of a round and
the sensitivity table.  ``--pay LINE=N`` changes a pay line (hand names as
in the API: ``--pay full-house=3``), ``--jokers N`` the jokers;
``--rounds``, ``--processes`` and ``--dealer-samples`` size the work;
``--no-sensitivity`` skips the table of variations.

``--store`` computes only the figures a table's guard reads
(``poker.engine.casino.edge``: the model edge, the best response's
simulated edge and interval, the largest payout, the strategy card) and
stores them for the configuration (``casino.edge``); ``--json PATH``
writes them to a file (the default configuration's ship as
``casino/default_math.json``), with ``--store`` or without."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.edge import casino_math_store
from poker.engine.casino import CasinoRules, PayTable, report
from poker.engine.casino.decide import RULE_SETTINGS
from poker.engine.casino.edge import EdgeFigures, edge_figures
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
        parser.add_argument("--store", action="store_true")
        parser.add_argument("--json", metavar="PATH")

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
        if options["store"] or options["json"]:
            self.figures(rules, size, store=options["store"], path=options["json"])
            return
        for line in report.lines(rules, size):
            self.stdout.write(line)

    def figures(
        self, rules: CasinoRules, size: report.Size, *, store: bool, path: str | None
    ) -> None:
        """Compute the guard's figures; store them, write them to ``path``."""
        figures = edge_figures(rules, size)
        for line in figure_lines(figures):
            self.stdout.write(line)
        if store:
            row = casino_math_store(figures=figures)
            self.stdout.write(f"stored as casino math {row.pk}")
        if path:
            with open(path, "w") as out:
                json.dump(figures.to_json(), out, indent=2)
                out.write("\n")
            self.stdout.write(f"written to {path}")


def figure_lines(figures: EdgeFigures) -> list[str]:
    """The stored figures, as the command prints them."""
    return [
        f"configuration {figures.digest}",
        f"model house edge (best response): {figures.model_edge:.3%} of B",
        f"simulated house edge over {figures.rounds:,} rounds: {figures.simulated_edge:.3%} "
        f"(95% CI {figures.simulated_low:.3%} to {figures.simulated_high:.3%})",
        f"largest payout of one round: {figures.largest_payout} B",
        "strategy card:",
        *(f"  {line}" for line in figures.strategy_card),
    ]
