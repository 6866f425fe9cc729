"""The API docs page works with no internet: Swagger UI comes from the project.

The page and every script, stylesheet and icon it loads are served by the
application itself, with ``DEBUG`` off (as tests run, and as a production
``make run`` does), through Django's test client and through the ASGI
application that daphne serves.
"""

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator

DOCS = "/api/docs/"


class _Assets(HTMLParser):
    """The URLs of the scripts, stylesheets and icons a page loads."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script" and found.get("src"):
            self.urls.append(found["src"] or "")
        if tag == "link" and found.get("href"):
            self.urls.append(found["href"] or "")


def _assets(html: str) -> list[str]:
    parser = _Assets()
    parser.feed(html)
    return [urljoin(DOCS, url) for url in parser.urls]


async def _asgi_get_async(path: str) -> dict:
    """GET ``path`` from config.asgi's application: its status and whole body
    (a streamed file comes in several body messages, the last maybe empty)."""
    from config.asgi import application

    scope = {
        "type": "http", "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"localhost")], "client": ("127.0.0.1", 1), "server": None,
    }  # fmt: skip
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    body, more = b"", True
    while more:
        message = await communicator.receive_output(10)
        body += message.get("body", b"")
        more = message.get("more_body", False)
    await communicator.wait(10)
    return {"status": start["status"], "body": body}


def _asgi_get(path: str) -> dict:
    return async_to_sync(_asgi_get_async)(path)


def test_docs_page_names_no_outside_host(client):
    html = client.get(DOCS).content.decode()
    assert not re.findall(r"https?://[^\s\"'<>]+", html)
    assert not re.findall(r"(?<![:\w])//[\w.-]+\.\w+/", html)  # protocol-relative


def test_docs_page_loads_swagger_ui_scripts_and_stylesheet(client):
    urls = _assets(client.get(DOCS).content.decode())
    names = {urlsplit(url).path.rsplit("/", 1)[-1] for url in urls}
    assert {"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"} <= names
    assert all(urlsplit(url).netloc == "" for url in urls), urls


def test_every_asset_of_the_docs_page_is_served(client):
    urls = _assets(client.get(DOCS).content.decode())
    assert urls
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert body, url


def test_every_asset_of_the_docs_page_is_served_by_the_asgi_application():
    """What ``make run`` serves (daphne on config.asgi), with DEBUG off."""
    page = _asgi_get(DOCS)
    assert page["status"] == 200
    urls = _assets(page["body"].decode())
    assert urls
    for url in urls:
        response = _asgi_get(url)
        assert response["status"] == 200, url
        assert response["body"], url
