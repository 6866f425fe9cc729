"""Player, role and wallet-ledger models. None yet."""
