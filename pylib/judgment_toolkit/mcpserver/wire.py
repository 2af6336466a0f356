"""JSON-RPC's answer to a line that is not one message (docs/mcp.md, "The wire"), standard
library only: the SDK's transport (transport.py) and the server that runs without the `mcp`
extra (without_extra.py) both answer with it.

-32700 (parse error) for bytes that are not UTF-8 or text that is not JSON; -32600 (invalid
request) for JSON that is not one message (a batch, `"jsonrpc": "1.0"`, a string, an object
without a method). The id is null: JSON-RPC 2.0, "Response object", when the request's id
could not be read.
"""
import json

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND = -32700, -32600, -32601
NAMES = {str: "a string", int: "a number", float: "a number", bool: "true or false",
         type(None): "null"}


def error(id, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


def parse(line: bytes):
    """(message, None) for a JSON object on a line, (None, None) for a blank line, else
    (None, the error reply)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, error(None, PARSE_ERROR, f"Parse error: the line is not UTF-8 (byte {e.start})")
    if not text.strip():
        return None, None
    try:
        data = json.loads(text)
    except ValueError as e:
        return None, error(None, PARSE_ERROR, f"Parse error: {e}")
    if isinstance(data, list):
        why = "a batch (an array); send one message per line"
    elif not isinstance(data, dict):
        why = f"{NAMES.get(type(data), 'not an object')}, not an object"
    elif data.get("jsonrpc") != "2.0":
        why = 'not "jsonrpc": "2.0"'
    else:
        return data, None
    return None, error(None, INVALID_REQUEST, f"Invalid Request: {why}")


def refusal(line: bytes) -> dict:
    """The error reply to a line that is no valid message of the protocol."""
    _, reply = parse(line)
    return reply or error(None, INVALID_REQUEST,
                          "Invalid Request: not a request, a notification or a response of MCP")
