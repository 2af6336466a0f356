"""PostToolUse hook on AskUserQuestion: one ledger record per answered question.

Standard library only (any python3 on the hook's PATH); the write is the installed
`judgment-ledger append` (argv[1]) with an --id derived from session, tool use and question, so
the same payload delivered twice is stored once (append's --id rule). Answers come from
`tool_response.answers`, else `tool_input.answers`: a map of question text to the chosen label,
multi-select labels joined with commas.
"""

import json
import os
import subprocess
import sys
import uuid

MAX_STDIN = 1 << 20
APPEND_TIMEOUT = 5.0
ID_SPACE = uuid.UUID("5b1f3c2e-8d4a-4f7e-9c6b-1a2d3e4f5a6b")  # fixed: ids stay stable across runs


def answers(payload):
    for holder in (payload.get("tool_response"), payload.get("tool_input")):
        found = holder.get("answers") if isinstance(holder, dict) else None
        if isinstance(found, dict) and found:
            return found
    return {}


def labels(value):
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    return [part.strip() for part in str(value).split(",") if part.strip()]


def rationale(item, chosen):
    by_label = {o.get("label"): o.get("description") for o in item.get("options") or []
                if isinstance(o, dict)}
    said = [by_label[c] for c in chosen if isinstance(by_label.get(c), str) and by_label[c]]
    return "; ".join(said)


def records(payload):
    given = answers(payload)
    asked = (payload.get("tool_input") or {}).get("questions") or []
    session, use = payload.get("session_id") or "", payload.get("tool_use_id") or ""
    for item in asked if isinstance(asked, list) else []:
        question = item.get("question") if isinstance(item, dict) else None
        if not isinstance(question, str) or question not in given:
            continue
        chosen = labels(given[question])
        if not chosen:
            continue
        yield {"question": question, "answer": ", ".join(chosen),
               "rationale": rationale(item, chosen),
               "card_ref": f"claude-session:{session}#{use}",
               "id": str(uuid.uuid5(ID_SPACE, "\x1f".join((session, use, question))))}


def main(argv):
    try:
        payload = json.loads(sys.stdin.read(MAX_STDIN) or "null")
    except ValueError:
        return 0
    if not isinstance(payload, dict) or len(argv) < 2:
        return 0
    root = os.environ.get("CLAUDE_PROJECT_DIR") or payload.get("cwd") or os.getcwd()
    project = os.environ.get("JUDGMENT_PROJECT") or os.path.basename(os.path.normpath(root))
    env = dict(os.environ, HARNESS_PROJECT_ROOT=root)
    for rec in records(payload):
        argv_ = [argv[1], "append", "--project", project, "--question", rec["question"],
                 "--answer", rec["answer"], "--card-ref", rec["card_ref"], "--id", rec["id"],
                 "--tags", "claude-code"]
        if rec["rationale"]:
            argv_ += ["--rationale", rec["rationale"]]
        try:
            subprocess.run(argv_, capture_output=True, timeout=APPEND_TIMEOUT, env=env,
                           stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
