"""Tournaments: satellites and their tables, built on the cash-table engine."""
