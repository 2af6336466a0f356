"""The Claude Code kit (docs/claude-kit.md): `judgment-kit`'s command line (cli), the facts the
hooks and the setup share (kit), the three hooks (hooks) and `setup-claude` (setup).

Nothing here is imported by the ledger, the history or the MCP server: the kit stands on them.
"""
