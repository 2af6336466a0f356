"""`ha history <goal> graph` and `verify` at 1k and 10k events, beside `list --limit 200` (the
floor: the same verified pass, one page) measured in the same run.

    .venv/bin/python bench/history_graph.py [N ...]       # default: 1000 10000

Builds each store, with its index, with bench/history_fixture.py and runs the real `scripts/ha`. Prints the
median wall time, its ratio to the floor and the peak RSS; never asserts a timing.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import history_fixture  # noqa: E402
import history  # noqa: E402  (bench/history.py: one real process, timed)

RUNS = 5
SIZES = (1000, 10000)


def bench(sizes=SIZES, runs=RUNS, out=sys.stdout):
    with tempfile.TemporaryDirectory(prefix="ha-bench-graph-") as tmp:
        for n in sizes:
            repo, goal = history_fixture.make_started_repo(Path(tmp) / f"r{n}")
            # with its index, as the adds leave it; in a child process, so the fixture's
            # memory does not count in the peak RSS of the calls measured
            subprocess.run([sys.executable, str(Path(history_fixture.__file__)), repo, goal,
                            str(n)], check=True, stdout=subprocess.DEVNULL)
            ha = history_fixture.HA
            cases = [("list --limit 200 (floor)", [ha, "history", goal, "list", "--limit", "200"]),
                     ("graph", [ha, "history", goal, "graph"]),
                     ("graph --target AC-1", [ha, "history", goal, "graph", "--target", "AC-1"]),
                     ("verify (from scratch)", [ha, "history", goal, "verify"])]
            floor = None
            for name, argv in cases:
                got = [history.measure(argv, repo, history_fixture.ENV)[:2] for _ in range(runs)]
                ms = statistics.median(t for t, _ in got) * 1000
                floor = floor or ms
                out.write(f"{n:>7} events  {name:<26} {ms:>8.1f} ms  x{ms / floor:>5.2f}  "
                          f"{max(r for _, r in got):>6.1f} MiB\n")
                out.flush()


if __name__ == "__main__":
    sizes = tuple(int(a) for a in sys.argv[1:]) or SIZES
    print(f"ha history graph / verify, median of {RUNS} runs (python {sys.version.split()[0]})")
    bench(sizes)
