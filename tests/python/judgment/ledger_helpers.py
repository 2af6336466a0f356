"""Helpers for the judgment tests: run the real scripts, read ledgers, a real HTTP capture server.

(Named ledger_helpers, not conftest, so it cannot shadow the shared tests/python/conftest.py.)
"""
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import ROOT, SCRIPTS  # noqa: F401 (the one definition, tests/python/conftest.py)

LEDGER_SH = SCRIPTS / "judgment-ledger.sh"
CARD_SH = SCRIPTS / "judgment-card.sh"
PYLIB = ROOT / "pylib"
# what writes the files generated from templates/lexicon.txt again (lexicon.generated): the tests
# of each print it when its file is not the lexicon's
LEXICON_REWRITE = (".venv/bin/python -c \"from judgment_toolkit.judgment import lexicon; "
                   "from judgment_toolkit import packaged; "
                   "[open(packaged.path(f), 'w', encoding='utf-8').write(t) for f, t in "
                   "lexicon.generated(packaged.text('lexicon', lexicon.PACKAGED)).items()]\"")

CARD = {
    "question": "Use Redis or Postgres for the job queue?",
    "options": [
        {"id": "redis", "label": "Redis", "consequence": "one more service to run"},
        {"id": "postgres", "label": "Postgres", "consequence": "no new service; SKIP LOCKED"},
    ],
    "recommendation": "postgres",
    "confidence": "medium",
    "impact": "queue latency and operations load",
    "diff_summary": "adds a jobs table and a worker loop",
}


def hermetic_env(tmp_path, **extra):
    """An environment that cannot see the developer's ledger or harness-mem."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_", "PYTEST_"))}
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env["HOME"] = str(home)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def fresh_python(tmp_path, code, *args):
    """The output of `code` run by a fresh interpreter (`python -c code args`) that imports the
    project's pylib, in a hermetic environment; its exit status must be 0. For what only a new
    process shows: what it imports, compiles or stems from its start."""
    r = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                       text=True, env=hermetic_env(tmp_path, PYTHONPATH=PYLIB))
    assert r.returncode == 0, r.stderr
    return r.stdout


def run(script, *args, env, cwd=None, input=None, timeout=60):
    return subprocess.run([str(script), *map(str, args)], env=env, cwd=cwd, input=input,
                          capture_output=True, text=True, timeout=timeout)


def ledger(*args, env, cwd=None):
    return run(LEDGER_SH, *args, env=env, cwd=cwd)


def card(*args, env, cwd=None):
    return run(CARD_SH, *args, env=env, cwd=cwd)


def append_args(project="demo", question="Which queue?", answer="postgres", card_ref="cards/q.json",
                **more):
    args = ["append", "--project", project, "--question", question, "--answer", answer,
            "--card-ref", card_ref]
    for key, value in more.items():
        args += ["--" + key.replace("_", "-"), value]
    return args


def lines(path):
    return Path(path).read_bytes().splitlines()


def records(path):
    return [json.loads(line) for line in lines(path)]


def write_records(path, recs):
    with open(path, "w", encoding="utf-8") as f:
        for rec in recs:
            f.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")


def rec(n, project="demo", question=None, answer="a", rationale="", tags=(), decided_at=None):
    return {"id": f"id-{n}", "project": project,
            "decided_at": decided_at or f"2026-01-{n % 28 + 1:02d}T00:00:00Z",
            "question": question or f"question {n}", "answer": answer, "rationale": rationale,
            "card_ref": "c", "tags": list(tags)}


def write_card(path, card=None, **changes):
    doc = dict(CARD if card is None else card)
    doc.update(changes)
    Path(path).write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")
    return Path(path)


@pytest.fixture(scope="session")
def nodeps_python(tmp_path_factory):
    """A real interpreter without jsonschema or ulid: a venv made with --without-pip."""
    venv = tmp_path_factory.mktemp("nodeps") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import jsonschema"], capture_output=True)
    assert probe.returncode != 0, "the bare venv unexpectedly has jsonschema"
    return python


class CaptureServer:
    """A real http.server on 127.0.0.1 (random port) that records every request."""

    def __init__(self, status=200):
        self.status = status
        self.requests = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.requests.append({"method": "POST", "path": self.path,
                                       "headers": dict(self.headers.items()), "body": body})
                self.send_response(outer.status)
                if 300 <= outer.status < 400:
                    self.send_header("Location", "/elsewhere")
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


class RawServer:
    """A real TCP server on 127.0.0.1 for one connection, driven by `serve(conn)` in a thread;
    records the events the timeout tests assert on: the request arrived, the client closed the
    connection (and after how long, measured by the server)."""

    def __init__(self, serve):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.port = self.sock.getsockname()[1]
        self.serve = serve
        self.stop = threading.Event()
        self.got_request = threading.Event()
        self.client_closed = threading.Event()
        self.open_for = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        began = time.monotonic()
        with conn:
            if conn.recv(65536):
                self.got_request.set()
            try:
                self.serve(self, conn)
            except OSError:  # the client went away while we were writing
                pass
            if not self.stop.is_set():
                self.client_closed.set()
                self.open_for = time.monotonic() - began

    def wait_for_close(self, conn):
        """Block until the client closes (recv returns b"") or the test ends."""
        conn.settimeout(0.2)
        while not self.stop.is_set():
            try:
                if conn.recv(65536) == b"":
                    return
            except socket.timeout:
                continue

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.sock.close()
        self.thread.join(5)


def closed_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def relevance_ids(env, query, project="demo", command="search"):
    """The ids that `search` (or `recall`) --rank relevance finds, best first; it must succeed
    silently."""
    flag = "--query" if command == "search" else "--question"
    r = ledger(command, "--project", project, flag, query, "--rank", "relevance", env=env)
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
    if command == "recall":
        return [i["mem_id"].split(":", 1)[1] for i in json.loads(r.stdout)]
    return [json.loads(line)["id"] for line in r.stdout.splitlines()]
