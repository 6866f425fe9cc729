"""The browser client's page and files, as the server serves them: one
page at ``/`` that loads ES modules and a stylesheet from the static files
(WhiteNoise, no build step), each module with a JavaScript type, every
module it imports there too, and nothing from another host."""

from __future__ import annotations

import re
from pathlib import Path

from django.contrib.staticfiles import finders
from django.test import Client

MODULE = re.compile(r"""from\s+["']\./([\w.-]+\.js)["']""")


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


def test_the_page_at_the_root_loads_the_client_as_a_module(client: Client) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert '<script type="module" src="/static/client/app.js">' in html
    assert 'href="/static/client/app.css"' in html
    assert "http://" not in html and "https://" not in html  # no CDN: it works offline


def test_the_page_changes_nothing_so_only_safe_methods_reach_it(client: Client) -> None:
    assert client.post("/").status_code == 405


def test_every_module_is_served_as_javascript_and_every_import_resolves(client: Client) -> None:
    seen: set[str] = set()
    todo = ["app.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        response = client.get(f"/static/client/{name}")
        assert response.status_code == 200, name
        assert response["Content-Type"].split(";")[0] == "text/javascript", name
        todo.extend(MODULE.findall(_body(response).decode()))
    assert {"api.js", "table.js", "casino.js", "hands.js", "lobby.js", "wallet.js"} <= seen


def test_the_stylesheet_is_served_as_css(client: Client) -> None:
    response = client.get("/static/client/app.css")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")


def test_the_client_files_come_from_the_client_app() -> None:
    found = finders.find("client/app.js")
    assert found is not None and "client/static/client/app.js" in str(found)


def test_the_icon_is_served_and_the_browsers_own_guess_finds_it(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'rel="icon" type="image/svg+xml" href="/static/client/favicon.svg"' in html
    icon = client.get("/static/client/favicon.svg")
    assert icon.status_code == 200 and b"<svg" in _body(icon)
    guessed = client.get("/favicon.ico")
    assert (guessed.status_code, guessed["Location"]) == (302, "/static/client/favicon.svg")


def test_the_page_runs_only_its_own_scripts_and_styles(client: Client) -> None:
    """A Content-Security-Policy: scripts, styles and connections from this
    server only, nothing inline (the page has none, and the modules style
    through the CSSOM, which the policy allows)."""
    page = client.get("/")
    policy = dict(
        (part.split()[0], part.split()[1:]) for part in page["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["connect-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    html = page.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and "<style" not in html
    assert not re.search(r"\sstyle=|\son\w+=", html)
    for name in ("dom.js", "felt.js"):
        module = (Path(finders.find(f"client/{name}"))).read_text()
        assert not re.search(r"""setAttribute\(\s*["']style""", module), name
