"""`ha check` under SIGTERM, SIGHUP and SIGINT: the running command's whole process group is
stopped (nothing is left re-parented to init), the interrupted target's line is recorded
(`exit` null, `result` error, a note in its log), the rest is not run, and ha exits 128 + n.
Real signals to the real `scripts/ha`, real child processes (docs/ha-core.md, "ha check")."""
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import GIT_ENV, SCRIPTS, git
from helpers_core import GOAL, plan_with, records, started, write_goal

SPEC = "# s\n\n## Acceptance Criteria\n\n- AC-1 a\n- AC-2 b\n"
SAFETY = 60  # seconds: only a net against a hang, never an assertion about speed


def group_members(pgid):
    """[(pid, state)] of every process in group pgid, read from /proc."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:
            found.append((int(name), fields[0].decode()))
    return found


def wait_for(path):
    deadline = time.monotonic() + SAFETY
    while not (path.exists() and path.read_text().endswith("\n")):
        assert time.monotonic() < deadline, f"{path} never written"
        time.sleep(0.05)
    return path.read_text().split()


def assert_group_gone(pgid):
    """No member runs now; the exited ones are reaped by init on its own schedule, so wait for
    the group to vanish (a surviving `sleep 30` would outlive the net and fail)."""
    assert [m for m in group_members(pgid) if m[1] not in ("Z", "X")] == []
    deadline = time.monotonic() + 25
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        assert time.monotonic() < deadline, f"group {pgid} still exists: {group_members(pgid)}"
        time.sleep(0.1)


def plan_repo(repo, tmp_path, script):
    """A goal whose AC-1 runs `sh -c script` (it writes `$$ $!` to pids) and AC-2 runs `true`."""
    pids = tmp_path / "pids"
    cmd = f"sh -c '{script.format(pids=pids)}'"
    write_goal(repo, GOAL, SPEC, plan_with([f"| AC-1 | change | `{cmd}` | src | T001 |",
                                            "| AC-2 | change | `true` | src | — |"]))
    started(repo)
    return pids


def start_check(repo, ignoring=None):
    """scripts/ha check, started with the stop signals at their defaults whatever the test
    runner inherited (a runner under nohup, or in a shell's background, ignores SIGHUP or
    SIGINT), except signal `ignoring`, ignored as nohup starts a command."""
    env = dict(os.environ, **GIT_ENV)

    def dispositions():
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, signal.SIG_IGN if signum == ignoring else signal.SIG_DFL)
    return subprocess.Popen([str(SCRIPTS / "ha"), "check", GOAL], cwd=repo, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=dispositions)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=lambda s: signal.Signals(s).name)
def test_a_signal_stops_the_whole_group(repo, tmp_path, signum):
    pids = plan_repo(repo, tmp_path, "sleep 30 & echo $$ $! > {pids}; wait")
    proc = start_check(repo)
    shell, sleeper = map(int, wait_for(pids))
    assert os.getpgid(sleeper) == shell  # the check's group: its shell leads it
    os.kill(proc.pid, signum)
    out, err = proc.communicate(timeout=SAFETY)
    assert proc.returncode == 128 + signum
    assert_group_gone(shell)
    name = signal.Signals(signum).name
    assert out.startswith("AC-1 check error (seq 2, exit none, log ")
    assert err == (f"ha: check: interrupted by {name}: the running command's process group was "
                   "stopped and its line recorded as result error; 1 target(s) recorded, the "
                   "rest not run. Run ha check again to check them\n")
    recs = records(repo)
    assert [r["kind"] for r in recs] == ["start", "check"]  # AC-2 was not run
    assert recs[1]["exit"] is None and recs[1]["result"] == "error"
    gitdir = git(repo, "rev-parse", "--absolute-git-dir").stdout.strip()
    log = Path(gitdir, "ha", "runs", "docs%2Fspecs%2Fempty-input", "2.log").read_text()
    assert log.endswith(f"\nha: interrupted by {name}; stopped the command's process group\n")
    leftovers = [n for n in os.listdir(Path(gitdir, "ha", "runs", "docs%2Fspecs%2Fempty-input"))
                 if n.startswith(".running-")]
    assert leftovers == []


def test_a_group_that_ignores_sigterm_is_killed(repo, tmp_path):
    """SIGTERM first, SIGKILL after the grace: a command that traps TERM cannot outlive ha."""
    pids = plan_repo(repo, tmp_path,
                     "trap \"\" TERM HUP INT; sleep 30 & echo $$ $! > {pids}; wait")
    proc = start_check(repo)
    shell, _sleeper = map(int, wait_for(pids))
    os.kill(proc.pid, signal.SIGTERM)
    proc.communicate(timeout=SAFETY)
    assert proc.returncode == 128 + signal.SIGTERM
    assert_group_gone(shell)


def test_a_signal_ignored_at_start_stays_ignored(repo, tmp_path):
    """`nohup ha check`: a hangup neither stops ha nor its command; the check completes."""
    pids = plan_repo(repo, tmp_path, "echo $$ $$ > {pids}; sleep 2")
    proc = start_check(repo, ignoring=signal.SIGHUP)
    wait_for(pids)
    os.kill(proc.pid, signal.SIGHUP)
    out, err = proc.communicate(timeout=SAFETY)
    assert (proc.returncode, err) == (0, "")
    assert out == "AC-1 check pass (seq 2)\nAC-2 check pass (seq 3)\n"


def test_the_record_stays_a_verified_chain_after_an_interrupt(repo, tmp_path):
    pids = plan_repo(repo, tmp_path, "sleep 30 & echo $$ $! > {pids}; wait")
    proc = start_check(repo)
    wait_for(pids)
    os.kill(proc.pid, signal.SIGTERM)
    proc.communicate(timeout=SAFETY)
    env = dict(os.environ, **GIT_ENV)
    r = subprocess.run([str(SCRIPTS / "ha"), "status", GOAL, "--format", "json"], cwd=repo,
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0
    assert json.loads(r.stdout)["chain"] == {"ok": True, "lines": 2, "error": None}


def test_the_help_states_the_grace_and_the_exit_codes():
    from judgment_toolkit.ha import procgroup, usage
    text = usage.text("ha check")
    assert f"(SIGKILL\nafter {procgroup.STOP_GRACE:g} s)" in text
    for signum in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
        assert f"  {128 + signum} interrupted by {signal.Signals(signum).name}:" in text


def test_the_stop_signals_numbers_are_the_platform_s():
    from judgment_toolkit.ha import errors, procgroup
    assert [(s.name, int(s)) for s in procgroup.STOP_SIGNALS] == list(errors.STOP_SIGNALS)
    assert set(procgroup.STOP_SIGNALS) == {signal.SIGHUP, signal.SIGINT, signal.SIGTERM}
