"""judgment-mcp: the judgment ledger and the decision history over the Model Context Protocol
(stdio), built on the official SDK (the optional `mcp` extra). See docs/mcp.md.

Only main.py is imported without the extra; it says how to install it (exit 69) when `mcp` is
missing, so the base package never imports mcp.
"""
