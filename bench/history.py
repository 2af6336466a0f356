"""All decision-history benchmarks in one run: add latency, then view latency and memory.

    .venv/bin/python bench/history.py

Runs bench/history_add.py (add at 0, 1k, 10k, 100k stored events; target < 150 ms at 10k)
and bench/history_views.py (current and list --limit 200 at 1k, 10k, 100k; target current
< 300 ms at 10k, memory bounded by the page). Each prints its own table; nothing is asserted.
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    status = 0
    for script in ("history_add.py", "history_views.py"):
        print(f"== {script} ==", flush=True)
        status |= subprocess.call([sys.executable, str(HERE / script)])
    sys.exit(status)
