"""`ha new <goal>` from the built wheel, in a fresh venv, outside the checkout (docs/ha-core.md,
"ha new"): it writes SPEC.md and PLAN.md from the templates the wheel carries (the same bytes
as the wheel's templates/goal/, the goal path filled in), refuses to overwrite them, and
`ha start`, `ha status` and `ha check` work on the result right after a commit."""
import json
import re
import zipfile

from builds import sh
from test_install import user_env

GOAL = "docs/specs/first"


def test_ha_new_from_the_wheel_then_start(installed, wheel, tmp_path):
    env = user_env(tmp_path)
    ha = str(installed / "ha")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("x\n")
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "initial"]):
        sh("git", *argv, cwd=repo, env=env)

    def run(*argv):
        return sh(ha, *argv, cwd=repo, env=env, check=False)

    r = run("new", GOAL)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == f"wrote {GOAL}/SPEC.md\nwrote {GOAL}/PLAN.md\n"
    with zipfile.ZipFile(wheel) as z:
        packaged = {n.rsplit("/", 1)[1]: z.read(n).decode("utf-8") for n in z.namelist()
                    if "/templates/goal/" in n and n.endswith(".md")}
    assert sorted(packaged) == ["PLAN.md", "SPEC.md"]
    for name, text in packaged.items():
        assert (repo / GOAL / name).read_text(encoding="utf-8") == text.replace("{{goal}}", GOAL)

    before = {n: (repo / GOAL / n).read_bytes() for n in packaged}
    r = run("new", GOAL)
    assert (r.returncode, r.stdout) == (65, "")
    assert "never overwrites" in r.stderr
    assert {n: (repo / GOAL / n).read_bytes() for n in packaged} == before

    sh("git", "add", "-A", cwd=repo, env=env)
    sh("git", "commit", "-qm", "goal from ha new", cwd=repo, env=env)
    r = run("start", GOAL, "--request", "start from the template")
    assert (r.returncode, r.stderr) == (0, "") and r.stdout.startswith("started: seq 1, base ")
    status = json.loads(run("status", GOAL, "--json").stdout)
    assert status["ids"] == {"criteria": ["AC-1"], "optional": [], "extras": [],
                             "tasks": ["T001"]}
    assert status["chain"] == {"ok": True, "lines": 1, "error": None}
    # the template's example command (`make test`) runs and fails here (no Makefile; no make
    # at all is an error): either way it is recorded as line 2
    r = run("check", GOAL, "AC-1")
    assert r.returncode == 1 and re.match(r"AC-1 check (fail|error) \(seq 2, exit ", r.stdout)
