"""The recall hook under the real Claude Code (docs/claude-kit.md, "What the person sees" and
"What Claude Code does with it"): the pinned client from scripts/setup.sh, its model a scripted
Messages API on 127.0.0.1 that asks one AskUserQuestion, the plugin installed as a user
installs it (`claude plugin marketplace add` + `claude plugin install`, in a HOME of the
test's own), the session driven as an SDK host drives it (stream-json, permission prompts on
stdio). The `can_use_tool` control request carries the input the person is shown."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from claude_home import (CLAUDE, QUEUE, SETTINGS, VENV_BIN, decide, fixed_hook_home,  # noqa: E402
                         home, project, require_claude, shown_with_a_note)  # noqa: F401 (fixtures)
from drive import client_env, session  # noqa: E402
from scripted_api import ScriptedAPI  # noqa: E402

from judgment_toolkit.claude import annotate  # noqa: E402

require_claude()


def ask(home, project, question, path=None, answer=None, **env):
    """One session whose model asks `question`; the person (this test) answers `answer`, or
    denies. Returns the session's record (drive.session)."""
    def reply(request):
        if answer is None:
            return {"behavior": "deny", "message": "not now"}
        shown = request["input"]["questions"][0]["question"]
        return {"behavior": "allow", "updatedInput": dict(request["input"], answers={shown: answer})}
    with ScriptedAPI({"questions": [question]}) as api:
        run = session(str(CLAUDE), client_env(home, api.url, path or f"{VENV_BIN}:/usr/bin:/bin", **env),
                      project, reply)
    run["api"] = api.requests
    result = [m for m in run["messages"] if m.get("type") == "result"]
    assert run["code"] == 0 and result and not result[-1].get("is_error"), run["stderr"][-2000:]
    assert len(run["asked"]) == 1, [m.get("type") for m in run["messages"]]
    return run


def test_a_past_decision_is_on_the_option_chosen_then(home, project):
    decide(project, "Use Redis or Postgres for the job queue?", "Postgres", "one less service to run")
    run = ask(home, project, QUEUE)
    shown = run["asked"][0]["input"]
    postgres = shown["questions"][0]["options"][1]
    assert postgres["label"] == "Postgres" and "Chosen on 20" in postgres["description"]
    assert postgres["description"].startswith("the database we run ")
    assert "one less service to run" in postgres["description"]
    assert annotate.strip_input(shown) == {"questions": [QUEUE]}  # equal as JSON, nothing else moved


def test_a_question_asked_in_korean_shows_its_note_in_korean(home, project):
    """docs/claude-kit.md, "What the person sees": a decision recorded in English, asked about in
    Korean, is shown to the person in Korean on the option chosen then."""
    decide(project, "Use Redis or Postgres for the job queue?", "Postgres", "one less service to run")
    korean = dict(QUEUE, question="잡 큐는 레디스로 할까 포스트그레스로 할까?", header="잡 큐")
    run = ask(home, project, korean)
    shown = run["asked"][0]["input"]
    postgres = shown["questions"][0]["options"][1]
    assert postgres["label"] == "Postgres"
    assert annotate.MARK + "20" in postgres["description"]
    assert "에 고른 답: one less service to run" in postgres["description"]
    assert annotate.strip_input(shown) == {"questions": [korean]}


def test_an_answer_in_other_words_is_on_the_option_it_names(home, project):
    """The answer recorded as "Postgres로 전환" (Korean, a word of a change) is the label
    "Postgres" (judgment.inject.option_of): the real client shows the note on that option."""
    decide(project, "Use Redis or Postgres for the job queue?", "Postgres로 전환", "one less service to run")
    run = ask(home, project, QUEUE)
    shown = run["asked"][0]["input"]
    postgres = shown["questions"][0]["options"][1]
    assert postgres["label"] == "Postgres" and "Chosen on 20" in postgres["description"]
    assert annotate.MARK not in shown["questions"][0]["question"]
    assert annotate.strip_input(shown) == {"questions": [QUEUE]}


def test_an_answer_that_names_an_option_s_words_is_on_that_option(home, project):
    """The answer "WireMock stubs of its API on staging" is no label, and option_of places it
    nowhere (it says more than the label); it names the words of "No, WireMock stubs" alone
    (the Answer's "option", docs/claude-kit.md, "What the person sees"): the real client shows
    the note on that option, quoting the answer."""
    decide(project, "The provider test mode rate-limits our nightly runs. How do E2E tests reach "
           "the payment provider now?", "WireMock stubs of its API on staging", "no flaky runs")
    refund = {"question": "Refund E2E scenario: how do the tests reach the payment provider?",
              "header": "Refund test", "multiSelect": False,
              "options": [{"label": "No, WireMock stubs", "description": "offline"},
                          {"label": "Yes, Toss sandbox", "description": "the real one"}]}
    run = ask(home, project, refund)
    shown = run["asked"][0]["input"]
    stubs, sandbox = shown["questions"][0]["options"]
    assert stubs["description"].startswith("offline " + annotate.MARK + "Chosen on 20")
    assert '"WireMock stubs of its API on staging"' in stubs["description"]
    assert sandbox == refund["options"][1] and annotate.MARK not in shown["questions"][0]["question"]
    assert annotate.strip_input(shown) == {"questions": [refund]}


def test_an_unrelated_question_reaches_the_person_as_asked(home, project):
    decide(project, "Use Redis or Postgres for the job queue?", "Postgres", "one less service to run")
    run = ask(home, project, SETTINGS)
    assert run["asked"][0]["input"] == {"questions": [SETTINGS]}


def test_capture_stores_what_the_person_was_asked_without_the_note(home, project):
    decide(project, "Use Redis or Postgres for the job queue?", "Postgres", "one less service to run")
    run = ask(home, project, QUEUE, answer="Postgres", JUDGMENT_CAPTURE="1")
    assert "Chosen on" in run["asked"][0]["input"]["questions"][0]["options"][1]["description"]
    lines = (project / ".claude" / "state" / "judgment-ledger.jsonl").read_text().splitlines()
    captured = json.loads(lines[-1])
    assert len(lines) == 2 and captured["question"] == QUEUE["question"]
    assert (captured["answer"], captured["rationale"]) == ("Postgres", "the database we run")


def test_a_question_that_asks_two_things_shows_both_decisions_and_capture_drops_both(home, project):
    """docs/claude-kit.md, "What the person sees": one note for each question a question asks
    (docs/judgment-ledger.md, "Several questions in one"), here one on an option and one
    under the question; the real client takes the input, and capture stores the question as
    Claude wrote it."""
    for question, answer, why in [
            ("Bundle size budget for the console?", "200 KB of JS, gzipped", "slow phones"),
            ("Charts library for the dashboards?", "Recharts", "smallest"),
            ("Use Redis or Postgres for the job queue?", "Postgres", "one less service to run"),
            ("How long do we retain application logs?", "30 days", "cold storage after")]:
        decide(project, question, answer, why)
    charts = {"question": "Before we add the charts page: which bundle size budget applies, and "
                          "which charts library should it use?", "header": "Charts",
              "multiSelect": False,
              "options": [{"label": "ECharts", "description": "lazy-loaded"},
                          {"label": "Recharts", "description": "what we have"},
                          {"label": "Raise the budget", "description": "for this page"}]}
    run = ask(home, project, charts, answer="Recharts", JUDGMENT_CAPTURE="1")
    shown = run["asked"][0]["input"]["questions"][0]
    assert "Chosen on 20" in shown["options"][1]["description"]
    assert shown["question"].startswith(charts["question"] + "\n" + annotate.MARK + "Last time (20")
    assert '"200 KB of JS, gzipped": slow phones' in shown["question"]
    assert annotate.strip_input(run["asked"][0]["input"]) == {"questions": [charts]}
    captured = json.loads((project / ".claude" / "state" / "judgment-ledger.jsonl").read_text().splitlines()[-1])
    assert (captured["question"], captured["answer"]) == (charts["question"], "Recharts")


@pytest.mark.parametrize("fault", ["no tools installed", "corrupt ledger", "ledger is a directory"])
def test_the_session_never_breaks(home, project, fault):
    ledger = project / ".claude" / "state" / "judgment-ledger.jsonl"
    path = None
    if fault == "no tools installed":
        decide(project, "Use Redis or Postgres for the job queue?", "Postgres", "one less service")
        path = "/usr/bin:/bin"
    elif fault == "corrupt ledger":
        ledger.parent.mkdir(parents=True)
        ledger.write_bytes(b'{"id": "x", "project": "shop", "question": "Redis or Postgres?\n\xff\xfe{{{\n')
    else:
        ledger.mkdir(parents=True)
    run = ask(home, project, QUEUE, path=path)  # asked, answered, ended: asserted in ask()
    shown = run["asked"][0]["input"]
    if fault == "no tools installed":  # the plugin's own scripts/ on a bare python3: the
        assert annotate.strip_input(shown) == {"questions": [QUEUE]}  # question, maybe annotated
    else:
        assert shown == {"questions": [QUEUE]}


# -- what Claude Code does with a PreToolUse answer (docs/claude-kit.md, "What Claude Code does
# with it"): measured with a hook of the test's own that prints a fixed answer ---------------

def fixed_hook_session(tmp_path, answer):
    """A session under fixed_hook_home's hooks; returns (session record, PostToolUse payload
    or None)."""
    home, project, post = fixed_hook_home(tmp_path, answer)

    def reply(request):
        return {"behavior": "allow", "updatedInput": dict(request["input"], answers={
            request["input"]["questions"][0]["question"]: "Postgres"})}
    with ScriptedAPI({"questions": [QUEUE]}) as api:
        run = session(str(CLAUDE), client_env(home, api.url, "/usr/bin:/bin"), project, reply)
    results = [b for m in run["messages"] if m.get("type") == "user"
               for b in m["message"]["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    run["tool_result"] = results[0]["content"] if results else None
    return run, json.loads(post.read_text()) if post.exists() else None


@pytest.mark.parametrize("decision", [None, "ask"])
def test_without_allow_the_person_is_asked_the_updated_question(tmp_path, decision):
    answer = {"updatedInput": shown_with_a_note()}
    if decision:
        answer["permissionDecision"] = decision
    run, post = fixed_hook_session(tmp_path, answer)
    assert [a["input"] for a in run["asked"]] == [shown_with_a_note()]  # equal as JSON
    assert "=\"Postgres\"" in run["tool_result"]
    assert post["tool_input"]["questions"] == shown_with_a_note()["questions"]  # what capture reads


def test_allow_takes_updated_input_as_the_answer_and_never_asks(tmp_path):
    run, _ = fixed_hook_session(tmp_path, {"permissionDecision": "allow", "updatedInput": shown_with_a_note()})
    assert run["asked"] == [] and "did not answer" in run["tool_result"]


def test_an_updated_input_that_fails_the_schema_is_refused(tmp_path):
    invalid = json.loads(json.dumps({"questions": [QUEUE]}))
    invalid["questions"][0]["options"] = invalid["questions"][0]["options"][:1]
    run, _ = fixed_hook_session(tmp_path, {"updatedInput": invalid})
    assert run["asked"] == [] and "failed schema validation" in run["tool_result"]
