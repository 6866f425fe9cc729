"""deploy/ as it ships: the production profile passes Django's deployment
checks, the compose file and the systemd units run the same processes,
nginx accepts its configuration, and the backup and restore commands of
docs/operations.md give back the same database."""

from __future__ import annotations

import getpass
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management.utils import get_random_secret_key

from tests import run

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
OPERATIONS = ROOT / "docs" / "operations.md"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def production_env(**more: str) -> dict[str, str]:
    """deploy/production.env, as a process sees it, with the secrets of
    deploy/secrets.env.example filled in."""
    key = get_random_secret_key()
    env = {"PATH": os.environ.get("PATH", ""), "SECRET_KEY": key, "LEDGER_KEY": key}
    for line in (DEPLOY / "production.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            env[name] = value
    return {**env, **more}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def needs(tool: str) -> str:
    """The path of ``tool``; a test without it is skipped (failed under CI,
    whose .ci/run installs it)."""
    found = shutil.which(tool)
    if found is None:
        if IN_CI:
            pytest.fail(f"{tool} is not installed (.ci/run installs it)")
        pytest.skip(f"{tool} is not installed")
    return found


# --- The production profile ----------------------------------------------------


def test_check_deploy_is_clean_on_the_production_profile():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env())
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_secret_keys_are_read_as_they_are_even_when_they_start_with_a_dollar():
    """django-environ reads "$name" as the value of variable ``name``: a
    random key starting with "$" came out empty (production refused to
    start, one run in fifty)."""
    found = profile(
        production_env(
            SECRET_KEY="$x" + "k" * 50, LEDGER_KEY="$ledger", SECRET_KEY_FALLBACKS="$a,b"
        )
    )
    assert found["secret_key"] == "$x" + "k" * 50 and found["ledger_key"] == "$ledger"
    assert found["fallbacks"] == ["$a", "b"]


def test_check_deploy_warns_when_the_ledger_key_would_follow_the_secret_key():
    env = production_env()
    del env["LEDGER_KEY"]
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    assert "(accounts.W001) LEDGER_KEY is not set" in result.stderr + result.stdout


def test_the_production_profile_refuses_to_start_without_a_secret_key():
    env = production_env()
    del env["SECRET_KEY"]
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "DJANGO_ENV=production needs SECRET_KEY" in result.stderr


PRINT = """
import json
from django.conf import settings as s
print(json.dumps({
    "debug": s.DEBUG, "ssl_redirect": s.SECURE_SSL_REDIRECT, "hsts": s.SECURE_HSTS_SECONDS,
    "session_secure": s.SESSION_COOKIE_SECURE, "csrf_secure": s.CSRF_COOKIE_SECURE,
    "proxy_header": getattr(s, "SECURE_PROXY_SSL_HEADER", None),
    "formatter": s.LOGGING["handlers"]["console"]["formatter"],
    "fallbacks": s.SECRET_KEY_FALLBACKS, "staff_otp": s.STAFF_REQUIRE_OTP,
    "secret_key": s.SECRET_KEY, "ledger_key": s.LEDGER_KEY,
}))
"""


def profile(env: dict[str, str]) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", PRINT], cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_production_profile_is_https_only_with_secure_cookies_hsts_and_json_logs():
    found = profile(production_env(SECRET_KEY_FALLBACKS="old-key-1,old-key-2"))
    del found["secret_key"], found["ledger_key"]
    assert found == {
        "debug": False,
        "ssl_redirect": True,
        "hsts": 31_536_000,
        "session_secure": True,
        "csrf_secure": True,
        "proxy_header": ["HTTP_X_FORWARDED_PROTO", "https"],
        "formatter": "json",
        "fallbacks": ["old-key-1", "old-key-2"],
        "staff_otp": True,
    }


def test_the_zero_config_development_profile_is_left_as_it_was():
    found = profile({"PATH": os.environ.get("PATH", "")})
    assert found["debug"] is True and found["ssl_redirect"] is False
    assert (found["hsts"], found["session_secure"], found["proxy_header"]) == (0, False, None)
    assert found["formatter"] == "plain"
    assert found["staff_otp"] is False  # make run needs no authenticator


# --- Containers ------------------------------------------------------------------


def compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_runs_the_database_redis_servers_workers_one_beat_and_nginx():
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", "release", "web", "worker", "beat", "nginx"}
    assert services["web"]["deploy"]["replicas"] == "${WEB_REPLICAS:-2}"
    assert services["worker"]["deploy"]["replicas"] == "${WORKER_REPLICAS:-2}"
    assert services["beat"]["deploy"]["replicas"] == 1
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert "migrate" in " ".join(services["release"]["command"])
    assert "collectstatic" in " ".join(services["release"]["command"])
    assert sorted(services["nginx"]["ports"]) == ["443:443", "80:80"]
    # The site replaces the image's default one (both would take port 80).
    assert (
        "./nginx/pokerroom.conf:/etc/nginx/conf.d/default.conf:ro" in services["nginx"]["volumes"]
    )


def test_every_app_service_is_on_the_production_profile_and_waits_for_the_release():
    services = compose()["services"]
    for name in ("web", "worker", "beat"):
        service = services[name]
        assert service["env_file"] == ["production.env", "secrets.env"], name
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0", name
        assert service["environment"]["PROMETHEUS_MULTIPROC_DIR"] == "/run/metrics", name
        wait = service["depends_on"]
        assert wait["release"] == {"condition": "service_completed_successfully"}, name
        assert wait["postgres"] == {"condition": "service_healthy"}, name


def test_the_image_serves_uvicorn_on_the_production_profile():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    cmd = json.loads(re.search(r"^CMD (\[.*?\])$", dockerfile, re.MULTILINE | re.DOTALL)[1]
                     .replace("\\\n", ""))  # fmt: skip
    assert cmd[:2] == ["uvicorn", "config.asgi:application"]
    assert "--proxy-headers" in cmd
    assert "DJANGO_ENV=production" in dockerfile
    assert "collectstatic" in dockerfile
    assert re.search(r"^USER app$", dockerfile, re.MULTILINE)


def test_every_asgi_server_reads_websocket_messages_no_larger_than_a_consumer_accepts():
    """uvicorn's default is 16 MiB, daphne's 1 MiB: each command line that
    starts one (the image, the units, ``make run``, the tests' and the
    bench's servers) bounds it at ``MAX_FRAME``."""
    from kernel.consumers import MAX_FRAME

    uvicorn = f"--ws-max-size {MAX_FRAME}"
    daphne = f"--websocket-max-message-size {MAX_FRAME} --websocket-max-frame-size {MAX_FRAME}"
    lines = {
        "Dockerfile": (DEPLOY / "Dockerfile").read_text().replace('", "', " "),
        "unit": (UNITS / "pokerroom-web@.service").read_text(),
        "Makefile": (ROOT / "Makefile").read_text(),
        "cluster": (ROOT / "tests" / "integration" / "cluster.py")
        .read_text()
        .replace('"\n        "', ""),
        "nginx test": (ROOT / "tests" / "integration" / "test_behind_nginx.py")
        .read_text()
        .replace('", "', " "),
        "bench": re.sub(r'",\s*"', " ", (ROOT / "bench" / "websockets.py").read_text()),
    }
    for name, text in lines.items():
        if "uvicorn" in text:
            assert uvicorn in text, name
    assert daphne in lines["Makefile"] and daphne in lines["cluster"]


def test_every_file_compose_mounts_or_reads_is_in_the_repository():
    services = compose()["services"]
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith("./") and source != "./certs":  # certs: the operator's
                assert (DEPLOY / source).exists(), (name, source)
    assert (DEPLOY / "production.env").exists() and (DEPLOY / "secrets.env.example").exists()


# --- nginx -----------------------------------------------------------------------


def nginx_config(tmp_path: Path, upstream: str) -> Path:
    """A main configuration around the shipped files, with a throwaway
    certificate in place of the operator's."""
    subprocess.run(
        [needs("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(tmp_path / "privkey.pem"),
         "-out", str(tmp_path / "fullchain.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = (DEPLOY / "nginx" / "pokerroom.conf").read_text()
    for path in ("/etc/nginx/certs/", "/var/log/nginx/"):
        site = site.replace(path, f"{tmp_path}/")
    (tmp_path / "pokerroom.conf").write_text(site)
    main = tmp_path / "nginx.conf"
    main.write_text(
        # Workers as this user (as root, nginx would take "nobody", who
        # cannot read the test's files); ignored when not root.
        f"user {getpass.getuser()};\n"
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  include {DEPLOY / 'nginx' / upstream};\n"
        f"  include {tmp_path}/pokerroom.conf;\n}}\n"
    )
    return main


def test_nginx_accepts_the_configuration_with_the_systemd_upstream(tmp_path):
    main = nginx_config(tmp_path, "upstream.systemd.conf")
    result = subprocess.run(
        [needs("nginx"), "-t", "-c", str(main), "-p", f"{tmp_path}/"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_nginx_proxies_websockets_to_every_server_and_keeps_probes_inside():
    site = (DEPLOY / "nginx" / "pokerroom.conf").read_text()
    assert "proxy_set_header Upgrade $http_upgrade;" in site
    assert "proxy_set_header Connection $connection_upgrade;" in site
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in site
    assert "location = /metrics { return 404; }" in site
    assert "location = /readyz  { return 404; }" in site
    assert "alias /srv/pokerroom/static/;" in site
    for conf in (DEPLOY / "nginx").glob("*.conf"):  # any server serves any client
        directives = re.sub(r"#.*", "", conf.read_text())
        assert "ip_hash" not in directives and "sticky" not in directives, conf.name
    servers = re.findall(r"server (\S+) ", (DEPLOY / "nginx" / "upstream.systemd.conf").read_text())
    ports = [s.rsplit(":", 1)[1] for s in servers]
    target = (DEPLOY / "systemd" / "pokerroom.target").read_text()
    assert ports and all(f"pokerroom-web@{port}.service" in target for port in ports)


def test_nginx_sends_every_request_of_a_table_to_one_server_by_its_id():
    """Both upstreams pick a server by the consistent hash of the route key
    (before keepalive, as nginx requires), and the key is the table's id
    for its sockets and its API, a request's own id for the rest
    (tests/integration/test_behind_nginx.py runs it)."""
    site = (DEPLOY / "nginx" / "pokerroom.conf").read_text()
    route = re.search(r"^map \$uri \$pokerroom_route \{\n(.*?)^\}", site, re.MULTILINE | re.DOTALL)
    assert route, "no map of $pokerroom_route"
    lines = [line.split() for line in route[1].strip().splitlines()]
    assert lines == [
        ['"~^/(?:ws|api)/tables/(?<route_table>[0-9]+)/"', '"table-$route_table";'],
        ["default", "$request_id;"],
    ]
    for name in ("upstream.systemd.conf", "upstream.compose.conf"):
        directives = [
            line.strip()
            for line in re.sub(r"#.*", "", (DEPLOY / "nginx" / name).read_text()).splitlines()
            if line.strip()
        ]
        assert directives[1] == "hash $pokerroom_route consistent;", name
        assert directives[-2] == "keepalive 32;", name
    # Under compose, each replica on a line of its own (a service name's
    # replicas would share one place on the ring): the default two.
    compose_servers = re.findall(
        r"^\s*server (\S+) ", (DEPLOY / "nginx" / "upstream.compose.conf").read_text(), re.M
    )
    assert compose_servers == ["pokerroom-web-1:8000", "pokerroom-web-2:8000"]
    assert compose()["name"] == "pokerroom"


def test_static_files_get_hashed_names_that_nginx_keeps_a_year(tmp_path):
    """collectstatic on the production profile hashes every name and
    rewrites the client's module imports to the hashed names (a cached
    module of the last release is never loaded); nginx, serving the
    collected directory, marks hashed names immutable for a year and plain
    ones for an hour."""
    static = tmp_path / "static"
    # The client's files only: the admin's and Swagger UI's (five times the
    # work, all of it compression) go through the same storage at release.
    others = ("admin", "rest_framework", "drf_spectacular_sidecar")
    result = manage("collectstatic", "--noinput", "--verbosity", "0",
                    *(arg for name in others for arg in ("-i", name)),
                    env=production_env(STATIC_ROOT=str(static)))  # fmt: skip
    assert result.returncode == 0, result.stderr
    paths = json.loads((static / "staticfiles.json").read_text())["paths"]
    app = paths["client/app.js"]
    assert re.fullmatch(r"client/app\.[0-9a-f]{12}\.js", app)
    imports = re.findall(r'from "\./([^"]+)"', (static / app).read_text())
    assert imports and {f"client/{name}" for name in imports} <= set(paths.values())

    main = nginx_config(tmp_path, "upstream.systemd.conf")
    http, https = free_port(), free_port()
    site = tmp_path / "pokerroom.conf"
    site.write_text(
        site.read_text()
        .replace("listen 80 ", f"listen 127.0.0.1:{http} ")
        .replace("listen 443 ", f"listen 127.0.0.1:{https} ")
        .replace("/srv/pokerroom/static/", f"{static}/")
    )
    nginx = needs("nginx")
    started = subprocess.run([nginx, "-c", str(main), "-p", f"{tmp_path}/"],
                             capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert started.returncode == 0, started.stderr
    try:
        hashed = cache_control(https, f"/static/{app}")
        plain = cache_control(https, "/static/client/app.js")
    finally:
        subprocess.run([nginx, "-c", str(main), "-p", f"{tmp_path}/", "-s", "stop"],
                       capture_output=True, timeout=60, check=False)  # fmt: skip
    assert hashed == "public, max-age=31536000, immutable"
    assert plain == "public, max-age=3600"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cache_control(port: int, path: str) -> str | None:
    """The Cache-Control of a 200 answer from nginx over TLS (its throwaway
    certificate unchecked)."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    for _ in range(50):  # nginx forks its workers after it returns
        try:
            conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=5, context=context)
            conn.request("GET", path)
            break
        except ConnectionRefusedError:
            time.sleep(0.1)
    answer = conn.getresponse()
    assert answer.status == 200, (path, answer.status)
    return answer.getheader("Cache-Control")


# --- systemd ---------------------------------------------------------------------

UNITS = DEPLOY / "systemd"


def test_the_systemd_units_verify(tmp_path):
    """``systemd-analyze verify`` finds nothing wrong but the paths of the
    machine they are for (here the repository's virtualenv stands in)."""
    analyze = needs("systemd-analyze")
    venv = Path(sys.executable).parent.parent
    names = []
    for unit in UNITS.iterdir():
        text = unit.read_text().replace("/srv/pokerroom/venv", str(venv))
        name = unit.name.replace("@.", "@1.")
        (tmp_path / name).write_text(text)
        names.append(str(tmp_path / name))
    result = subprocess.run(
        [analyze, "verify", *names], capture_output=True, text=True, timeout=60, check=False
    )
    problems = [
        line for line in (result.stderr + result.stdout).splitlines()
        if str(tmp_path) in line or "pokerroom" in line
    ]  # fmt: skip
    assert not problems, "\n".join(problems)


def test_the_units_run_the_same_processes_as_compose():
    def exec_start(name: str) -> str:
        text = (UNITS / name).read_text().replace("\\\n", " ")
        return " ".join(" ".join(re.findall(r"^ExecStart=(.*)$", text, re.MULTILINE)).split())

    assert "uvicorn config.asgi:application" in exec_start("pokerroom-web@.service")
    assert "--proxy-headers" in exec_start("pokerroom-web@.service")
    assert "celery -A config worker" in exec_start("pokerroom-worker@.service")
    assert "celery -A config beat" in exec_start("pokerroom-beat.service")
    assert "manage.py migrate" in exec_start("pokerroom-release.service")
    assert "manage.py collectstatic" in exec_start("pokerroom-release.service")
    for unit in UNITS.glob("*.service"):
        text = unit.read_text()
        assert "EnvironmentFile=/etc/pokerroom/pokerroom.env" in text, unit.name
        assert "EnvironmentFile=/etc/pokerroom/secrets.env" in text, unit.name
    target = (UNITS / "pokerroom.target").read_text()
    assert target.count("pokerroom-beat.service") == 1


# --- Backup and restore ----------------------------------------------------------


def documented_commands() -> list[str]:
    """The shell commands of the backup section of docs/operations.md."""
    text = OPERATIONS.read_text()
    section = text.split("## Backing up and restoring the database", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_the_documented_commands_are_a_dump_a_restore_and_two_checks():
    commands = documented_commands()
    assert [c.split()[0] for c in commands[:2]] == ["pg_dump", "pg_restore"]
    assert "migrate --check" in commands[2] and "audit_ledger" in commands[3]


@pytest.mark.postgres
def test_the_documented_backup_and_restore_give_back_the_same_database(pg_dsn, tmp_path):
    """A database with a played hand in it (migrated and filled by the
    service itself), dumped and restored into an empty one with the
    commands of docs/operations.md, as written there: every table has the
    same rows, and the restored ledger audits clean."""
    import psycopg

    needs("pg_dump"), needs("pg_restore")
    base = pg_dsn.rsplit("/", 1)[0]
    source, copy = (run.database_name(f"backup_{n}") for n in ("from", "to"))
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{source}"')
        admin.execute(f'CREATE DATABASE "{copy}"')
    env = {
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"{base}/{source}",
        "RESTORE_URL": f"{base}/{copy}",
        "BACKUP": str(tmp_path / "room.dump"),
    }
    try:
        filled = subprocess.run(
            [sys.executable, "-c", FILL], cwd=ROOT, env=env,
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert filled.returncode == 0, filled.stderr[-3000:]
        for command in documented_commands():
            ran = subprocess.run(
                ["bash", "-c", command], cwd=ROOT, env=env,
                capture_output=True, text=True, timeout=300, check=False,
            )  # fmt: skip
            assert ran.returncode == 0, (command, ran.stderr[-3000:])
        assert rows(env["RESTORE_URL"]) == rows(env["DATABASE_URL"])
        assert rows(env["RESTORE_URL"])["poker_event"] > 0
    finally:
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            for name in (source, copy):
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


FILL = """
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
call_command("migrate", verbosity=0)
from poker import services, selectors
from poker.models import Table
from tests.funds import fund
users = get_user_model()
boss = users.objects.create_user("boss", is_staff=True)
table = services.table_create(
    by=boss, name="t", game="32-card-draw", betting="no-limit", small_blind=1, big_blind=2
)
players = [fund(users.objects.create_user(n)) for n in ("ann", "bob")]
for seat, player in enumerate(players, start=1):
    services.seat_sit(by=player, table_id=table.pk, seat=seat, buy_in=100)
for player in players:
    hand = selectors.table_view(Table.objects.get(pk=table.pk), player)["hand"]
    if hand["your_seat"] == hand["to_act"]:
        services.hand_act(by=player, table_id=table.pk, hand=hand["id"],
                          version=hand["version"], action="fold")
        break
"""


def rows(url: str) -> dict[str, int]:
    """Rows in each table of the public schema."""
    import psycopg

    with psycopg.connect(url) as conn:
        tables = [
            name for (name,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]  # fmt: skip
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
