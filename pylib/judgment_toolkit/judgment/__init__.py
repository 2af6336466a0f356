"""Judgment Ledger v1 and judgment-card.v1 helpers.

The shell entry points (scripts/judgment-ledger.sh, scripts/judgment-card.sh) own the command
line and run judgment.jobs as a child (docs/internals.md, "Two layers"); the modules here are a small library: record (build + validate), ledger (paths, locked append,
streaming reads), search (ranking), recall (card items), card, mem (harness-mem client).
Importing this package imports nothing heavy: search and recall never load jsonschema or ulid.
"""
