"""The admin app with the room's own site (``config.admin_site``); once
ready, the channel layer's message format is registered (``config.layer_format``)
and sockets ask ``config.ws_auth`` whether their credential still works."""

from django.contrib.admin.apps import AdminConfig


class RoomAdminConfig(AdminConfig):
    default_site = "config.admin_site.RoomAdminSite"

    def ready(self) -> None:
        super().ready()
        from config import layer_format, ws_auth
        from kernel.signals import credentials_checked

        layer_format.register()  # before any channel layer is made
        credentials_checked.connect(ws_auth.credential_valid, dispatch_uid="ws-credential")
