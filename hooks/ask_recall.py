"""PreToolUse hook on AskUserQuestion: past judgments for each question, as additionalContext.

Standard library only, so it runs with any python3 on the hook's PATH; the recall itself is the
installed `judgment-ledger recall` (argv[1], found by hooks/find-tool.sh). Reads the hook's JSON
from stdin; prints nothing unless something matched; never emits a permission decision, so the
tool call proceeds unchanged.
"""

import json
import os
import subprocess
import sys

MAX_QUESTIONS = 4       # an AskUserQuestion call carries 1-4 questions
MAX_STDIN = 1 << 20     # a larger payload is not a real AskUserQuestion call
MAX_CONTEXT = 3000      # bytes of additionalContext: a few KB, never a flood
RECALL_TIMEOUT = 3.0    # seconds per recall; hooks.json bounds the whole hook too


def questions(payload):
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    items = tool_input.get("questions") if isinstance(tool_input, dict) else None
    out = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("question"), str):
            continue
        labels = [o.get("label") for o in item.get("options") or [] if isinstance(o, dict)]
        text = " ".join([item["question"]] + [l for l in labels if isinstance(l, str)])
        out.append((item["question"], text))
    return out[:MAX_QUESTIONS]


def project(payload):
    """The rule the skill and commands use: $JUDGMENT_PROJECT, else the project folder's name."""
    root = os.environ.get("CLAUDE_PROJECT_DIR") or payload.get("cwd") or os.getcwd()
    return os.environ.get("JUDGMENT_PROJECT") or os.path.basename(os.path.normpath(root)), root


def recall(tool, name, root, text):
    env = dict(os.environ, HARNESS_PROJECT_ROOT=root)
    try:
        done = subprocess.run([tool, "recall", "--project", name, "--question", text],
                              capture_output=True, text=True, timeout=RECALL_TIMEOUT, env=env,
                              stdin=subprocess.DEVNULL)
        items = json.loads(done.stdout) if done.returncode == 0 else []
    except (OSError, subprocess.SubprocessError, ValueError):
        return []
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def line(item):
    why = f" because {item['outcome']}" if item.get("outcome") else ""
    return (f"- {item.get('summary')} -> chose **{item.get('decision')}**{why}"
            f" ({item.get('decided_at')}, {item.get('mem_id')})")


def main(argv):
    try:
        payload = json.loads(sys.stdin.read(MAX_STDIN) or "null")
    except ValueError:
        return 0
    if not isinstance(payload, dict) or len(argv) < 2:
        return 0
    name, root = project(payload)
    blocks = []
    for question, text in questions(payload):
        found = recall(argv[1], name, root, text)
        if found:
            blocks.append(f"Past judgments for \"{question}\":\n" + "\n".join(map(line, found)))
    if not blocks:
        return 0
    context = (f"judgment-ledger ({name}): the person decided similar questions before; say so "
               "(\"last time you chose X because Y\", citing the mem_id).\n\n" + "\n\n".join(blocks))
    if len(context.encode()) > MAX_CONTEXT:
        context = context.encode()[:MAX_CONTEXT].decode(errors="ignore") + "\n[truncated]"
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                             "additionalContext": context}}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
