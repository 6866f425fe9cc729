"""The admin app with the room's own site (``config.admin_site``)."""

from django.contrib.admin.apps import AdminConfig


class RoomAdminConfig(AdminConfig):
    default_site = "config.admin_site.RoomAdminSite"
