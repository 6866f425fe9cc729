"""Kernel test fixtures: the real Celery workers of the clock tests."""

from tests.poker.clock_support import clock_queue, start_worker  # noqa: F401 - fixtures
