"""WebSocket routes of the tables and players, mounted by ``config.routing``."""

from django.urls import URLPattern, URLResolver, path

from poker import consumers

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/me/", consumers.PlayerConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]
