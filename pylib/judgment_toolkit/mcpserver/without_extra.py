"""judgment-mcp without the optional `mcp` extra (docs/mcp.md, "Without the extra"), standard
library only: it still speaks MCP over stdio, so a client connects and shows why the toolkit's
tools are missing instead of a bare "Failed to connect" (Claude Code shows no stderr there, and
then skips a server that failed for a while). The server's instructions, its one tool's
description and that tool's result (an error) all carry the one line that says how to install
the extra; the line also goes to stderr, once. Every other request is refused as JSON-RPC
refuses an unknown method; malformed lines are answered as the full server answers them.
"""
import json
import sys

from . import wire

PROTOCOLS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")  # newest first
TOOL = "how_to_install_the_mcp_extra"


def answer(request: dict, hint: str, version: str) -> dict:
    """The reply to one request."""
    result = _result(request, hint, version)
    if result is None:
        return wire.error(request["id"], wire.METHOD_NOT_FOUND,
                          f"Method not found: {request.get('method')!r} (this judgment-mcp "
                          f"lacks the `mcp` extra; {hint})")
    return {"jsonrpc": "2.0", "id": request["id"], "result": result}


def _result(request, hint, version):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        return {"protocolVersion": asked if asked in PROTOCOLS else PROTOCOLS[0],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "judgment-toolkit", "version": version},
                "instructions": hint}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [{"name": TOOL, "description": hint,
                           "inputSchema": {"type": "object", "properties": {}}}]}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": hint}], "isError": True}
    return None


def serve(hint: str, version: str, stdin=None, stdout=None) -> None:
    """Answer requests on stdin until it ends."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    for line in stdin:
        message, reply = wire.parse(line)
        if message is not None and ("method" not in message or "id" not in message):
            continue  # a notification or a response: nothing to answer
        if message is not None:
            reply = answer(message, hint, version)
        if reply is not None:
            stdout.write(json.dumps(reply) + "\n")
            stdout.flush()
