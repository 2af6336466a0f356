"""stdio for judgment-mcp: the SDK's own transport (mcp.server.stdio.stdio_server, which owns
stdout and writes every reply), fed lines read here, for two things it leaves out
(docs/mcp.md, "The wire"):

- A line that is no JSON-RPC message gets the error reply JSON-RPC prescribes, with id null
  (wire.py). The SDK drops such a line unanswered, and decodes bytes that are not UTF-8 as
  U+FFFD, so they are read here, as bytes.
- When the client closes stdin, every request read so far is answered before the server
  stops (the SDK stops at once and drops the calls still running), except one the client
  cancelled (notifications/cancelled), which MCP answers with nothing.
"""
from __future__ import annotations

import collections
import contextlib
import os
import sys

import anyio
from mcp import types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from . import wire


def message(line: bytes):
    """(the SDK's message, None) for a valid line, (None, None) for a blank one, else (None,
    the error reply, wire.refusal)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return None, wire.refusal(line)
    if not text.strip():
        return None, None
    try:
        return types.jsonrpc_message_adapter.validate_json(text, by_name=False), None
    except ValueError:
        return None, wire.refusal(line)


class _Pending:
    """The ids of the requests read and not answered yet."""

    def __init__(self):
        self.ids = collections.Counter()
        self.changed = anyio.Event()

    def read(self, message):
        root = message.root if hasattr(message, "root") else message
        if isinstance(root, types.JSONRPCRequest):
            self.ids[root.id] += 1
        elif isinstance(root, types.JSONRPCNotification) and root.method == "notifications/cancelled":
            self.answered((root.params or {}).get("requestId"), every=True)

    def answered(self, id, every=False):
        if self.ids.get(id):
            self.ids[id] = 0 if every else self.ids[id] - 1
            self.ids += collections.Counter()  # drop zero counts
            self.changed.set()
            self.changed = anyio.Event()

    async def drained(self):
        while self.ids:
            await self.changed.wait()


class _Replies:
    """The server's write stream, noting each answer it sends (duck-types the SDK's stream)."""

    def __init__(self, inner, pending: _Pending):
        self.inner, self.pending = inner, pending

    async def send(self, item: SessionMessage):
        await self.inner.send(item)
        root = item.message
        root = root.root if hasattr(root, "root") else root
        if isinstance(root, (types.JSONRPCResponse, types.JSONRPCError)):
            self.pending.answered(root.id)

    def close(self):
        self.inner.close()

    async def aclose(self):
        await self.inner.aclose()

    def clone(self):
        return _Replies(self.inner.clone(), self.pending)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.aclose()


def _claim_stdin():
    """The wire's stdin as a private binary file; fd 0 becomes /dev/null, so that nothing the
    tools start can read the client's messages (as the SDK does for the stdin it claims)."""
    try:
        private = os.dup(0)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    except OSError:
        return sys.stdin.buffer
    return os.fdopen(private, "rb")


class _Lines:
    """The text lines the SDK's reader gets: only valid messages; a refused line is answered
    here; at the end of the input, the last line is held back until every request is
    answered, so the SDK's server keeps running them."""

    def __init__(self, wire, pending: _Pending):
        self.wire, self.pending = anyio.wrap_file(wire), pending
        self.replies = None
        self.ready = anyio.Event()

    async def __aiter__(self):
        await self.ready.wait()
        async for line in self.wire:
            parsed, refused = message(line)
            if refused:
                await self.replies.send(SessionMessage(types.JSONRPCError.model_validate(refused)))
            elif parsed is not None:
                self.pending.read(parsed)
                yield line.decode("utf-8")
        await self.pending.drained()


@contextlib.asynccontextmanager
async def stdio():
    """(read_stream, write_stream) for the SDK's server, as stdio_server() yields them."""
    pending = _Pending()
    lines = _Lines(_claim_stdin(), pending)
    async with stdio_server(stdin=lines) as (read, write):
        lines.replies = _Replies(write, pending)
        lines.ready.set()
        yield read, lines.replies


def serve(server) -> None:
    """`server.run("stdio")` (an MCPServer) over stdio() instead of the SDK's stdio_server():
    what MCPServer.run_stdio_async does in the SDK's 2.3 source, the one place that reaches
    its low-level server (`_lowlevel_server`, pinned by the `mcp` extra's version range)."""
    low = server._lowlevel_server

    async def go():
        async with stdio() as (read, write):
            await low.run(read, write, low.create_initialization_options())
    anyio.run(go)
