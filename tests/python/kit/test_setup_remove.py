"""`judgment-kit setup-claude --remove` takes out exactly what setup adds (docs/claude-kit.md,
"Without the plugin"): the rules `--goal G` added, and those of a goal that has moved or gone
since, which the goals found today no longer name; the person's own rules stay."""
import json
import subprocess

from conftest import ROOT


def kit(*args, cwd, home):
    return subprocess.run([str(ROOT / "scripts" / "judgment-kit"), *args], cwd=cwd,
                          capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(home)}, timeout=60)


def project(tmp_path, *goals):
    """A project with a started goal (a folder holding runs.jsonl) per name under docs/specs."""
    root = tmp_path / "project"
    for goal in goals:
        folder = root / "docs" / "specs" / goal
        folder.mkdir(parents=True)
        (folder / "runs.jsonl").write_text("{}\n")
    (tmp_path / "home").mkdir()
    return root, tmp_path / "home"


def write(root, settings):
    path = root / ".claude" / "settings.local.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings, indent=2) + "\n"
    path.write_text(text)
    return path, text


def test_remove_takes_out_the_rules_goal_added(tmp_path):
    root, home = project(tmp_path)
    path, before = write(root, {"permissions": {"allow": ["Bash(make test)"]}})
    assert kit("setup-claude", "--goal", "docs/specs/elsewhere", cwd=root, home=home).returncode == 0
    assert "Bash(ha history docs/specs/elsewhere list *)" in path.read_text()
    r = kit("setup-claude", "--remove", cwd=root, home=home)
    assert r.returncode == 0, r.stderr
    assert path.read_text() == before


def test_remove_takes_out_the_rules_of_a_goal_that_moved(tmp_path):
    root, home = project(tmp_path, "old-name")
    path, before = write(root, {"permissions": {"allow": ["Bash(ha history mine --json)"],
                                                "ask": ["Bash(rm *)"]}})
    assert kit("setup-claude", cwd=root, home=home).returncode == 0
    assert "Bash(ha history docs/specs/old-name show *)" in path.read_text()
    (root / "docs" / "specs" / "old-name").rename(root / "docs" / "specs" / "new-name")
    r = kit("setup-claude", "--remove", cwd=root, home=home)
    assert r.returncode == 0, r.stderr
    assert path.read_text() == before  # `--json` is no tail setup writes: the person's rule stays


def test_remove_keeps_rules_that_only_look_alike(tmp_path):
    root, home = project(tmp_path)
    own = ["Bash(ha history docs/specs/x add *)", "Bash(ha history docs/specs/x list --json)",
           "Bash(ha history docs/specs/x y list)", "Bash(ha history * list *)"]
    path, before = write(root, {"permissions": {"allow": own}})
    assert kit("setup-claude", cwd=root, home=home).returncode == 0
    assert kit("setup-claude", "--remove", cwd=root, home=home).returncode == 0
    assert path.read_text() == before
