"""A scripted stand-in for the Messages API, for driving the real Claude Code offline.

An http.server on 127.0.0.1 (a free port). A request that offers the AskUserQuestion tool and
holds no tool result yet is answered with a `tool_use` of AskUserQuestion with the input the
test chose; any other request (the turn after the answer, a title or a summary) with a short
text and `end_turn`. Streaming requests get the server-sent events of the Messages API
(message_start, content_block_start/delta/stop, message_delta, message_stop); others one JSON
message. Every request body is kept in `requests`, to read what Claude Code sent back.
"""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ASK = "AskUserQuestion"


def _has_tool_result(body):
    return any(isinstance(block, dict) and block.get("type") == "tool_result"
               for message in body.get("messages") or [] if isinstance(message.get("content"), list)
               for block in message["content"])


def _offers_ask(body):
    return any(isinstance(tool, dict) and tool.get("name") == ASK for tool in body.get("tools") or [])


def _events(content, stop_reason, model):
    """The stream of one message: one content block per item, then the stop."""
    yield "message_start", {"type": "message_start", "message": {
        "id": "msg_scripted", "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}}
    for index, block in enumerate(content):
        if block["type"] == "tool_use":
            yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}}
        else:
            yield "content_block_start", {"type": "content_block_start", "index": index,
                                          "content_block": {"type": "text", "text": ""}}
            yield "content_block_delta", {"type": "content_block_delta", "index": index,
                                          "delta": {"type": "text_delta", "text": block["text"]}}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": stop_reason,
                                                               "stop_sequence": None},
                            "usage": {"output_tokens": 5}}
    yield "message_stop", {"type": "message_stop"}


class ScriptedAPI:
    def __init__(self, ask_input):
        self.ask_input = ask_input
        self.requests = []
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):  # model lists and the like: an empty answer
                self._send(200, "application/json", b'{"data": []}')

            def do_HEAD(self):
                self._send(200, "application/json", b"")

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                api.requests.append({"path": self.path, "body": body})
                if "count_tokens" in self.path:
                    return self._send(200, "application/json", b'{"input_tokens": 10}')
                if _offers_ask(body) and not _has_tool_result(body):
                    content = [{"type": "tool_use", "id": "toolu_scripted_1", "name": ASK,
                                "input": api.ask_input}]
                    stop = "tool_use"
                else:
                    content, stop = [{"type": "text", "text": "Noted."}], "end_turn"
                model = body.get("model", "claude-scripted")
                if body.get("stream"):
                    data = "".join(f"event: {name}\ndata: {json.dumps(event)}\n\n"
                                   for name, event in _events(content, stop, model)).encode()
                    return self._send(200, "text/event-stream", data)
                message = {"id": "msg_scripted", "type": "message", "role": "assistant",
                           "model": model, "content": content, "stop_reason": stop,
                           "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}
                self._send(200, "application/json", json.dumps(message).encode())

            def _send(self, status, kind, data):
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
