"""Decision history at scale: cost of each call as a ratio to a floor, in one run.

    .venv/bin/python bench/history.py [--sizes 1000,10000,100000,1000000] [--runs 5]
                                      [--ha scripts/ha[,other/scripts/ha]]

For each size a started goal with a valid store of N events (and its index, as the adds
would have left it) is generated once into bench/out/h<N>/ (gitignored; delete it to
regenerate) with bench/history_fixture.py. Then real processes run as a user runs them:

    pass      a bare `python -c pass` (the interpreter's start-up)
    floor     python start-up + sha256 of events.jsonl in 1 MiB blocks (what any call that
              reads the whole history must pay at least)
    add       `ha history <goal> add` (flags, run evidence, auto request id)
    current   `ha history <goal> current`
    list      `ha history <goal> list --limit 200`
    page      `ha history <goal> list --page <cursor of the first page>` (second page)
    show      `ha history <goal> show D<N/2>`
    keyword   `ha history <goal> current --target AC-1 --keyword keyword7`
    verify    the full verification from scratch, trusting no index (Store.verify())

Each row prints the median wall time over --runs and the median CPU time (user + system, from
wait4 rusage: steadier than wall time on a shared machine), each with its ratio to the floor of
the same size, the CPU ratio to `pass`, and the peak RSS of the process. Targets: add <= 2.5x
and current <= 3x the floor at 100k; current, list, show and add at most 5x `pass` in CPU at
1k; the peak RSS of current and list about the same from 10k to 1M; show and page about the
same at 1M as at 1k. Nothing is asserted. `--ha a,b` runs each checkout's scripts/ha on the
same stores, case by case in the same run (before/after figures: the `ha` column).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import history_fixture as fx  # noqa: E402

OUT = HERE / "out"
FLOOR = ("import hashlib, sys\nh = hashlib.sha256()\nwith open(sys.argv[1], 'rb') as f:\n"
         "    for b in iter(lambda: f.read(1 << 20), b''):\n        h.update(b)\n")


def store_of(repo: str) -> Path:
    common = subprocess.run(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
                            cwd=repo, capture_output=True, text=True, check=True).stdout.strip()
    return next((Path(common) / "ha" / "history").iterdir())


def fixture(n: int) -> tuple[str, float]:
    """(repo, seconds to generate; 0 when reused) of the N-event fixture in bench/out."""
    path = OUT / f"h{n}"
    done = path / ".complete"
    if done.exists():
        return str(path / "repo"), 0.0
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    t0 = time.perf_counter()
    repo, goal = fx.make_started_repo(path / "repo")
    # in a child process: the fixture's memory must not count in the peak RSS of the calls
    # measured later (a forked child starts with its parent's resident pages)
    subprocess.run([sys.executable, str(HERE / "history_fixture.py"), repo, goal, str(n)],
                   check=True, stdout=subprocess.DEVNULL)
    done.write_text("ok\n")
    return repo, time.perf_counter() - t0


def _compiled(src: Path) -> bool:
    """Whether `src` has bytecode that Python will use instead of compiling it again."""
    import importlib.util
    pyc = Path(importlib.util.cache_from_source(str(src)))
    try:
        return pyc.stat().st_mtime >= src.stat().st_mtime
    except OSError:
        return False


def measure(argv, cwd, env) -> tuple[float, float, str, float]:
    """(seconds, peak RSS MiB, stdout, CPU seconds) of one real process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {err.decode()}")
    p.stdout.close()
    p.stderr.close()
    return elapsed, usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024), \
        out.decode(), usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--ha", default=fx.HA)
    ap.add_argument("--only", default="", help="comma list of cases (default: all)")
    args = ap.parse_args()
    env = dict(fx.ENV)
    sources = [src for ha in args.ha.split(",")
               for src in (Path(ha).resolve().parents[1] / "pylib").rglob("*.py")]
    fresh = sum(1 for src in sources if _compiled(src))
    compiled = fresh == len(sources)
    print(f"ha history at scale: median of {args.runs} runs; python {sys.version.split()[0]}; "
          f"PYTHONDONTWRITEBYTECODE={'set' if os.environ.get('PYTHONDONTWRITEBYTECODE') else 'unset'}"
          f"; up-to-date bytecode for {fresh} of {len(sources)} modules"
          f"; ha = {args.ha}")
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not compiled:
        print("  (every call compiles the package from source: `python -m compileall pylib` "
              "once, as an installer does, removes most of the start-up cost)")
    print(f"{'events':>8} {'ha':>2} {'case':<9} {'wall ms':>9} {'x floor':>8} {'cpu ms':>8} "
          f"{'x floor':>8} {'x pass':>7} {'peak MiB':>9}")
    has, goal = args.ha.split(","), fx.GOAL
    for i, ha in enumerate(has):
        print(f"  ha {i}: {ha}")
    only = set(filter(None, args.only.split(",")))
    for n in (int(s) for s in args.sizes.split(",")):
        repo, gen = fixture(n)
        if gen:
            print(f"{n:>8} (fixture generated in {gen:.1f} s into {OUT / f'h{n}'})", flush=True)
        events = str(store_of(repo) / "events.jsonl")
        first = json.loads(measure([has[0], "history", goal, "list", "--limit", "20", "--format",
                                    "json"], repo, env)[2])
        cursor = first["page"]["next"]
        verify = ("import sys\nfrom judgment_toolkit.ha.history.context import open_history\n"
                  "open_history(sys.argv[1], for_write=False).store.verify()\n")
        cases = [
            ("pass", [sys.executable, "-c", "pass"]),
            ("floor", [sys.executable, "-c", FLOOR, events]),
            ("add", ["HA", "history", goal, "add", "--kind", "관측", "--summary", "bench add",
                     "--target", "AC-1", "--ref", "run:2"]),
            ("current", ["HA", "history", goal, "current"]),
            ("list", ["HA", "history", goal, "list", "--limit", "200"]),
            ("page", ["HA", "history", goal, "list", "--page", cursor] if cursor else None),
            ("show", ["HA", "history", goal, "show", f"D{max(1, n // 2)}"]),
            ("keyword", ["HA", "history", goal, "current", "--target", "AC-1", "--keyword",
                         "keyword7"]),
            ("verify", [str(Path(fx.ROOT) / ".venv" / "bin" / "python"), "-c", verify, goal]),
        ]
        floor = floor_cpu = pass_cpu = None
        for name, argv in cases:
            if argv is None or (only and name not in only and name not in ("pass", "floor")):
                continue
            if name == "verify" and n > 100000:
                continue  # minutes at 1M; the full check is linear (see 10k/100k)
            own = argv[0] == "HA" or name == "verify"
            for i, ha in enumerate(has if own else has[:1]):
                run = [ha if a == "HA" else a for a in argv]
                cenv = env if name != "verify" else dict(  # the checkout's own pylib
                    env, PYTHONPATH=str(Path(ha).resolve().parents[1] / "pylib"))
                if name == "add":  # an add by another checkout may have left the index stale
                    measure([ha, "history", goal, "add", "--kind", "관측", "--summary",
                             "warm up"], repo, env)
                got = [measure(run, repo, cenv) for _ in range(args.runs)]
                ms = statistics.median(t for t, _, _, _ in got) * 1000
                cpu = statistics.median(c for _, _, _, c in got) * 1000
                if name == "pass":
                    pass_cpu = cpu
                if name == "floor":
                    floor, floor_cpu = ms, cpu
                wall_x = f"{ms / floor:>8.2f}" if floor else f"{'':>8}"
                cpu_x = f"{cpu / floor_cpu:>8.2f}" if floor_cpu else f"{'':>8}"
                print(f"{n:>8} {i if own else '':>2} {name:<9} {ms:>9.1f} {wall_x} {cpu:>8.1f} "
                      f"{cpu_x} {cpu / pass_cpu:>7.2f} {max(r for _, r, _, _ in got):>9.1f}",
                      flush=True)


if __name__ == "__main__":
    main()
