"""View latency and peak memory of `ha history` at 1k, 10k and 100k events.

    .venv/bin/python bench/history_views.py [N ...]       # default: 1000 10000 100000

For each size it builds a started goal in a throw-away repository, writes a valid store with
bench/history_fixture.py (the store's own encoding; a view verifies it like any other), then
runs the real `scripts/ha` as a user would: `current`, `list --limit 200`, `current --target
AC-1 --keyword keyword7` and `show D<n/2>`, each several times. It prints the median wall time
and the peak RSS of the process (wait4 rusage). Figures are printed, never asserted.
Target: `current` under 300 ms at 10k events; memory bounded by the page, not the store.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import history_fixture  # noqa: E402

RUNS = 5
SIZES = (1000, 10000, 100000)


def measure(argv, cwd) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of one real process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, env=history_fixture.ENV, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {p.stderr.read().decode()}")
    p.stderr.close()
    rss = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return elapsed, rss


def bench_views(sizes=SIZES, runs=RUNS, out=sys.stdout) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="ha-bench-views-") as tmp:
        for n in sizes:
            repo, goal = history_fixture.make_started_repo(Path(tmp) / f"r{n}")
            history_fixture.write_history(repo, goal, n)
            ha = history_fixture.HA
            cases = [("current", [ha, "history", goal, "current"]),
                     ("list --limit 200", [ha, "history", goal, "list", "--limit", "200"]),
                     ("current --target --keyword",
                      [ha, "history", goal, "current", "--target", "AC-1", "--keyword",
                       "keyword7"]),
                     (f"show D{n // 2}", [ha, "history", goal, "show", f"D{n // 2}"])]
            for name, argv in cases:
                got = [measure(argv, repo) for _ in range(runs)]
                row = {"events": n, "view": name,
                       "median_ms": round(statistics.median(t for t, _ in got) * 1000, 1),
                       "peak_rss_mib": round(max(r for _, r in got), 1)}
                rows.append(row)
                out.write(f"{n:>7} events  {name:<28} {row['median_ms']:>8.1f} ms  "
                          f"{row['peak_rss_mib']:>6.1f} MiB\n")
                out.flush()
    return rows


if __name__ == "__main__":
    sizes = tuple(int(a) for a in sys.argv[1:]) or SIZES
    print(f"ha history views, median of {RUNS} runs (python {sys.version.split()[0]})")
    bench_views(sizes)
