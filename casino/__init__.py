"""Casino tables: Casino Draw Poker against the house (RULES.md 5), an app
beside the cash tables (``poker``; neither imports the other) on the same
kernel (event store, command path, clocks) and ledger.  Its rules are the
pure engine's ``poker.engine.casino``; ``apps.CasinoConfig.ready`` connects
it to the layers below.

Write side: ``services`` (one function per command) through ``commands.CASINO.run``
(lock, fold, decide, money, append, project, clock) on a ``work.CasinoWork``;
``clocks`` for the betting window and the decision clock (kernel clocks,
fired by the kernel's drain).  Read side: ``selectors`` (the list of tables, a table as
one viewer may see it), over the read models ``projections`` writes.
"""
