"""Step satellites: a chain of satellites, Step 1 -> Step 2 -> ... -> the
target event, each step awarding tickets into the next.

A ticket into a step is good for any tournament of that step (a step runs
as many tournaments as the room schedules), so it is keyed by the step
(``step_ticket``), not by one tournament; a ticket into the target event is
a ticket into that tournament, as any satellite's.

Rules chosen (docs/rules.md 6, "Step satellites"):

- Step ``n``'s tournaments award seats into step ``n + 1`` (the last step's
  into the target event), each seat worth that step's entry price.
- The places just outside the seats may win a consolation ticket back into
  the same step or a step below, configured per place (``consolation[n]``:
  the steps of the first, second, ... place outside the seats).  They are
  paid from what the seats leave of the pool, in place order, while it
  covers them; whatever is left is cash to the next place.
- Every tournament of a step costs the step's entry price, so any of its
  tickets pays one entry whole.
- Step tickets are good until the chain's expiry; the director then cashes
  out every ticket still held, at its value (a ticket that can no longer be
  played is money).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.rules.checks import count, require
from tournaments.rules.definition import Consolation, Satellite

MAX_STEPS = 10


def step_ticket(chain: int, step: int) -> str:
    """The ticket reference of step ``step`` of chain ``chain``."""
    return f"step-{chain}-{step}"


@dataclass(frozen=True, slots=True)
class StepChain:
    """A chain's steps: ``prices[n - 1]`` is step n's entry price (buy-in
    and fee); ``consolation[n - 1]`` the steps the places just outside
    step n's seats win a ticket into (each at most n); the target event's
    entry price is ``target_price``."""

    prices: tuple[int, ...]
    target_price: int
    consolation: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        require(
            isinstance(self.prices, tuple) and 1 <= len(self.prices) <= MAX_STEPS,
            "steps",
            f"from 1 to {MAX_STEPS} steps",
            key="steps_count",
            values={"max_steps": MAX_STEPS},
        )
        for n, price in enumerate(self.prices, start=1):
            count(price, f"steps[{n}].price", 1)
        count(self.target_price, "target_price", 1)
        require(
            isinstance(self.consolation, tuple) and len(self.consolation) <= len(self.prices),
            "consolation",
            "at most one list per step",
            key="consolation_per_step",
        )
        for n, places in enumerate(self.consolation, start=1):
            require(
                isinstance(places, tuple),
                f"steps[{n}].consolation",
                "a list of steps",
                key="consolation_list",
            )
            for step in places:
                count(step, f"steps[{n}].consolation", 1, n)

    @property
    def steps(self) -> int:
        return len(self.prices)

    def price(self, step: int) -> int:
        """Step ``step``'s entry price."""
        return self.prices[step - 1]

    def consolation_of(self, step: int) -> tuple[int, ...]:
        """The steps of the consolation tickets of step ``step``, by place."""
        return self.consolation[step - 1] if step <= len(self.consolation) else ()

    def satellite(self, chain: int, step: int, target: int, seats: int | None = None) -> Satellite:
        """What step ``step``'s tournaments award: seats into the next step
        (the last: into tournament ``target``) and the step's consolation
        tickets."""
        count(step, "step", 1, self.steps)
        if step == self.steps:
            into, value = str(target), self.target_price
        else:
            into, value = step_ticket(chain, step + 1), self.price(step + 1)
        consolation = tuple(
            Consolation(step_ticket(chain, s), self.price(s)) for s in self.consolation_of(step)
        )
        return Satellite(into, value, seats, consolation)
