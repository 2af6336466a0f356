"""Exit codes and messages (formats note): output is UTF-8 whatever the locale, never a crash."""
import json

from conftest import ha


def test_status_and_history_print_utf8_under_an_ascii_locale(repo, goal):
    assert ha("start", goal, "--request", "빈 입력", cwd=repo).returncode == 0
    env = {"PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    status = ha("status", goal, cwd=repo, env=env)
    assert status.returncode == 0, status.stderr
    assert "- criteria: AC-1, AC-2 (선택)" in status.stdout
    as_json = ha("status", goal, "--format", "json", cwd=repo, env=env)
    assert json.loads(as_json.stdout)["rules"] == "run-rules/3"
    add = ha("history", goal, "add", "--kind", "관측", "--summary", "빈 파일", cwd=repo, env=env)
    assert add.returncode == 0, add.stderr
    md = ha("history", goal, "list", cwd=repo, env=env)
    assert md.returncode == 0, md.stderr
    assert "- D1 · 관측 · 빈 파일" in md.stdout
