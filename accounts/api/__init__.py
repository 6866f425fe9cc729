"""The accounts REST API: players, wallets and the ledger."""
