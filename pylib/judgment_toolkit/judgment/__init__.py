"""Judgment Ledger v1 and judgment-card.v1 helpers.

The shell entry points (scripts/judgment-ledger.sh, scripts/judgment-card.sh) call judgment.cli;
the modules here are a small library: record (build + validate), ledger (paths, locked append,
streaming reads), search (ranking), recall (card items), card, mem (harness-mem client).
Importing this package imports nothing heavy: search and recall never load jsonschema or ulid.
"""
