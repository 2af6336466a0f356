"""Judgments as history evidence, the recipe of docs/claude-kit.md ("Judgments as history
evidence") run end to end: a person's answer recorded from a card is cited in a history event
as `external:judgment-ledger:<id>` (docs/history.md, "Evidence observed at registration":
recorded, not_checked), and a card cites history events as `ha-history:<goal>#D<n>`, which
render lists with a command that works."""
import json
import shlex
import subprocess

from conftest import GIT_ENV, SCRIPTS, ha

GOAL = "docs/specs/empty-input"


def run(script, *args, cwd, input=None):
    env = {k: v for k, v in __import__("os").environ.items()
           if not k.startswith(("HARNESS_", "PYTEST_"))}
    env.update(GIT_ENV)
    r = subprocess.run([str(SCRIPTS / script), *args], cwd=cwd, env=env, input=input,
                       capture_output=True, text=True)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r.stdout


def test_recipe_end_to_end(repo, goal):
    run("ha", "start", GOAL, "--request", "빈 입력을 고쳐 줘", cwd=repo)
    run("ha", "check", GOAL, "AC-1", cwd=repo)
    d1 = json.loads(run("ha", "history", GOAL, "add", "--kind", "관측", "--summary",
                        "빈 파일에서 오류가 재현된다", "--target", "AC-1", cwd=repo))["id"]

    # 1. a card that cites the history event, answered by the person
    card = {"question": "Return 0 or an error for empty input?",
            "options": [{"id": "zero", "label": "Return 0", "consequence": "callers need no change"},
                        {"id": "error", "label": "Return an error", "consequence": "callers must handle it"}],
            "recommendation": "zero", "confidence": "high",
            "impact": f"the count API; observed in ha-history:{GOAL}#{d1}",
            "diff_summary": "one guard in count()"}
    (repo / "card.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    md = run("judgment-card.sh", "render", "card.json", cwd=repo)
    cited = md.split("## History events cited\n\n")[1].splitlines()
    assert cited == [f"- {GOAL} {d1}: `ha history {GOAL} show {d1}`"]
    show_cmd = shlex.split(cited[0].split("`")[1])
    assert show_cmd[0] == "ha"
    shown = run("ha", *show_cmd[1:], cwd=repo)
    assert f"## {d1} · 관측 · AC-1 · 빈 파일에서 오류가 재현된다" in shown
    run("judgment-card.sh", "record-answer", "card.json", "--answer", "zero", "--why",
        "callers stay simple", "--project", "demo", "--session", "s-1", cwd=repo)

    # 2. find the decision's id: search (id) and recall (mem_id) agree
    found = json.loads(run("judgment-ledger.sh", "search", "--project", "demo", "--query",
                           "empty input", cwd=repo).splitlines()[0])
    recalled = json.loads(run("judgment-ledger.sh", "recall", "--project", "demo", "--question",
                              "empty input", cwd=repo))
    assert recalled[0]["mem_id"] == "judgment-ledger:" + found["id"]

    # 3. cite it in a history event as external evidence
    ref = "external:" + recalled[0]["mem_id"]
    receipt = json.loads(run("ha", "history", GOAL, "add", "--kind", "결정", "--summary",
                             "빈 입력이면 0을 반환한다", "--target", "T001", "--builds-on", d1,
                             "--ref", ref, cwd=repo))
    view = json.loads(run("ha", "history", GOAL, "show", receipt["id"], "--format", "json",
                          cwd=repo))
    assert view["evidence"] == [{"ref": {"type": "external", "ref": "judgment-ledger:" + found["id"]},
                                 "registered": {"type": "external", "state": "not_checked"},
                                 "current": "not_checked"}]
    text = run("ha", "history", GOAL, "show", receipt["id"], cwd=repo)
    assert f"- {ref} · registered not_checked · now not_checked" in text

    # 4. and back: the cited id is a valid record of the ledger
    assert run("judgment-ledger.sh", "verify", cwd=repo).startswith("ok: 1 record ")
    prime = run("judgment-ledger.sh", "prime", "--project", "demo", cwd=repo)
    assert found["id"] in prime
