"""Accounts: players, roles and the wallet ledger."""
