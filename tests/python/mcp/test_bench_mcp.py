"""bench/mcp.py runs (tiny sizes, one run) and prints every row it documents: the floor, then a
cold CLI call and a warm tool call for each case. Figures are never asserted."""
import subprocess
import sys

from helpers_mcp import ROOT


def test_the_benchmark_prints_a_cold_and_a_warm_row_per_case():
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "mcp.py"), "--sizes", "60",
                        "--runs", "1"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    rows = [line.split()[:4] for line in p.stdout.splitlines()[1:]]
    assert [r[1:] if r[1] != "-" else r[1:3] for r in rows] == [
        ["-", "floor"], *[[case, kind, temp] for case in ("recall", "search", "append")
                          for kind, temp in (("cli", "cold"), ("mcp", "warm"))]]
    assert all(r[0] == "60" for r in rows)
