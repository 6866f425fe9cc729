"""WebSocket routes of the cash tables, mounted by ``config.asgi``."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
