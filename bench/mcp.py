#!/usr/bin/env python3
"""judgment-mcp latency: one warm tool call next to the cold CLI call, as ratios to a floor.

At each ledger size (built by bench/ledger.py's build, 20 projects) this times, median of --runs:
    floor      python start-up reading the ledger once (what any cold call pays at least)
    cli        `judgment-ledger recall` / `search` / `append` as a new process (cold: start-up
               + imports)
    mcp warm   the same call as recall_judgments / search_judgments / record_judgment on one
               running judgment-mcp (the SDK's stdio client; start-up and the first call are not
               counted). The reads run in the server's process; an append runs the script, as
               the CLI does (docs/mcp.md, "Tools").
Figures are printed, never asserted.

    .venv/bin/python bench/mcp.py [--sizes 1000,100000] [--runs 5]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# This file is named mcp.py: its folder must not shadow the SDK's package of the same name.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

sys.path.append(str(HERE))
from ledger import build  # noqa: E402  (the one fixture of the ledger benchmarks)

BIN = Path(sys.executable).parent
FLOOR = "import sys\nwith open(sys.argv[1], 'rb') as f:\n    while f.read(1 << 20): pass"
QUESTION = "Which queue approach for the api path, given load 3?"
CASES = (("recall", "recall_judgments", ["--question", QUESTION], {"question": QUESTION}),
         ("search", "search_judgments", ["--query", "queue api"], {"query": "queue api"}),
         ("append", "record_judgment", ["--question", QUESTION, "--answer", "a", "--card-ref", "c"],
          {"question": QUESTION, "answer": "a", "card_ref": "c"}))


def cold(argv, env):
    t = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t


def warm(env, runs):
    """{case: [seconds per call]} on one server, after one untimed call of each tool."""
    async def go():
        params = StdioServerParameters(command=str(BIN / "judgment-mcp"), env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                out = {}
                for name, tool, _, args in CASES:
                    args = dict(args, project="project-03")
                    await s.call_tool(tool, args)
                    times = []
                    for _ in range(runs):
                        t = time.perf_counter()
                        r = await s.call_tool(tool, args)
                        times.append(time.perf_counter() - t)
                        assert not r.is_error, r.content
                    out[name] = times
                return out
    return anyio.run(go)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1000,100000")
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    print(f"{'records':>8} {'case':<7} {'what':<9} {'ms':>9} {'x floor':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in a.sizes.split(",")):
            path = Path(tmp) / f"ledger-{n}.jsonl"
            build(path, n)
            env = dict(os.environ, HARNESS_JUDGMENT_LEDGER=str(path))
            floor = statistics.median(cold([sys.executable, "-c", FLOOR, str(path)], env)
                                      for _ in range(a.runs))
            print(f"{n:>8} {'-':<7} {'floor':<9} {floor * 1e3:>9.1f} {1:>8.2f}")
            warm_times = warm(env, a.runs)
            for name, _, flags, _ in CASES:
                argv = [str(BIN / "judgment-ledger"), name, "--project", "project-03", *flags]
                c = statistics.median(cold(argv, env) for _ in range(a.runs))
                w = statistics.median(warm_times[name])
                print(f"{n:>8} {name:<7} {'cli cold':<9} {c * 1e3:>9.1f} {c / floor:>8.2f}")
                print(f"{n:>8} {name:<7} {'mcp warm':<9} {w * 1e3:>9.1f} {w / floor:>8.2f}")


if __name__ == "__main__":
    main()
