"""Every `ha` core command that prints JSON takes `--json` and `--format json` alike (README,
"Install"; docs/ha-core.md, "Commands"): the same bytes either way, and a contradiction or an
unknown format is a usage error (64) that names the flags."""
import pytest

from conftest import ha
from helpers_core import started


def test_capabilities_takes_both_spellings(tmp_path):
    plain = ha("capabilities", cwd=tmp_path)
    for flags in (["--json"], ["--format", "json"], ["--format=json"],
                  ["--json", "--format", "json"]):
        r = ha("capabilities", *flags, cwd=tmp_path)
        assert (r.returncode, r.stdout, r.stderr) == (0, plain.stdout, ""), flags
    r = ha("capabilities", "--format", "md", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (64, "")
    assert r.stderr == "ha: capabilities: --format must be json, not 'md'\n"


def test_status_takes_both_spellings(repo, goal):
    started(repo)
    by_format = ha("status", goal, "--format", "json", cwd=repo)
    assert by_format.returncode == 0 and by_format.stdout.startswith('{"schema":"ha-status/v1"')
    for flags in (["--json"], ["--json", "--format=json"], ["--format", "json", "--json"]):
        r = ha("status", goal, *flags, cwd=repo)
        assert (r.returncode, r.stdout, r.stderr) == (0, by_format.stdout, ""), flags
    r = ha("status", "--json", goal, cwd=repo)  # a switch anywhere before the goal, too
    assert r.stdout == by_format.stdout


@pytest.mark.parametrize("flags,message", [
    (["--json", "--format", "md"], "--json and --format md disagree (--json means --format json)"),
    (["--format", "yaml", "--json"],
     "--json and --format yaml disagree (--json means --format json)"),
    (["--json=1"], "--json takes no value, not '--json=1'"),
    (["--jsn"], "unknown option --jsn (did you mean '--json'?)"),
])
def test_status_bad_json_flags(repo, goal, flags, message):
    started(repo)
    r = ha("status", goal, *flags, cwd=repo)
    assert (r.returncode, r.stdout, r.stderr) == (64, "", f"ha: status: {message}\n")
