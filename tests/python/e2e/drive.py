"""One `claude -p` session in stream-json, driven as an SDK host drives it: a user message on
stdin, every line of stdout read; a `can_use_tool` control request is kept and answered by
`answer(request)` (the control response's `response` object), and the session ends at its
`result` line. Timeouts here are safety nets against a hang, never assertions about speed."""
import json
import os
import queue
import subprocess
import threading
import time

SAFETY = 120  # seconds: a session that has not ended by then is killed (a failure, not a bound)


def session(claude, env, cwd, answer, prompt="Ask me.", extra=()):
    argv = [claude, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
            "--permission-prompt-tool", "stdio", "--verbose", *extra]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=cwd, text=True)
    lines = queue.Queue()

    def pump():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)
    threading.Thread(target=pump, daemon=True).start()
    err = []
    threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True).start()
    send(proc, {"type": "user", "session_id": "", "parent_tool_use_id": None,
                "message": {"role": "user", "content": prompt}})
    seen, asked = [], []
    end = time.monotonic() + SAFETY
    try:
        while True:
            line = lines.get(timeout=max(0.1, end - time.monotonic()))
            if line is None:
                break
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            seen.append(msg)
            if msg.get("type") == "control_request" and \
                    msg.get("request", {}).get("subtype") == "can_use_tool":
                asked.append(msg["request"])
                send(proc, {"type": "control_response", "response": {
                    "subtype": "success", "request_id": msg["request_id"],
                    "response": answer(msg["request"])}})
            if msg.get("type") == "result":
                break
    except queue.Empty:
        pass
    finally:
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {"messages": seen, "asked": asked, "code": proc.returncode, "stderr": "".join(err)}


def send(proc, obj):
    proc.stdin.write(json.dumps(obj) + "\n")
    proc.stdin.flush()


def client_env(home, api_url, path, **more):
    return {"HOME": str(home), "PATH": path, "ANTHROPIC_BASE_URL": api_url,
            "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "TERM": "dumb",
            "LANG": os.environ.get("LANG", "C.UTF-8"), **more}
