"""judgment-ledger.sh prime --project P [--limit N]: the recent decisions injected at
session start; fail-open like append (Judgment Ledger v1, section 'Fail-Open')."""
import os
import subprocess

import pytest

from ledger_helpers import hermetic_env, ledger, rec, write_records


def env_for(tmp_path, path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)


def test_newest_first_only_this_project_default_5(tmp_path):
    path = tmp_path / "l.jsonl"
    recs = [rec(n, decided_at=f"2026-01-{n:02d}T00:00:00Z") for n in range(1, 9)]
    recs.insert(3, rec(99, project="other", decided_at="2026-12-31T00:00:00Z", question="secret"))
    recs.append(rec(50, decided_at="2026-01-05T00:00:00+00:00", question="same time, later line"))
    write_records(path, recs)
    r = ledger("prime", "--project", "demo", env=env_for(tmp_path, path))
    assert (r.returncode, r.stderr) == (0, "")
    items = [line for line in r.stdout.splitlines() if line.startswith("- ")]
    assert items == [
        "- question 8 → **a** (2026-01-08T00:00:00Z, id `id-8`)",
        "- question 7 → **a** (2026-01-07T00:00:00Z, id `id-7`)",
        "- question 6 → **a** (2026-01-06T00:00:00Z, id `id-6`)",
        "- same time, later line → **a** (2026-01-05T00:00:00+00:00, id `id-50`)",
        "- question 5 → **a** (2026-01-05T00:00:00Z, id `id-5`)"]
    assert r.stdout.startswith("## Recent judgments: demo\n") and "secret" not in r.stdout


def test_limit_and_offset_times(tmp_path):
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(1, decided_at="2026-01-01T10:00:00+09:00"),  # 01:00Z
                         rec(2, decided_at="2026-01-01T02:00:00Z"),
                         rec(3, decided_at="not a time")])
    r = ledger("prime", "--project", "demo", "--limit", "2", env=env_for(tmp_path, path))
    assert [l.split(" → ")[0] for l in r.stdout.splitlines() if l.startswith("- ")] == \
        ["- question 2", "- question 1"]


def test_long_and_multiline_fields_stay_on_one_short_line(tmp_path):
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(1, question="line one\nline two\t" + "x" * 500, answer="yes\r\nno")])
    out = ledger("prime", "--project", "demo", env=env_for(tmp_path, path)).stdout
    item = [l for l in out.splitlines() if l.startswith("- ")]
    assert len(item) == 1 and item[0].startswith("- line one line two xxx")
    assert "…" in item[0] and len(item[0]) < 300 and "**yes no**" in item[0]


@pytest.mark.parametrize("setup", ["missing", "empty", "other-project-only"])
def test_nothing_to_say_prints_nothing(tmp_path, setup):
    path = tmp_path / "l.jsonl"
    if setup == "empty":
        path.write_bytes(b"")
    elif setup == "other-project-only":
        write_records(path, [rec(1, project="other")])
    r = ledger("prime", "--project", "demo", env=env_for(tmp_path, path))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_unreadable_ledger_is_one_warning_and_exit_0(tmp_path):
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(1)])
    path.chmod(0)
    if os.access(path, os.R_OK):  # root reads anything: use a folder in its place instead
        path.chmod(0o644)
        path.unlink()
        path.mkdir()
    r = ledger("prime", "--project", "demo", env=env_for(tmp_path, path))
    assert r.returncode == 0 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("judgment-ledger: prime: skipped (")


def test_a_fifo_in_place_of_the_ledger_is_not_waited_on(tmp_path):
    path = tmp_path / "l.jsonl"
    os.mkfifo(path)
    r = ledger("prime", "--project", "demo", env=env_for(tmp_path, path))  # would hang on open
    assert (r.returncode, r.stdout) == (0, "")
    assert r.stderr == (f"judgment-ledger: prime: skipped (cannot read {path}: "
                        "not a regular file (a FIFO))\n")


def test_read_error_is_fail_open(tmp_path):
    """A real EIO-like failure: /proc/self/mem cannot be read from offset 0."""
    r = ledger("prime", "--project", "demo", env=env_for(tmp_path, "/proc/self/mem"))
    assert r.returncode == 0 and r.stdout == "" and "prime: skipped" in r.stderr


@pytest.mark.parametrize("args, message", [
    ((), "prime: project: missing --project"),
    (("--project", "p", "--limit", "0"), "prime: limit: must be a whole number from 1 to 50, not '0'"),
    (("--project", "p", "--limit", "51"), "prime: limit: must be a whole number from 1 to 50, not '51'"),
    (("--project", "p", "--bogus", "1"), "prime: --bogus: unknown flag"),
])
def test_usage_errors_exit_64(tmp_path, args, message):
    r = ledger("prime", *args, env=env_for(tmp_path, tmp_path / "l.jsonl"))
    assert (r.returncode, r.stdout, r.stderr) == (64, "", f"judgment-ledger: {message}\n")


def test_default_ledger_location_is_the_git_top_level(tmp_path):
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".claude" / "state").mkdir(parents=True)
    write_records(repo / ".claude" / "state" / "judgment-ledger.jsonl", [rec(1)])
    r = ledger("prime", "--project", "demo", env=hermetic_env(tmp_path), cwd=repo / "sub")
    assert "- question 1 → **a**" in r.stdout


@pytest.mark.parametrize("project, shown", [("demo", "demo"),
                                             ("team's app", "'team'\"'\"'s app'"),
                                             ("a`b", "'a`b'")])
def test_the_recall_hint_names_this_project_as_a_shell_word(tmp_path, project, shown):
    """The digest's hint is a command an agent can run as it is: the project is the one
    primed, quoted for the shell, and never breaks the Markdown code span."""
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(1, project=project)])
    r = ledger("prime", "--project", project, env=env_for(tmp_path, path))
    assert r.returncode == 0, r.stderr
    cmd = f"judgment-ledger recall --project {shown} --question TEXT"
    assert (f"`` {cmd} ``" if "`" in project else f"`{cmd}`") in r.stdout, r.stdout
