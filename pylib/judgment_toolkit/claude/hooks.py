"""The three Claude Code hooks (docs/claude-kit.md, "What each hook does").

Each reads the hook's JSON from stdin and never fails: whatever happens, exit 0. The recall
reads the ledger in this process; SessionStart and capture run the installed tools the way a
user does. Nothing here denies or asks about a tool call: the PreToolUse output holds
`updatedInput` (the same question with the past decision added, see claude.annotate) and
`additionalContext`, never a permission decision. Time is bounded by DEADLINE, stdin by
STDIN_LIMIT and the context handed to Claude by CONTEXT_LIMIT.
"""
from __future__ import annotations

import json
import os
import sys
import time

from judgment_toolkit.claude import annotate
from judgment_toolkit.claude.kit import (CAPTURE_ON, CAPTURE_SWITCH, INSTALL_HINT,
                                         project_dir, project_name, tool_path)

DEADLINE = 5.0             # seconds for all of a hook's tool runs (hooks.json allows 10)
STDIN_LIMIT = 1 << 20      # a hook payload larger than this is ignored
CONTEXT_LIMIT = 4000       # bytes of additionalContext at most
PRIME_LIMIT = 5            # decisions primed at session start
TEXT_LIMIT = 300           # characters of one recalled field
CAPTURE_TAG = "claude-code"
ID_NAMESPACE = "6f1c3a2e-5b0d-4c47-9a51-1d3c0c9e2b7a"  # capture ids: uuid5 in this UUID


def read_payload(stream) -> dict | None:
    """The hook's JSON object, or None for empty, oversized or malformed stdin (Claude Code
    sends UTF-8; json.loads would take UTF-16 or UTF-32 bytes too, so they are decoded first)."""
    data = stream.buffer.read(STDIN_LIMIT + 1) if hasattr(stream, "buffer") else stream.read()
    if not data or len(data) > STDIN_LIMIT:
        return None
    try:
        payload = json.loads(data.decode("utf-8") if isinstance(data, bytes) else data)
    except (ValueError, UnicodeDecodeError):
        return None
    return payload if isinstance(payload, dict) else None


def tool_env(payload: dict) -> dict:
    """The tools keep the ledger under the project folder whatever the hook's cwd is."""
    return dict(os.environ, HARNESS_PROJECT_ROOT=project_dir(payload))


def start(argv, payload):
    import subprocess  # only capture runs a tool: the recall pays no import for it
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=tool_env(payload),
                            cwd=project_dir(payload) if os.path.isdir(project_dir(payload)) else None)


def finish(proc, deadline) -> tuple[int, str]:
    """(exit code, stdout) of a started tool, killed at the deadline (then (-1, ""))."""
    import subprocess
    try:
        out, err = proc.communicate(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return -1, ""
    sys.stderr.write(err.decode("utf-8", "replace")[:2000])  # debug log only
    return proc.returncode, out.decode("utf-8", "replace")


def session_start(payload: dict) -> None:
    """Prime the session with the project's recent judgments, on every source: what
    `judgment-ledger prime --limit PRIME_LIMIT` prints, read in this process."""
    from judgment_toolkit.judgment import deps
    if deps.missing():
        print(INSTALL_HINT)
        return
    from judgment_toolkit.judgment import ledger, prime
    project = project_name(payload)
    path = ledger.default_path(env=tool_env(payload), cwd=project_dir(payload))
    try:
        found = prime.recent(path, project, PRIME_LIMIT)
    except prime.Unreadable as exc:  # a folder, a FIFO, no permission: the session starts bare
        sys.stderr.write(f"judgment-kit: hook session-start: skipped ({exc})\n")
        return
    from judgment_toolkit import output
    output.write(prime.markdown(project, found)[:CONTEXT_LIMIT])


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


def context_line(question: str, answer: dict) -> str:
    """One past decision for the model: what it answers, what was chosen and why, when, its
    mem_id, and the decision it reversed, if any."""
    from judgment_toolkit.judgment.recall import MEM_PREFIX
    rec = answer["record"]
    why = rec.get("rationale") if isinstance(rec.get("rationale"), str) else ""
    line = (f"- For \"{clip(question, 120)}\": on {rec.get('decided_at', '?')} the person chose "
            f"\"{clip(rec.get('answer', ''))}\"{f' because {clip(why)}' if why.strip() else ''} "
            f"(asked: \"{clip(rec.get('question', ''), 160)}\"; mem_id {MEM_PREFIX}{rec.get('id')})")
    earlier = answer.get("earlier") or []
    if earlier:
        old = earlier[0]
        line += (f"; this reversed \"{clip(old.get('answer', ''), 80)}\" of "
                 f"{str(old.get('decided_at', '?'))[:10]} (mem_id {MEM_PREFIX}{old.get('id')})")
    return line


def recall_context(project: str, asked: list, found: list) -> str:
    """The short list handed to Claude: one line per past decision, once each, within
    CONTEXT_LIMIT bytes (whole lines only)."""
    head = (f"Past judgments of project {project} from the Judgment Ledger that answer the "
            "question(s) being asked (the person sees each next to the question or the option "
            "chosen then); tell the person what they chose last time and why, and cite its mem_id.")
    lines, seen = [head], set()
    for question, answers in zip(asked, found):
        for answer in answers:
            mem_id = answer["record"].get("id")
            if mem_id in seen:
                continue
            seen.add(mem_id)
            line = context_line(question["question"], answer)
            if len("\n".join(lines + [line]).encode("utf-8")) > CONTEXT_LIMIT:
                return "\n".join(lines) if len(lines) > 1 else ""
            lines.append(line)
    return "\n".join(lines) if len(lines) > 1 else ""


def recalled(payload: dict, asked: list) -> list:
    """inject.answers for each question, in this process (docs/claude-kit.md, "What each hook
    costs"): the ledger the tools would read for the project folder."""
    from judgment_toolkit.judgment import inject, inject_pass, ledger
    path = ledger.default_path(env=tool_env(payload), cwd=project_dir(payload))
    project = project_name(payload)
    # the collector paused for the whole recall, the analysis and the lexicon too, not only the
    # pass: they make tens of thousands of objects and no cycle, and the hook's process ends
    # right after
    with inject_pass.GcPaused():
        return [inject.answers(path, project, q["question"], [o["label"] for o in q["options"]],
                               header=q["header"]) for q in asked]


def ask_recall(payload: dict) -> None:
    """PreToolUse on AskUserQuestion: the past decisions that answer each question, shown to
    the person in `updatedInput` and to Claude in `additionalContext`; no permission decision
    (with "allow" Claude Code would take updatedInput as the answer). Nothing found, or an
    input not of AskUserQuestion's shape: nothing printed."""
    tool_input = payload.get("tool_input")
    asked = annotate.shape(tool_input)
    if asked is None:
        return
    from judgment_toolkit.judgment import deps
    if deps.missing("relevance"):  # nothing installed where the hook runs, nor can its tools
        print(INSTALL_HINT)
        return
    found = recalled(payload, asked)
    if not any(found):
        return
    out = {"hookEventName": "PreToolUse"}
    from judgment_toolkit.judgment import inject  # (imported already by the recall)
    updated = annotate.annotate(tool_input, found, inject.option_of)
    if updated is not None:
        out["updatedInput"] = updated
    context = recall_context(project_name(payload), asked, found)
    if context:
        out["additionalContext"] = context
    if len(out) > 1:
        print(json.dumps({"hookSpecificOutput": out}))  # ASCII: whatever the locale


def answers(payload: dict) -> dict:
    """{question text: answer} from tool_response.answers, else tool_input.answers (the
    documented field: question text -> label, multi-select labels joined with commas; an
    array of labels is accepted too)."""
    for field in ("tool_response", "tool_input"):
        holder = payload.get(field)
        got = holder.get("answers") if isinstance(holder, dict) else None
        if isinstance(got, dict) and got:
            return {annotate.strip(k): v for k, v in got.items()}  # keyed by the text shown
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
    import uuid
    return str(uuid.uuid5(uuid.UUID(ID_NAMESPACE), f"{session}\n{tool_use}\n{question}"))


def ask_capture(payload: dict) -> None:
    """PostToolUse on AskUserQuestion, only with JUDGMENT_CAPTURE=1: append each answer. (The
    hook's shell command checks the switch first, so with capture off no Python starts; this
    check holds for a direct `judgment-kit hook ask-capture`.)"""
    if os.environ.get(CAPTURE_SWITCH) != CAPTURE_ON:
        return
    # what the person was asked: the text the rest of the session sees, without the recall's note
    payload = dict(payload, tool_input=annotate.strip_input(payload.get("tool_input")))
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
