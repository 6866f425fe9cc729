"""Users and API clients for the app tests (each app's conftest.py builds
its ``make_user`` fixture here and imports ``client_for``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts import services
from tests.funds import fund


def user_maker(cash: int) -> Callable[..., Any]:
    """``make(name, cash=cash, staff=False, role=None)``: a user (password
    "pw") with ``cash`` deposited and ``role`` granted."""

    def make(name: str, *, cash: int = cash, staff: bool = False, role: str | None = None) -> Any:
        user = get_user_model().objects.create_user(name, password="pw", is_staff=staff)
        if role is not None:
            services.role_grant(user=user, role=role)
            user = get_user_model().objects.get(pk=user.pk)  # fresh permission cache
        return fund(user, cash) if cash else user

    return make


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """``client_for(user)``: an API client logged in as ``user`` (None: anonymous)."""

    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make
