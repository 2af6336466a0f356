"""A harness-mem stand-in for the bats tests: a real http.server on 127.0.0.1 (random port).

    python3 judgment_mem_server.py DIR [STATUS]

Writes DIR/port once listening; every POST is saved as DIR/request.json
({"path", "headers", "body"}) and answered with STATUS (default 200). Runs until killed.
"""
import http.server
import json
import os
import sys

out_dir = sys.argv[1]
status = int(sys.argv[2]) if len(sys.argv) > 2 else 200


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        capture = {"path": self.path, "headers": dict(self.headers.items()),
                   "body": body.decode("utf-8")}
        tmp = os.path.join(out_dir, "request.json.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(capture, f, ensure_ascii=False)
        os.replace(tmp, os.path.join(out_dir, "request.json"))
        self.send_response(status)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(out_dir, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.replace(os.path.join(out_dir, "port.tmp"), os.path.join(out_dir, "port"))
server.serve_forever()
