"""The rules of the pot games as pure Python: no Django, no I/O, no clock.

A hand is a pure function of (rules, deck order, commands): see ``hand``.
"""
