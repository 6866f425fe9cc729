"""The embedded worker (``kernel.embedded_worker``): on the in-memory
transport only this process's threads share the broker, so beat runs in a
thread beside the worker, never in a child process (whose broker would be
its own, and which would outlive the server); ``stop`` ends it.  On
these defaults (SQLite, in-memory broker) a command writes its clock as a
row, the worker's waker thread sends the drain to the worker's thread
when it comes due, and the clock acts; beat has the tournament schedules
create their tournaments."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.process_groups import end_group

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, os, threading, time
from pathlib import Path
import django
django.setup()
from kernel import embedded_worker

def children():
    return [int(p) for task in Path("/proc/self/task").iterdir()
            for p in (task / "children").read_text().split()]

def beat_threads():
    return [t.name for t in threading.enumerate() if t.name == "Beat" and t.is_alive()]

embedded_worker.start()
deadline = time.monotonic() + 60
while not (beat_threads() or children()) and time.monotonic() < deadline:
    time.sleep(0.05)
found = {"children": children(), "beat_threads": beat_threads()}
embedded_worker.stop()
found["after_stop"] = beat_threads()
print(json.dumps(found), flush=True)
os._exit(0)
"""


CLOCK_PROBE = """
import json, os, threading, time, uuid
import django
django.setup()
from celery.signals import before_task_publish
from django.contrib.auth import get_user_model
from django.core.management import call_command
from accounts import money
from kernel import embedded_worker
from poker import services
from kernel.models import Event
from poker.models import Hand

published = []
before_task_publish.connect(
    lambda sender, **_: published.append([sender, threading.current_thread().name]), weak=False
)
call_command("migrate", verbosity=0)
embedded_worker.start()
users = get_user_model()
boss = users.objects.create_user("boss", is_staff=True)
table = services.table_create(
    by=boss, name="Clock", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2,
    action_seconds=1, bet_seconds=1, time_bank_seconds=0, pause_seconds=0,
)
for seat, name in enumerate(["ann", "bob"], start=1):
    user = users.objects.create_user(name)
    money.wallet_deposit(transfer_id=uuid.uuid4(), user_id=user.pk, amount=1000)
    services.seat_sit(by=user, table_id=table.pk, seat=seat, buy_in=100)
hand = Hand.objects.get(table=table, number=1)
deadline = time.monotonic() + 60
while Hand.objects.get(pk=hand.pk).ended_at is None and time.monotonic() < deadline:
    time.sleep(0.1)
folds = Event.objects.filter(stream=hand.stream, type="hand.folded")
found = {"timed_out": [e.data["timed_out"] for e in folds], "published": published}
embedded_worker.stop()
print(json.dumps(found), flush=True)
os._exit(0)
"""

SCHEDULE_PROBE = """
import json, os, time
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from accounts.services import role_grant
from kernel import embedded_worker
from tournaments.api.serializers import TemplateIn
from tournaments.models import Occurrence, Schedule

call_command("migrate", verbosity=0)
director = get_user_model().objects.create_user("director")
role_grant(user=director, role="tournament_director")
template = TemplateIn(data={
    "game": "32-card-draw", "betting": "pot-limit", "starting_stack": 1500, "buy_in": 10,
    "structure": {"preset": "standard"},
})
template.is_valid(raise_exception=True)
Schedule.objects.create(
    name="Nightly", template=dict(template.validated_data), every="daily", time="20:00",
    time_zone="Europe/Berlin", horizon_days=2, created_by=director,
)
embedded_worker.start()
deadline = time.monotonic() + 60
while Occurrence.objects.count() < 2 and time.monotonic() < deadline:
    time.sleep(0.1)
time.sleep(2.5)  # more runs of beat: nothing more to create
found = {"days": [str(d) for d in Occurrence.objects.values_list("day", flat=True)]}
embedded_worker.stop()
print(json.dumps(found), flush=True)
os._exit(0)
"""


def probe(tmp_path: Path, script: str = PROBE, **settings: str) -> dict[str, list[object]]:
    """Run ``script`` (it starts and stops the embedded worker) in a fresh
    interpreter, with ``settings`` in its environment, on a SQLite database
    of its own (in a process group of its own, ended whole); what it saw."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}",
        "LOG_LEVEL": "WARNING",
        **settings,
    }
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=120)
    finally:
        end_group(process)
    assert process.returncode == 0, err
    found: dict[str, list[object]] = json.loads(out.strip().splitlines()[-1])
    return found


def test_beat_runs_in_a_thread_of_the_process_and_stops_with_the_worker(tmp_path):
    found = probe(tmp_path)
    assert found["children"] == []  # no process forked off
    assert found["beat_threads"] == ["Beat"]
    assert found["after_stop"] == []


def test_a_clock_acts_by_its_timer_on_the_embedded_defaults(tmp_path):
    found = probe(tmp_path, CLOCK_PROBE)
    assert found["timed_out"] == [True]
    assert found["published"]  # the drain, sent by the waker once the clock came due
    assert {tuple(p) for p in found["published"]} == {("kernel.tasks.clock_drain", "clock-waker")}


def test_beat_has_the_schedules_create_their_tournaments_once_on_the_embedded_defaults(tmp_path):
    found = probe(tmp_path, SCHEDULE_PROBE, SCHEDULE_SECONDS="1")
    days = found["days"]
    assert len(days) == len(set(days)) == 2
