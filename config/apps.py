"""The admin app with the room's own site (``config.admin_site``); once
ready, the channel layer's message format is registered (``config.layer_format``)
and the collector's pauses are watched (``kernel.stalls``)."""

from django.contrib.admin.apps import AdminConfig


class RoomAdminConfig(AdminConfig):
    default_site = "config.admin_site.RoomAdminSite"

    def ready(self) -> None:
        super().ready()
        from config import layer_format
        from kernel import stalls

        layer_format.register()  # before any channel layer is made
        stalls.watch_gc()
