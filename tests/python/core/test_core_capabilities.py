"""`ha capabilities`: one compact JSON line, no repository needed."""
import json
import os
import shutil
import subprocess
import sys

from conftest import ROOT, ha

from judgment_toolkit.ha import capabilities


def test_outside_any_repository(tmp_path):
    r = ha("capabilities", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.endswith("}\n") and r.stdout.count("\n") == 1
    cap = json.loads(r.stdout)
    assert list(cap) == ["schema", "ha_version", "supported_rules", "default_rules", "formats",
                         "features"]
    assert cap["schema"] == "ha-capabilities/v1" and cap["ha_version"] == "0.1.5"
    assert cap["supported_rules"] == ["run-rules/1", "run-rules/2", "run-rules/3", "run-rules/4"]
    assert cap["default_rules"] == "run-rules/3"
    assert list(cap["formats"]) == sorted(cap["formats"])
    assert cap["formats"]["run_record"] == ["run/v1"]
    assert r.stdout == json.dumps(cap, ensure_ascii=False, separators=(",", ":")) + "\n"


def test_history_advertised_when_it_ships(tmp_path):
    assert capabilities.history_available()  # ha.history.cli is part of this package
    cap = json.loads(ha("capabilities", cwd=tmp_path).stdout)
    assert cap["features"] == ["decision-history/v1"]
    assert cap["formats"]["decision_history"] == ["decision-history/v1"]


def test_arguments_are_usage_errors(tmp_path):
    r = ha("capabilities", "x", cwd=tmp_path)
    assert r.returncode == 64 and r.stderr == "ha: capabilities: unexpected argument 'x'\n"
    r = ha("capabilities", "--jsno", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (64, "")
    assert r.stderr == "ha: capabilities: unknown option --jsno (did you mean '--json'?)\n"


def test_runs_no_git(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    marker = tmp_path / "git-was-run"
    (bindir / "git").write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 1\n")
    (bindir / "git").chmod(0o755)
    env = {"PATH": f"{bindir}:{os.environ['PATH']}"}
    r = ha("capabilities", cwd=tmp_path, env=env)
    assert r.returncode == 0 and not marker.exists()
    r = ha("status", "x", cwd=tmp_path, env=env)   # the fake git is really on PATH
    assert marker.exists()


def test_without_the_history_package(tmp_path):
    """A copy of the package without ha.history.cli: nothing advertised, history unavailable."""
    lib = tmp_path / "lib"
    shutil.copytree(ROOT / "pylib" / "judgment_toolkit", lib / "judgment_toolkit")
    os.remove(lib / "judgment_toolkit" / "ha" / "history" / "cli.py")
    env = dict(os.environ, PYTHONPATH=str(lib))
    run = lambda *a: subprocess.run([sys.executable, "-m", "judgment_toolkit.ha.cli", *a], cwd=tmp_path, env=env,
                                    capture_output=True, text=True)
    cap = json.loads(run("capabilities").stdout)
    assert cap["features"] == [] and "decision_history" not in cap["formats"]
    r = run("history", "g")
    assert r.returncode == 64 and r.stderr == "ha: history: not available\n"
    full = json.loads(ha("capabilities", cwd=tmp_path).stdout)
    assert full["features"] == ["decision-history/v1"]
    assert full["formats"]["decision_history"] == ["decision-history/v1"]


def test_output_failure_is_70(tmp_path):
    if not os.path.exists("/dev/full"):
        import pytest
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        r = subprocess.run([str(ROOT / "scripts" / "ha"), "capabilities"], cwd=tmp_path,
                           stdout=full, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 70 and r.stderr.startswith("ha: internal error: ")
