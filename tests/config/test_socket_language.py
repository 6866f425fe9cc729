"""A socket's language: its query's ``lang``, else the logged-in player's
account language, else its handshake's ``Accept-Language``, else English;
only languages the room speaks."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from kernel.languages import socket_language


def scope(query: str = "", header: str | None = None, language: str | None = None) -> Any:
    user = None if language is None else SimpleNamespace(is_authenticated=True, language=language)
    headers = [] if header is None else [(b"accept-language", header.encode())]
    return {"query_string": query.encode(), "headers": headers, "user": user}


@pytest.mark.parametrize(
    ("socket", "spoken"),
    [
        (scope("lang=de", header="en", language="en"), "de"),  # the page's language first
        (scope("ticket=x", header="en", language="de"), "de"),  # then the account's
        (scope(header="fr, de;q=0.8, en;q=0.5", language=""), "de"),  # then the browser's
        (scope(header="de;q=0.2, en;q=0.9"), "en"),  # by weight, not order
        (scope(header="de;q=0, fr"), "en"),  # q=0 is a refusal; nothing spoken: English
        (scope("lang=xx", header="de-AT"), "de"),  # an unknown pick is passed over
        (scope(), "en"),
    ],
)
def test_the_socket_speaks_the_first_language_asked_for_that_the_room_speaks(
    socket: Any, spoken: str
) -> None:
    assert socket_language(socket) == spoken


def test_without_the_account_its_language_is_not_asked() -> None:
    assert socket_language(scope(header="en", language="de"), account=False) == "en"
