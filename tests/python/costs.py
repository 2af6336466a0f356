"""Where the suite's time goes: `pytest --costs` (what `bash scripts/test.sh --durations` turns on).

For accounting only: with the option, subprocess.Popen and time.sleep are wrapped so that each
test's process starts (by kind: git, python, pip/venv, the Bash entry points, node, chromium,
...), the seconds those processes lived, its real sleeps and its expired timeouts are counted;
every call still goes to the real function with the same arguments and returns what it returned.
Without the option nothing is wrapped. The counts travel on each report's user_properties, so
they add up across pytest-xdist workers too. The summary lists the costliest test files and the
totals by kind of cost; docs/internals.md, "Tests: how they run", says how to read it.
"""
import os
import subprocess
import time
from collections import defaultdict
from pathlib import Path

_KEY = "costs"
_current = None  # the running test's tally, or None between tests


def _new_tally():
    return {"procs": defaultdict(int), "proc_s": defaultdict(float), "sleeps": 0, "sleep_s": 0.0,
            "timeouts": 0, "timeout_s": 0.0}


def _kind(args) -> str:
    argv = [args] if isinstance(args, (str, bytes, os.PathLike)) else list(args)
    argv = [os.fsdecode(a) for a in argv] or ["?"]  # bytes that are not UTF-8 too
    if len(argv) == 1:
        argv = argv[0].split() or ["?"]  # a shell command line
    name = Path(argv[0]).name
    if name == "env":  # `env -i PATH=... prog`: the program is what env runs
        rest = [a for a in argv[1:] if not a.startswith("-") and "=" not in a]
        name = Path(rest[0]).name if rest else name
        argv = rest or argv
    if name.startswith("python"):
        if "-m" in argv:
            module = argv[argv.index("-m") + 1] if argv.index("-m") + 1 < len(argv) else ""
            if module in ("pip", "venv", "build", "pipx"):
                return module
        return "python"
    if name in ("pip", "pipx", "git", "node", "npx", "npm", "bats", "bash", "sh"):
        return name
    if "chrom" in name:
        return "chromium"
    if name.endswith(".sh") or name in ("ha", "judgment-kit", "judgment-ledger", "judgment-card",
                                        "judgment-mcp", "claude", "mcp-inspector"):
        return "entry point " + name
    return "other " + name


def _wrap():
    real_init = subprocess.Popen.__init__
    real_exit = subprocess.Popen._handle_exitstatus
    real_sleep = time.sleep
    real_wait = subprocess.Popen.wait
    real_communicate = subprocess.Popen.communicate

    def init(self, args, *a, **kw):
        real_init(self, args, *a, **kw)  # raises as the real one does; nothing counted then
        tally = _current
        if tally is not None:
            kind = _kind(args)
            tally["procs"][kind] += 1
            self._costs = (tally, kind, time.monotonic())

    def handle_exitstatus(self, *a, **kw):
        seen = getattr(self, "_costs", None)
        if seen is not None:
            tally, kind, t0 = seen
            tally["proc_s"][kind] += time.monotonic() - t0
            self._costs = None
        return real_exit(self, *a, **kw)

    def timed(real):
        def waiting(self, *a, **kw):
            if getattr(self, "_costs_waiting", False):  # communicate() calls wait()
                return real(self, *a, **kw)
            self._costs_waiting, t0 = True, time.monotonic()
            try:
                return real(self, *a, **kw)
            except subprocess.TimeoutExpired:
                if _current is not None:
                    _current["timeouts"] += 1
                    _current["timeout_s"] += time.monotonic() - t0
                raise
            finally:
                self._costs_waiting = False
        return waiting

    def sleep(seconds):
        if _current is not None:
            _current["sleeps"] += 1
            _current["sleep_s"] += seconds
        return real_sleep(seconds)

    subprocess.Popen.__init__ = init
    subprocess.Popen._handle_exitstatus = handle_exitstatus
    subprocess.Popen.wait = timed(real_wait)
    subprocess.Popen.communicate = timed(real_communicate)
    time.sleep = sleep


def addoption(parser):
    parser.addoption("--costs", action="store_true",
                     help="count process starts, sleeps and timeouts per test and file "
                          "(tests/python/costs.py); summary at the end")
    parser.addoption("--costs-slow-list", metavar="PATH",
                     help="with --costs: write the list of slow tests (what --quick leaves out) "
                          "to PATH, from this run's durations (tests/python/slow_tests.txt)")
    parser.addoption("--costs-slow-over", metavar="SECONDS", type=float, default=SLOW_OVER,
                     help=f"a test slower than this is listed (default {SLOW_OVER})")


# A test is slow past this many seconds (set-up, call and teardown together) on a 2-core machine
# running the suite with two workers; each file keeps its fastest test off the list all the same,
# so --quick still runs every test file.
SLOW_OVER = 0.2


def configure(config):
    if config.getoption("--costs"):
        _wrap()
        config._costs = {"files": defaultdict(lambda: defaultdict(float)),
                         "kinds": defaultdict(lambda: [0, 0.0]), "phases": defaultdict(float),
                         "tests": {}}


def runtest_protocol_start(item):
    global _current
    if item.config.getoption("--costs"):
        _current = _new_tally()


def makereport(item, call, report):
    """Every phase's report carries the tally so far; the last one (teardown) holds it all."""
    if _current is not None and call.when == "teardown":
        tally = {k: (dict(v) if isinstance(v, defaultdict) else v) for k, v in _current.items()}
        report.user_properties.append((_KEY, tally))


def runtest_protocol_end():
    global _current
    _current = None


def logreport(config, report):
    agg = getattr(config, "_costs", None)
    if agg is None:
        return
    path = report.nodeid.split("::")[0]
    row = agg["files"][path]
    if "quick" not in report.keywords:  # the marker keeps a test off the slow list
        agg["tests"][report.nodeid] = agg["tests"].get(report.nodeid, 0.0) + report.duration
    row["wall"] += report.duration
    row[report.when] += report.duration
    agg["phases"][report.when] += report.duration
    if report.when == "call":
        row["tests"] += 1
    for key, tally in report.user_properties:
        if key != _KEY:
            continue
        for kind, n in tally["procs"].items():
            row["procs"] += n
            agg["kinds"]["process: " + kind][0] += n
        for kind, s in tally["proc_s"].items():
            row["proc_s"] += s
            agg["kinds"]["process: " + kind][1] += s
        row["sleep_s"] += tally["sleep_s"]
        agg["kinds"]["time.sleep"][0] += tally["sleeps"]
        agg["kinds"]["time.sleep"][1] += tally["sleep_s"]
        agg["kinds"]["expired timeouts"][0] += tally["timeouts"]
        agg["kinds"]["expired timeouts"][1] += tally["timeout_s"]


def summary(config, terminalreporter, top=40):
    agg = getattr(config, "_costs", None)
    if agg is None:
        return
    w = terminalreporter.write_line
    terminalreporter.section("costs per test file (seconds summed over tests; workers overlap)")
    w(f"{'wall':>8} {'setup':>7} {'call':>7} {'tests':>5} {'procs':>6} {'proc_s':>7} "
      f"{'sleep_s':>7}  file")
    files = sorted(agg["files"].items(), key=lambda kv: -kv[1]["wall"])
    for path, row in files[:top]:
        w(f"{row['wall']:8.1f} {row['setup']:7.1f} {row['call']:7.1f} {int(row['tests']):5d} "
          f"{int(row['procs']):6d} {row['proc_s']:7.1f} {row['sleep_s']:7.1f}  {path}")
    if len(files) > top:
        rest = files[top:]
        w(f"{sum(r['wall'] for _, r in rest):8.1f} ... {len(rest)} more files")
    terminalreporter.section("costs by kind (count, seconds)")
    for phase in ("setup", "call", "teardown"):
        w(f"{'':>6} {agg['phases'][phase]:9.1f}  test {phase} (fixtures in setup/teardown)")
    for kind, (n, s) in sorted(agg["kinds"].items(), key=lambda kv: -kv[1][1]):
        w(f"{n:6d} {s:9.1f}  {kind}")


HEADER = """\
# The tests `scripts/test.sh --quick` leaves out: slower than {over} s in a full run with two
# workers, as `bash scripts/test.sh --durations` measured them on a 2-core machine; it rewrites
# this file (docs/internals.md, "Tests: how they run"); each test file keeps its fastest test off the
# list, and so does a test marked `quick`. A test not listed runs in --quick; the markers `slow`
# and `e2e` leave a test out too.
"""


def slow_tests(durations: dict, over: float) -> list:
    """The node ids slower than `over`, less the fastest test of each file."""
    fastest = {}
    for nodeid, seconds in durations.items():
        path = nodeid.split("::")[0]
        if path not in fastest or seconds < durations[fastest[path]]:
            fastest[path] = nodeid
    keep = set(fastest.values())
    return sorted(n for n, s in durations.items() if s > over and n not in keep)


def write_slow_list(config):
    agg = getattr(config, "_costs", None)
    path = config.getoption("--costs-slow-list")
    if agg is None or not path:
        return
    over = config.getoption("--costs-slow-over")
    listed = slow_tests(agg["tests"], over)
    with open(path, "w", encoding="utf-8") as out:
        out.write(HEADER.format(over=over))
        out.writelines(n + "\n" for n in listed)


def read_slow_list(path) -> set:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return set()
    return {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}
