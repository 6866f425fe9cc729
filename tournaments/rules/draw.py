"""The one place randomness enters the tournament rules.

Seat draws shuffle with ``random.Random`` seeded from the command's
``seed``: the service draws the seed from ``secrets``, so the draw is
unpredictable, and a decision is still a function of (state, command) that
tests can repeat.  The outcome is recorded in the events; replaying a
stream never draws again.
"""

from __future__ import annotations

import random

from tournaments.rules.seating import Shuffler


def shuffler(seed: int) -> Shuffler:
    """A random source for one decision."""
    return random.Random(seed)
