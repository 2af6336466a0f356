"""harness-mem checkpoint client: one POST with a short timeout, fail-open."""
import os
import threading
import urllib.error
import urllib.request

from judgment_toolkit.jsonutil import compact, compact_bytes

TIMEOUT = 1.0
PATH = "/v1/checkpoints/record"
TITLE_CHARS = 60


def configured(env=None):
    """HARNESS_MEM_HOME set, else ~/.harness-mem or ~/.claude-mem exists."""
    env = os.environ if env is None else env
    if env.get("HARNESS_MEM_HOME"):
        return True
    home = env.get("HOME") or os.path.expanduser("~")
    return any(os.path.exists(os.path.join(home, d)) for d in (".harness-mem", ".claude-mem"))


def url(env=None):
    env = os.environ if env is None else env
    host = env.get("HARNESS_MEM_HOST") or "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{env.get('HARNESS_MEM_PORT') or '37888'}{PATH}"


def payload(card, answer, why, project, session, env=None):
    env = os.environ if env is None else env
    content = {"card": card, "answer": answer, "why": why}
    return {
        "session_id": session,
        "title": "judgment: " + card["question"][:TITLE_CHARS],
        "content": compact(content),
        "platform": env.get("HARNESS_MEM_PLATFORM") or "harness",
        "project": project,
        "tags": ["judgment-card"],
    }


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx is an answer that is not 2xx, not something to follow


def post(body, env=None):
    """POST the checkpoint; True on a 2xx answer within TIMEOUT, False on anything else (never
    raises). urllib's timeout bounds each socket operation, not the request: a server that
    answers slowly, a few bytes at a time, could hold it far longer. So the request runs in a
    daemon thread that is abandoned after TIMEOUT (it dies with the process)."""
    result = []
    worker = threading.Thread(target=lambda: result.append(_post(body, env)), daemon=True)
    worker.start()
    worker.join(TIMEOUT)
    return bool(result) and result[0]


def _post(body, env):
    env = os.environ if env is None else env
    headers = {"Content-Type": "application/json"}
    if env.get("HARNESS_MEM_ADMIN_TOKEN"):
        headers["Authorization"] = "Bearer " + env["HARNESS_MEM_ADMIN_TOKEN"]
    try:
        data = compact_bytes(body)
    except UnicodeEncodeError:  # a lone surrogate from a \ud800 in the card: send it escaped
        data = compact(body, ascii_only=True).encode("ascii")
    # No proxies: harness-mem is a local daemon, and an HTTP_PROXY must not see its token.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect)
    try:
        request = urllib.request.Request(url(env), data=data, headers=headers, method="POST")
        with opener.open(request, timeout=TIMEOUT) as response:
            return 200 <= response.status < 300
    except Exception:  # unreachable, refused, timeout, bad URL, non-2xx (HTTPError)
        return False
