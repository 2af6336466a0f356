"""Core errors are values: a machine code callers branch on, the message, and the
exit code the core's table gives the code; the stderr line stays `ha: <message>` as
docs/ha-core.md ("Exit codes and messages") documents it (`ha: record_integrity: ...` for a broken chain)."""
import pytest

from conftest import ha
from helpers_core import GOAL, started

from judgment_toolkit.ha import errors, gitrepo, goal as goalmod, runs
from judgment_toolkit.ha.errors import HaError
from judgment_toolkit.ha.history.errors import EXIT_CODES, HistoryError


def test_every_core_code_has_a_documented_exit_code():
    assert set(errors.CODES.values()) <= {64, 65, 66, 70}
    for code, exit_code in errors.CODES.items():
        e = errors.error(code, "m")
        assert (e.code, e.exit_code, e.message) == (code, exit_code, "m")


def test_an_error_without_an_exit_code_is_a_programming_error():
    with pytest.raises(TypeError):
        HaError("no exit code")  # there is no default that could hide a missing one
    with pytest.raises(ValueError):
        HaError("m", 1)


def test_only_documented_codes_show_on_the_stderr_line():
    assert errors.error("not_started", "not started: g").render() == "ha: not started: g"
    assert errors.error("record_integrity", "x broken").render() == "ha: record_integrity: x broken"
    for code in EXIT_CODES:
        assert HistoryError(code, "m").render() == f"ha: {code}: m"


def test_a_broken_chain_is_record_integrity_as_data_and_on_stderr(repo, goal):
    started(repo)
    path = repo / GOAL / "runs.jsonl"
    path.write_bytes(path.read_bytes() + b"{not json}\n")
    g = goalmod.resolve(gitrepo.discover(str(repo)), GOAL, cwd=str(repo))
    e = runs.integrity_error(runs.read_chain(g))
    assert e.code == "record_integrity" and e.exit_code == 65
    assert not e.message.startswith("record_integrity")
    r = ha("check", GOAL, "AC-1", cwd=repo)
    assert r.returncode == 65 and r.stderr == e.render() + "\n"


@pytest.mark.parametrize("argv, code", [
    (["start", GOAL, "--request", "again"], "already_started"),
    (["check", GOAL, "AC-9"], "target_refused"),
    (["check", GOAL, "EX-1"], "target_refused"),
])
def test_refusals_carry_their_code(repo, goal, argv, code):
    from judgment_toolkit.ha import check, start
    started(repo)
    g = goalmod.resolve(gitrepo.discover(str(repo)), GOAL, cwd=str(repo))
    with pytest.raises(HaError) as exc:
        if argv[0] == "start":
            start.start(g, "again")
        else:
            check.select(g, argv[2:])
    assert exc.value.code == code and exc.value.exit_code == errors.CODES[code]
    r = ha(*argv, cwd=repo)
    assert r.returncode == exc.value.exit_code and r.stderr == exc.value.render() + "\n"
