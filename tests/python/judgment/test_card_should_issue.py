"""judgment-card.sh should-issue --reason R [--floor-category C]."""
import pytest

from ledger_helpers import card, hermetic_env


@pytest.mark.parametrize("reason", ["dod-ambiguous", "scope-exceeded", "tradeoff"])
def test_reasons_in_the_enum_issue_a_card(tmp_path, reason):
    r = card("should-issue", "--reason", reason, env=hermetic_env(tmp_path))
    assert (r.returncode, r.stdout, r.stderr) == (0, "ISSUE_CARD\n", "")


@pytest.mark.parametrize("reason", ["", "Tradeoff", "trade-off", "style", " tradeoff"])
def test_other_reasons_do_not(tmp_path, reason):
    r = card("should-issue", "--reason", reason, env=hermetic_env(tmp_path))
    assert (r.returncode, r.stdout, r.stderr) == (1, "NO_CARD: reason not in enum\n", "")


@pytest.mark.parametrize("reason", ["tradeoff", "style"])
def test_a_floor_category_is_a_hard_stop_whatever_the_reason(tmp_path, reason):
    r = card("should-issue", "--reason", reason, "--floor-category", "security",
             env=hermetic_env(tmp_path))
    assert (r.returncode, r.stdout, r.stderr) == (2, "HARD_STOP: floor (security)\n", "")
    r = card("should-issue", "--floor-category", "data loss", env=hermetic_env(tmp_path))
    assert (r.returncode, r.stdout) == (2, "HARD_STOP: floor (data loss)\n")


def test_empty_floor_category_is_no_floor(tmp_path):
    r = card("should-issue", "--reason", "tradeoff", "--floor-category", "", env=hermetic_env(tmp_path))
    assert (r.returncode, r.stdout) == (0, "ISSUE_CARD\n")


def test_usage_errors(tmp_path):
    env = hermetic_env(tmp_path)
    r = card("should-issue", env=env)
    assert (r.returncode, r.stdout, r.stderr) == (64, "", "judgment-card: should-issue: reason: missing --reason\n")
    r = card("should-issue", "--reason", "tradeoff", "--why", "x", env=env)
    assert (r.returncode, r.stderr) == (64, "judgment-card: should-issue: --why: unknown flag\n")


def test_answered_by_bash_alone_with_no_python_at_all(tmp_path):
    """should-issue is argument logic only: no interpreter is started (HARNESS_PYTHON names
    one that does not exist, and PATH holds no python)."""
    env = hermetic_env(tmp_path, HARNESS_PYTHON=tmp_path / "no-python", PATH="/usr/bin:/bin")
    for args, answer in ((["--reason", "tradeoff"], (0, "ISSUE_CARD\n", "")),
                         (["--reason", "x"], (1, "NO_CARD: reason not in enum\n", "")),
                         (["--floor-category", "f"], (2, "HARD_STOP: floor (f)\n", ""))):
        r = card("should-issue", *args, env=env)
        assert (r.returncode, r.stdout, r.stderr) == answer
