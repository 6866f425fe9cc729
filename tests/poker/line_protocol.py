"""The crash drivers' side of their line protocol: one JSON request a line
on stdin (``op`` plus arguments), one JSON reply a line on stdout
(``{"ok": ...}``, or ``{"refused": code}`` for a refusal)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

from kernel.api_errors import ApiError


def serve(ops: Mapping[str, Callable[..., Any]]) -> None:
    """Answer each request on stdin with ``ops[op](**arguments)``."""
    for line in sys.stdin:
        request = json.loads(line)
        op = ops[request.pop("op")]
        try:
            reply = {"ok": op(**request)}
        except ApiError as error:
            reply = {"refused": error.code}
        print(json.dumps(reply, default=str), flush=True)
