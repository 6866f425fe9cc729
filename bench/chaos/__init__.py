"""The chaos run (``make chaos``, docs/chaos.md): the whole stack on
this machine, broken five times while bots play, then checked.

- ``instances``: the harness's own PostgreSQL and Redis (own directories
  and ports), started, restarted and stopped by it alone;
- ``stack``: the service's processes as deployed (uvicorn, Celery workers,
  beat), each a process group of its own;
- ``proxy``: the round-robin TCP proxy in front of the servers;
- ``bots``: the cash tables' bots over WebSockets and REST, that resume;
- ``satellite``: the satellite's bots, in a process of their own;
- ``checks``: what must hold once the stack has stopped;
- ``run``: the timeline, the faults, the phases and the report.
"""
