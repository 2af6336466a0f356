"""The three Claude Code hooks (docs/claude-kit.md, "What each hook does").

Each reads the hook's JSON from stdin, runs the installed tools the way a user does, and never
fails: whatever happens, exit 0, and nothing that would deny, ask about or change a tool call
(the PreToolUse output holds `additionalContext` only). Time is bounded by DEADLINE, stdin by
STDIN_LIMIT and the context handed to Claude by CONTEXT_LIMIT.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid

from judgment_toolkit.claude.kit import (CAPTURE_ON, CAPTURE_SWITCH, INSTALL_HINT,
                                         project_dir, project_name, tool_path)

DEADLINE = 5.0             # seconds for all of a hook's tool runs (hooks.json allows 10)
STDIN_LIMIT = 1 << 20      # a hook payload larger than this is ignored
CONTEXT_LIMIT = 4000       # bytes of additionalContext at most
PRIME_LIMIT = 5            # decisions primed at session start
TEXT_LIMIT = 300           # characters of one recalled field
CAPTURE_TAG = "claude-code"
ID_NAMESPACE = uuid.UUID("6f1c3a2e-5b0d-4c47-9a51-1d3c0c9e2b7a")  # capture ids: uuid5 in it


def read_payload(stream) -> dict | None:
    """The hook's JSON object, or None for empty, oversized or malformed stdin."""
    data = stream.buffer.read(STDIN_LIMIT + 1) if hasattr(stream, "buffer") else stream.read()
    if not data or len(data) > STDIN_LIMIT:
        return None
    try:
        payload = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    return payload if isinstance(payload, dict) else None


def tool_env(payload: dict) -> dict:
    """The tools keep the ledger under the project folder whatever the hook's cwd is."""
    return dict(os.environ, HARNESS_PROJECT_ROOT=project_dir(payload))


def start(argv, payload):
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=tool_env(payload),
                            cwd=project_dir(payload) if os.path.isdir(project_dir(payload)) else None)


def finish(proc, deadline) -> tuple[int, str]:
    """(exit code, stdout) of a started tool, killed at the deadline (then (-1, ""))."""
    try:
        out, err = proc.communicate(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return -1, ""
    sys.stderr.write(err.decode("utf-8", "replace")[:2000])  # debug log only
    return proc.returncode, out.decode("utf-8", "replace")


def session_start(payload: dict) -> None:
    """Prime the session with the project's recent judgments, on every source."""
    ledger = tool_path("judgment-ledger")
    if ledger is None:
        print(INSTALL_HINT)
        return
    proc = start([ledger, "prime", "--project", project_name(payload), "--limit",
                  str(PRIME_LIMIT)], payload)
    code, out = finish(proc, time.monotonic() + DEADLINE)
    if code == 0:
        sys.stdout.write(out[:CONTEXT_LIMIT])
    elif not ledger.endswith(".sh") or code == -1:
        return
    else:  # only the checkout's entry point was there, and it cannot run (no dependencies)
        print(INSTALL_HINT)


def questions(payload: dict) -> list:
    """tool_input.questions of an AskUserQuestion call, each {question, options: [...]}, as
    the hooks reference documents (section "PreToolUse input", "AskUserQuestion")."""
    tool_input = payload.get("tool_input")
    items = tool_input.get("questions") if isinstance(tool_input, dict) else None
    out = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("question"), str) and item["question"].strip():
            options = [o for o in item.get("options") or [] if isinstance(o, dict)
                       and isinstance(o.get("label"), str)] if isinstance(item.get("options"), list) else []
            out.append({"question": item["question"], "options": options})
    return out[:4]


def clip(text, limit=TEXT_LIMIT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def recall_context(project: str, asked: list, found: list) -> str:
    """The short list handed to Claude: one line per past decision, once each, within
    CONTEXT_LIMIT bytes (whole lines only)."""
    head = (f"Past judgments of project {project} from the Judgment Ledger that may answer "
            "the question(s) being asked; if one does, tell the person what they chose last "
            "time and why, and cite its mem_id.")
    lines, seen = [head], set()
    for question, items in zip(asked, found):
        for item in items:
            if not isinstance(item, dict) or item.get("mem_id") in seen:
                continue
            seen.add(item.get("mem_id"))
            why = f" because {clip(item['outcome'])}" if item.get("outcome") else ""
            line = (f"- For \"{clip(question['question'], 120)}\": on {item.get('decided_at', '?')} "
                    f"the person chose \"{clip(item.get('decision', ''))}\"{why} "
                    f"(asked: \"{clip(item.get('summary', ''), 160)}\"; mem_id {item.get('mem_id')})")
            if len("\n".join(lines + [line]).encode("utf-8")) > CONTEXT_LIMIT:
                return "\n".join(lines) if len(lines) > 1 else ""
            lines.append(line)
    return "\n".join(lines) if len(lines) > 1 else ""


def ask_recall(payload: dict) -> None:
    """PreToolUse on AskUserQuestion: recall each question's past judgments, in parallel."""
    asked = questions(payload)
    if not asked:
        return
    ledger = tool_path("judgment-ledger")
    if ledger is None:
        print(INSTALL_HINT)
        return
    project = project_name(payload)
    deadline = time.monotonic() + DEADLINE
    procs = []
    for q in asked:
        text = " ".join([q["question"]] + [o["label"] for o in q["options"]])
        procs.append(start([ledger, "recall", "--project", project, "--question", text], payload))
    found = []
    for proc in procs:
        code, out = finish(proc, deadline)
        try:
            items = json.loads(out) if code == 0 else []
        except ValueError:
            items = []
        found.append(items if isinstance(items, list) else [])
    context = recall_context(project, asked, found)
    if context:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                 "additionalContext": context}},
                         ensure_ascii=False))


def answers(payload: dict) -> dict:
    """{question text: answer} from tool_response.answers, else tool_input.answers (the
    documented field: question text -> label, multi-select labels joined with commas; an
    array of labels is accepted too)."""
    for field in ("tool_response", "tool_input"):
        holder = payload.get(field)
        got = holder.get("answers") if isinstance(holder, dict) else None
        if isinstance(got, dict) and got:
            return got
    return {}


def chosen(answer, options: list) -> list:
    """The chosen labels: the answer itself when it is one label, else its comma-separated
    parts (an array as given); free text the person typed stays one item."""
    labels = [o["label"] for o in options]
    if isinstance(answer, list):
        return [str(a) for a in answer if str(a).strip()]
    answer = str(answer)
    if answer in labels:
        return [answer]
    parts = [p.strip() for p in answer.split(",") if p.strip()]
    return parts if parts and all(p in labels for p in parts) else [answer.strip()]


def capture_id(session: str, tool_use: str, question: str) -> str:
    """The same payload delivered twice appends under the same id (stored once)."""
    return str(uuid.uuid5(ID_NAMESPACE, f"{session}\n{tool_use}\n{question}"))


def ask_capture(payload: dict) -> None:
    """PostToolUse on AskUserQuestion, only with JUDGMENT_CAPTURE=1: append each answer. (The
    hook's shell command checks the switch first, so with capture off no Python starts; this
    check holds for a direct `judgment-kit hook ask-capture`.)"""
    if os.environ.get(CAPTURE_SWITCH) != CAPTURE_ON:
        return
    session, tool_use = payload.get("session_id"), payload.get("tool_use_id")
    given = answers(payload)
    if not (isinstance(session, str) and session and isinstance(tool_use, str) and tool_use and given):
        return
    ledger = tool_path("judgment-ledger")
    if ledger is None:
        print(INSTALL_HINT)
        return
    deadline = time.monotonic() + DEADLINE
    for q in questions(payload):
        if q["question"] not in given:
            continue
        labels = chosen(given[q["question"]], q["options"])
        if not labels:
            continue
        described = {o["label"]: o.get("description") for o in q["options"]}
        why = "; ".join(d.strip() for d in (described.get(l) for l in labels)
                        if isinstance(d, str) and d.strip())
        argv = [ledger, "append", "--project", project_name(payload), "--question", q["question"],
                "--answer", ", ".join(labels), "--card-ref", f"claude-session:{session}#{tool_use}",
                "--tags", CAPTURE_TAG, "--id", capture_id(session, tool_use, q["question"])]
        finish(start(argv + (["--rationale", why] if why else []), payload), deadline)


HOOKS = {"session-start": session_start, "ask-recall": ask_recall, "ask-capture": ask_capture}


def run(argv) -> int:
    """Run one hook; exit 0 whatever happens (a problem is one line on stderr, which Claude
    Code keeps in its debug log)."""
    if "-h" in argv or "--help" in argv:
        from judgment_toolkit.claude.kit import USAGE
        sys.stdout.write(USAGE)
        return 0
    hook = HOOKS.get(argv[0]) if len(argv) == 1 else None
    if hook is None:
        sys.stderr.write(f"judgment-kit: hook: expected one of {', '.join(HOOKS)}\n")
        return 0
    try:
        payload = read_payload(sys.stdin)
        if payload is None and hook is not session_start:
            return 0
        hook(payload or {})
    except BaseException as exc:  # noqa: BLE001 - a hook never breaks the session
        sys.stderr.write(f"judgment-kit: hook {argv[0]}: skipped ({type(exc).__name__}: {exc})\n")
    try:
        sys.stdout.flush()
    except OSError:
        pass
    return 0
