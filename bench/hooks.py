"""Per-call cost of each Claude Code hook (docs/claude-kit.md, "What each hook costs"), as Claude
Code runs it: `sh -c <hooks/hooks.json command>` with the hook's JSON on stdin under
`env -i PATH=/usr/bin:/bin HOME=<tmp>`, from this checkout, in a project whose ledger holds N
decisions. Printed as ratios to the floor `python3 -c pass` measured in the same run. The
capture hook is measured twice: switched off (the default, paid on every answered question) and
on (`JUDGMENT_CAPTURE=1`; after the first run each call is a replay of the same id).

    .venv/bin/python bench/hooks.py [--records N] [--runs R]
"""
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOOKS = json.loads((ROOT / "plugin" / "hooks" / "hooks.json").read_text())["hooks"]


def timed(argv, data, env, cwd, runs):
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, input=data, env=env, cwd=cwd, capture_output=True, check=False)
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main():
    args = sys.argv[1:]
    records = int(args[args.index("--records") + 1]) if "--records" in args else 200
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 5
    with tempfile.TemporaryDirectory() as tmp:
        project, home = Path(tmp) / "shop", Path(tmp) / "home"
        project.mkdir(), home.mkdir()
        state = project / ".claude" / "state"
        state.mkdir(parents=True)
        with (state / "judgment-ledger.jsonl").open("w") as f:
            for i in range(records):
                f.write(json.dumps({"id": f"id-{i}", "project": "shop", "decided_at": "2026-01-01T00:00:00Z",
                                    "question": f"Use Redis or Postgres for queue {i}?", "answer": "postgres",
                                    "rationale": "one less service", "card_ref": "c", "tags": []}) + "\n")
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "CLAUDE_PLUGIN_ROOT": str(ROOT / "plugin"),
               "CLAUDE_PROJECT_DIR": str(project)}
        ask = {"session_id": "s", "cwd": str(project), "tool_name": "AskUserQuestion", "tool_use_id": "t",
               "tool_input": {"questions": [{"question": "Redis or Postgres for the queue?", "header": "Q",
                                             "options": [{"label": "Redis"}, {"label": "Postgres",
                                                                             "description": "no new service"}]}]},
               "tool_response": {"answers": {"Redis or Postgres for the queue?": "Postgres"}}}
        rows = [("SessionStart", {"session_id": "s", "source": "startup"}, {}),
                ("PreToolUse", ask, {}), ("PostToolUse", ask, {}),
                ("PostToolUse", ask, {"JUDGMENT_CAPTURE": "1"})]
        floor = timed(["python3", "-c", "pass"], b"", env, project, runs)
        print(f"floor python3 -c pass: {floor * 1000:.1f} ms (median of {runs}); ledger: {records} records")
        for event, payload, more in rows:
            cmd = HOOKS[event][0]["hooks"][0]["command"]
            cost = timed(["sh", "-c", cmd], json.dumps(payload).encode(), dict(env, **more), project, runs)
            label = HOOKS[event][0]["matcher"] + ("".join(f" {k}={v}" for k, v in more.items())
                                                  or (" capture off" if event == "PostToolUse" else ""))
            print(f"{event:13s} {label:45s} {cost / floor:6.1f} x floor  ({cost * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
