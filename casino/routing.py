"""WebSocket routes of the casino tables, mounted by ``config.routing``."""

from django.urls import URLPattern, URLResolver, path

from casino.consumers import CasinoTableConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/casino/tables/<int:table_id>/", CasinoTableConsumer.as_asgi()),
]
