"""Per-call cost of each Claude Code hook, and of the reads SessionStart and a user run
(docs/claude-kit.md, "What each hook costs"), as ratios to the floor: the start of the same
interpreter (`python -c pass`), measured in the same run. Each question carries a header with
a word of its own, as Claude writes them, so the recall reads the question both plain and headed.

Each hook runs as Claude Code runs it: `sh -c <hooks/hooks.json command>` with the hook's JSON
on stdin under `env -i PATH=/usr/bin:/bin HOME=<tmp>`, from this checkout, in a project whose
ledger holds N decisions of varied wording, appended in time order as `append` writes them
(and as many of another project). Printed:

  - each hook's p90 wall time at 1k and 10k records (targets: the recall hook <= 2.5x the
    floor at 1k, <= 3.5x at 10k), and its p90 CPU time (steadier on a loaded machine);
  - `judgment-ledger prime` and `recall` at 10k records in CPU time (user + system of every
    process, bash included), median, as a ratio to the floor's CPU time (target <= 4x);
  - the recall hook, `prime` and `recall` of an installed copy (this checkout's wheel in a
    venv of its own, see installed_copy) against that copy's own floor: .venv's floor
    includes its editable install's finder, about 10 ms that no installed copy pays; and,
    against the same floor, that copy's interpreter importing `re` and `json`, which every
    hook of an installed copy pays before its own work (its console script imports re).

    .venv/bin/python bench/hooks.py [--runs R] [--records N,N...]
"""
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOOKS = json.loads((ROOT / "plugin" / "hooks" / "hooks.json").read_text())["hooks"]
VENV_PY = ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PY) if VENV_PY.exists() else "python3"  # the one scripts/lib/py.sh chooses
INSTALLED = ROOT / ".venv" / "bin" / "judgment-kit"  # the console script pip wrote
TOPICS = ["job queue", "cache", "logging library", "settings page", "deploy target", "CI runner",
          "database", "auth method", "API style", "test framework", "date library", "CSS approach"]
CHOICES = [("Redis", "Postgres"), ("structlog", "loguru"), ("modal", "route"), ("k8s", "VMs"),
           ("REST", "GraphQL"), ("pytest", "unittest"), ("OAuth", "passwords"), ("Tailwind", "CSS modules")]


def write_ledger(path, records):
    with path.open("w") as f:
        for i in range(records):
            for project in ("shop", "other"):
                topic, pair = TOPICS[i % len(TOPICS)], CHOICES[(i // 3) % len(CHOICES)]
                f.write(json.dumps({
                    "id": f"{project}-{i}", "project": project,
                    "decided_at": f"2026-01-01T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z",
                    "question": f"For service {i}, which {topic}: {pair[0]} or {pair[1]}?",
                    "answer": pair[i % 2], "rationale": f"reason {i}: fewer moving parts",
                    "card_ref": "c", "tags": []}, separators=(",", ":")) + "\n")  # as append writes


def installed_copy(tmp):
    """The bin folder of a venv holding this checkout as a user installs it: a wheel, not the
    editable install of .venv, whose finder imports pathlib, fnmatch, urllib.parse and
    importlib.util at every start of .venv's python (about 10 ms: a floor that high flatters
    every ratio). Its dependencies are read from .venv's site-packages, added by one .pth line
    (the .pth files inside that folder, the editable finder among them, are not run). None,
    with the reason, when it cannot be built."""
    venv, wheels = Path(tmp) / "installed", Path(tmp) / "wheels"
    paths = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    try:
        for argv in ([PYTHON, "-m", "venv", "--without-pip", str(venv)],
                     [PYTHON, "-m", "pip", "wheel", "--quiet", "--no-deps",
                      "--disable-pip-version-check", "-w", str(wheels), str(ROOT)]):
            subprocess.run(argv, check=True, capture_output=True)
        [wheel] = wheels.glob("*.whl")
        subprocess.run([PYTHON, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
                        "--quiet", "--no-deps", "--disable-pip-version-check", str(wheel)],
                       check=True, capture_output=True)
        ours = subprocess.run([PYTHON, "-c", paths], check=True, capture_output=True, text=True)
        theirs = subprocess.run([str(venv / "bin" / "python"), "-c", paths], check=True,
                                capture_output=True, text=True)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        said = getattr(e, "stderr", None) or str(e)
        said = said.decode(errors="replace") if isinstance(said, bytes) else said
        return None, f"{type(e).__name__}: {said.strip().splitlines()[-1] if said.strip() else e}"
    (Path(theirs.stdout.strip()) / "checkout-deps.pth").write_text(ours.stdout)
    return venv / "bin", None


def timed(argv, data, env, cwd, runs):
    """(wall times, CPU times) of `runs` runs; CPU is user + system of the child processes."""
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(argv, input=data, env=env, cwd=cwd, capture_output=True, check=False)
        wall.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def p90(values):
    return sorted(values)[math.ceil(0.9 * len(values)) - 1]


def ask(project, question, labels, header="Q"):
    return {"session_id": "s", "cwd": str(project), "tool_name": "AskUserQuestion", "tool_use_id": "t",
            "hook_event_name": "PreToolUse",
            "tool_input": {"questions": [{"question": question, "header": header, "multiSelect": False,
                                          "options": [{"label": l, "description": f"{l} it is"}
                                                      for l in labels]}]}}


def main():
    args = sys.argv[1:]
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 20
    sizes = [int(n) for n in (args[args.index("--records") + 1] if "--records" in args
                              else "1000,10000").split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "CLAUDE_PLUGIN_ROOT": str(ROOT / "plugin")}
        floor_wall, floor_cpu = timed([PYTHON, "-c", "pass"], b"", env, tmp, runs)
        f_wall, f_cpu = p90(floor_wall), statistics.median(floor_cpu)
        print(f"floor {PYTHON} -c pass: p90 {f_wall * 1000:.1f} ms wall, CPU p90 {p90(floor_cpu) * 1000:.1f}"
              f" ms, median {f_cpu * 1000:.1f} ms"
              f" ({runs} runs each)")
        copy, why = installed_copy(tmp)
        if copy is None:
            print(f"no installed copy measured: {why}")
        else:
            i_wall, i_cpu = timed([str(copy / "python"), "-c", "pass"], b"", env, tmp, runs)
            print(f"floor of an installed copy (a wheel in its own venv) {copy / 'python'} -c pass:"
                  f" p90 {p90(i_wall) * 1000:.1f} ms wall, CPU p90 {p90(i_cpu) * 1000:.1f} ms")
            # what any hook of that copy pays before it reads a ledger: its console script
            # imports re, and reading the hook's JSON imports json (which imports re too)
            least_wall, least_cpu = timed([str(copy / "python"), "-c", "import re, json"], b"",
                                          env, tmp, runs)
            print(f"  its interpreter importing re and json (the least an installed hook pays):"
                  f" p90 {p90(least_wall) / p90(i_wall):.2f} x its floor"
                  f" ({p90(least_wall) * 1000:.1f} ms); CPU p90"
                  f" {p90(least_cpu) / p90(i_cpu):.2f} x")
        for size in sizes:
            project = Path(tmp) / f"shop{size}" / "shop"
            (project / ".claude" / "state").mkdir(parents=True)
            write_ledger(project / ".claude" / "state" / "judgment-ledger.jsonl", size)
            here = dict(env, CLAUDE_PROJECT_DIR=str(project))
            captured = dict(ask(project, "Redis or Postgres?", ["Redis", "Postgres"]),
                            hook_event_name="PostToolUse", tool_response={"answers": {"Redis or Postgres?": "Redis"}})
            rows = [("SessionStart", "startup", {"source": "startup"}, {}),
                    ("PreToolUse", "recall, a past decision",
                     ask(project, "Which job queue for the new service: Redis or Postgres?", ["Redis", "Postgres"],
                         "Queue tech"), {}),
                    ("PreToolUse", "recall, nothing related",
                     ask(project, "Should the export run nightly or weekly?", ["Nightly", "Weekly"], "Schedule"), {}),
                    ("PostToolUse", "capture off (the default)", captured, {}),
                    ("PostToolUse", "capture on (a replay)", captured, {"JUDGMENT_CAPTURE": "1"})]
            print(f"\n{size} records of the project (and {size} of another):")
            for event, label, payload, more in rows:
                cmd = HOOKS[event][0]["hooks"][0]["command"]
                wall, cpu = timed(["sh", "-c", cmd], json.dumps(payload).encode(), dict(here, **more), project, runs)
                print(f"  {event:12s} {label:28s} p90 {p90(wall) / f_wall:5.2f} x floor ({p90(wall) * 1000:.0f} ms);"
                      f" CPU p90 {p90(cpu) / p90(floor_cpu):5.2f} x ({p90(cpu) * 1000:.0f} ms)")
            # the recall as an installed user runs it: `judgment-kit` on PATH is the console
            # script (pipx, pip), found before the plugin folder's Bash launcher; the editable
            # one of .venv against .venv's floor, then an installed copy's against its own
            for label, folder, floors in (
                    ("recall, installed command", INSTALLED.parent if INSTALLED.exists() else None,
                     (f_wall, p90(floor_cpu), "floor")),
                    ("recall, an installed copy", copy,
                     copy and (p90(i_wall), p90(i_cpu), "its floor"))):
                if folder is None:
                    continue
                cmd = HOOKS["PreToolUse"][0]["hooks"][0]["command"]
                wall, cpu = timed(["sh", "-c", cmd], json.dumps(rows[1][2]).encode(),
                                  dict(here, PATH=f"{folder}:{env['PATH']}"), project, runs)
                print(f"  {'PreToolUse':12s} {label:28s} p90 {p90(wall) / floors[0]:5.2f} x {floors[2]}"
                      f" ({p90(wall) * 1000:.0f} ms); CPU p90 {p90(cpu) / floors[1]:5.2f} x"
                      f" ({p90(cpu) * 1000:.0f} ms)")
            if size != max(sizes):
                continue
            commands = [(str(ROOT / "scripts" / "judgment-ledger.sh"), f_cpu, "floor")]
            if copy is not None:  # the installed `judgment-ledger`, against its copy's floor
                commands.append((str(copy / "judgment-ledger"), statistics.median(i_cpu),
                                 "its floor (an installed copy)"))
            for ledger, floor, of in commands:
                for name, argv in (("prime", [ledger, "prime", "--project", "shop", "--limit", "5"]),
                                   ("recall", [ledger, "recall", "--project", "shop", "--question",
                                               "Which job queue: Redis or Postgres?"])):
                    _, cpu = timed(argv, b"", here, project, runs)
                    print(f"  judgment-ledger {name:7s} CPU median {statistics.median(cpu) / floor:5.2f}"
                          f" x {of} ({statistics.median(cpu) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
