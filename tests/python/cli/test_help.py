"""Issue 9, Help: every command and subcommand answers --help and -h with its usage on stdout
and exit 0; the usage names every flag and the exit codes; unknown flags stay usage errors.
The calls go through the real entry points (scripts/*), from a folder that is no repository."""
import os
import subprocess

import pytest

from conftest import GIT_ENV, SCRIPTS

from judgment_toolkit.ha.history.register import addcli
from judgment_toolkit.ha.history.views import viewcli
from judgment_toolkit.judgment import record

APPEND = ["--" + f.replace("_", "-") for f in record.FLAGS] + ["--json", "--input"]
COMMANDS = [
    # (script, argv before --help, flags the usage must name, exit codes it must list)
    ("judgment-ledger.sh", [], ["append", "search", "recall"], [0, 64]),
    ("judgment-ledger.sh", ["append"], APPEND, [0, 1]),
    ("judgment-ledger.sh", ["search"], ["--project", "--query", "--limit", "--rank"], [0, 1, 64, 70]),
    ("judgment-ledger.sh", ["recall"], ["--project", "--question", "--rank"], [0, 1, 64, 70]),
    ("judgment-card.sh", [], ["should-issue", "validate", "record-answer", "recall"], [0, 64]),
    ("judgment-card.sh", ["should-issue"], ["--reason", "--floor-category"], [0, 1, 2, 64, 70]),
    ("judgment-card.sh", ["validate"], ["CARD"], [0, 1, 64, 70]),
    ("judgment-card.sh", ["record-answer"],
     ["CARD", "--answer", "--why", "--project", "--session", "--json"], [0, 1, 64]),
    ("judgment-card.sh", ["recall"], ["CARD", "--project", "--rank"], [0, 1, 64, 70]),
    ("ha", [], ["capabilities", "start", "check", "status", "history", "--version"], [0, 64]),
    ("ha", ["capabilities"], [], [0, 64, 70]),
    ("ha", ["start"], ["--request", "--rules"], [0, 64, 65, 66, 70]),
    ("ha", ["check"], ["--timeout", "AC-n", "EX-n", "T001"], [0, 1, 64, 65, 66, 70]),
    ("ha", ["status"], ["--format"], [0, 64, 66, 70]),
    ("ha", ["history"], ["add", "current", "list", "show"], [0, 64, 65, 66, 70]),
    ("ha", ["history", "no/such/goal", "add"], list(addcli.SINGLE + addcli.MULTI),
     [0, 64, 65, 66, 70]),
    ("ha", ["history", "no/such/goal"], list(viewcli._SINGLE + viewcli._REPEAT),
     [0, 64, 65, 66, 70]),
] + [("ha", ["history", "no/such/goal", view], list(viewcli._SINGLE + viewcli._REPEAT),
      [0, 64, 65, 66, 70]) for view in ("current", "list", "show")]


def run(script, *args, cwd):
    env = dict(os.environ, **GIT_ENV)
    return subprocess.run([str(SCRIPTS / script), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("script,argv,flags,codes", COMMANDS,
                         ids=[" ".join([c[0], *c[1]]) for c in COMMANDS])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_on_stdout_exit_0(tmp_path, script, argv, flags, codes, flag):
    r = run(script, *argv, flag, cwd=tmp_path)  # tmp_path: no repository, no goal
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
    assert r.stdout.startswith("usage: ")
    for name in flags:
        assert name in r.stdout, name
    listed = r.stdout.split("exit codes", 1)[1]
    for code in codes:
        assert f"\n  {code:<4}" in listed, code


def test_help_wins_over_the_rest_of_the_line(tmp_path):
    # the help of a subcommand is answered before its required flags are checked, and before
    # the goal is looked up (tmp_path is not a repository)
    r = run("judgment-ledger.sh", "append", "--project", "p", "--help", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("usage: judgment-ledger append")
    r = run("ha", "history", "no/such/goal", "show", "--format", "json", "-h", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("usage: ha history <goal> [current|list]")
    r = run("ha", "start", "no/such/goal", "--help", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("usage: ha start")


def test_a_help_word_given_as_a_value_is_a_value(tmp_path):
    ledger = tmp_path / "l.jsonl"
    env = dict(os.environ, HARNESS_JUDGMENT_LEDGER=str(ledger))
    r = subprocess.run([str(SCRIPTS / "judgment-ledger.sh"), "append", "--project", "p",
                        "--question", "--help", "--answer", "-h", "--card-ref", "c"],
                       env=env, capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    assert b'"question":"--help","answer":"-h"' in ledger.read_bytes()


@pytest.mark.parametrize("script,argv,code,message", [
    ("judgment-ledger.sh", ["append", "--nope", "1"], 1,
     "judgment-ledger: append rejected (--nope: unknown flag)\n"),
    ("judgment-ledger.sh", ["search", "--nope", "1"], 64,
     "judgment-ledger: search: --nope: unknown flag\n"),
    ("judgment-card.sh", ["should-issue", "--nope", "1"], 64,
     "judgment-card: should-issue: --nope: unknown flag\n"),
    ("judgment-card.sh", ["record-answer", "c.json", "--nope", "1"], 64,
     "judgment-card: record-answer: --nope: unknown flag\n"),
    ("ha", ["status", "g", "--nope"], 64, "ha: status: unknown option --nope\n"),
    ("ha", ["history", "g", "add", "--nope", "1"], 64,
     "ha: invalid_input: add: unknown argument '--nope'\n"),
    ("ha", ["history", "g", "list", "--nope", "1"], 64,
     "ha: invalid_input: history list: unknown option --nope\n"),
])
def test_unknown_flags_stay_usage_errors(tmp_path, script, argv, code, message):
    r = run(script, *argv, cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (code, "", message)


@pytest.mark.parametrize("script", ["judgment-ledger.sh", "judgment-card.sh"])
def test_no_subcommand_is_64_with_the_usage_an_unknown_one_is_one_line(tmp_path, script):
    """No subcommand shows the usage on stderr; a wrong one is one line with a did-you-mean
    when it is a likely typo (cliargs.did_you_mean's wording), never the whole usage."""
    tool = script[:-3]
    r = run(script, cwd=tmp_path)
    assert r.returncode == 64 and r.stdout == ""
    assert r.stderr.startswith(f"{tool}: unknown subcommand (none)\nusage: {tool} ")
    r = run(script, "frob", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (64, "")
    assert r.stderr == f"{tool}: unknown subcommand frob; see {tool} --help\n"
    typo, meant = ("apend", "append") if tool == "judgment-ledger" else ("rendr", "render")
    r = run(script, typo, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (64, "")
    assert r.stderr == (f"{tool}: unknown subcommand {typo} (did you mean '{meant}'?); "
                        f"see {tool} --help\n")


@pytest.mark.parametrize("script,argv,message", [
    ("judgment-ledger.sh", ["search", "--project", "p", "--query", "q", "--limt", "2"],
     "judgment-ledger: search: --limt: unknown flag (did you mean '--limit'?)\n"),
    ("judgment-ledger.sh", ["verify", "--jsn"],
     "judgment-ledger: verify: --jsn: unknown flag (did you mean '--json'?)\n"),
    ("judgment-card.sh", ["record-answer", "c.json", "--anwser", "x"],
     "judgment-card: record-answer: --anwser: unknown flag (did you mean '--answer'?)\n"),
])
def test_an_unknown_flag_near_a_real_one_gets_did_you_mean(tmp_path, script, argv, message):
    r = run(script, *argv, cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (64, "", message)


@pytest.mark.parametrize("script", ["judgment-ledger.sh", "judgment-card.sh"])
def test_version_is_the_package_version_with_no_python(tmp_path, script):
    """--version is answered by Bash from pyproject's version (the one place), which is what
    the installed package's metadata says (tests/python/install checks the installed one)."""
    import tomllib
    from conftest import ROOT
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    env = dict(os.environ, HARNESS_PYTHON=str(tmp_path / "no-python"))
    r = subprocess.run([str(SCRIPTS / script), "--version"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{script[:-3]} {version}\n", "")
