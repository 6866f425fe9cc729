"""The kernel: what every stream of the room runs on, below every app.

Today it holds the one clock mechanism (``kernel.clocks``): timers kept as
rows, set in a command's own transaction and fired by a drain.
"""
