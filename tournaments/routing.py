"""WebSocket routes of tournaments (mounted by ``config.routing``)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import consumers

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/tournaments/", consumers.TournamentLobbyConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", consumers.TournamentConsumer.as_asgi()),
]
