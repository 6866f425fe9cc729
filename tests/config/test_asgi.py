"""The ASGI application routes HTTP to Django (what `make run` serves)."""

import json

from asgiref.sync import async_to_sync
from channels.routing import ProtocolTypeRouter
from channels.testing import HttpCommunicator


def test_asgi_application_routes_http_and_websocket():
    from config.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


def test_asgi_application_serves_health():
    from config.asgi import application

    communicator = HttpCommunicator(
        application, "GET", "/api/health/", headers=[(b"host", b"localhost")]
    )
    response = async_to_sync(communicator.get_response)()
    assert response["status"] == 200
    assert json.loads(response["body"]) == {"status": "ok"}
