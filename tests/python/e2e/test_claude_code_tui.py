"""The recall hook in Claude Code's terminal UI, as the person sees it (docs/claude-kit.md,
"What the person sees in the terminal"): the pinned client started with no `-p` in a
pseudo-terminal of 120 x 40, its output read through a terminal emulator, its model the
scripted Messages API of the SDK-mode tests (scripted_api.py), the plugin installed as a user
installs it (claude_home.py). The test types the prompt, reads the question on screen and
picks an option with the arrow keys and Enter, as a person does."""
import json
import re
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from claude_home import (CLAUDE, QUEUE, SETTINGS, VENV_BIN, decide, fixed_hook_home,  # noqa: E402
                         home, project, require_claude, shown_with_a_note)  # noqa: F401 (fixtures)
from drive import client_env  # noqa: E402
from scripted_api import ScriptedAPI  # noqa: E402
from terminal import Terminal  # noqa: E402

require_claude()

HINT = "Enter to select"  # the footer of the question dialog: the question is on screen
NOTE = "↺ "  # how annotate.MARK shows: its invisible first character takes no cell
DAY = r"\d{4}-\d{2}-\d{2}"
API_KEY = "dummy"
PAST = "Use Redis or Postgres for the job queue?"  # the question of the ledger's past decision


def past_first_run(home, project):
    """What a person answers once, in ~/.claude.json (Claude Code rewrites the file, so it is
    merged into): onboarding done (else its check of api.anthropic.com is, offline, an
    "Unable to connect to Anthropic services" screen), the key of ANTHROPIC_API_KEY approved
    by its last 20 characters (else "Detected a custom API key in your environment", "No"
    preselected) and the project's folder trusted (else "Accessing workspace: ... Yes, I
    trust this folder")."""
    config = home / ".claude.json"
    doc = json.loads(config.read_text()) if config.exists() else {}
    doc.update(hasCompletedOnboarding=True,
               customApiKeyResponses={"approved": [API_KEY[-20:]], "rejected": []})
    doc.setdefault("projects", {})[str(project.resolve())] = {"hasTrustDialogAccepted": True}
    config.write_text(json.dumps(doc))


@contextmanager
def tui(home, project, api, path=None):
    """Claude Code's terminal UI on the project, at its prompt; killed at the end."""
    past_first_run(home, project)
    env = client_env(home, api.url, path or f"{VENV_BIN}:/usr/bin:/bin", TERM="xterm-256color",
                     ANTHROPIC_API_KEY=API_KEY)
    with Terminal([str(CLAUDE)], env, project) as term:
        term.wait_for("❯")
        yield term


def ask_on_screen(term, prompt="Ask me."):
    """Types the prompt; returns the screen once the model's question is on it."""
    term.type(prompt)
    term.wait_for(prompt)  # Enter once the prompt holds the text
    term.press("enter")
    return term.wait_for(HINT)


def answer_on_screen(term, label, number):
    """Moves the cursor to option `number` (`label`) and picks it; returns the screen once the
    model's reply to the answer (scripted_api: "Noted.") is on it. The dialog drops the keys
    pressed in its first tenths of a second on screen (measured: Enter at once and after 0.1 s
    lost, after 0.3 s taken), with no sign of it on screen, so a key is pressed again until
    the screen shows it was taken."""
    for at in range(2, number + 1):
        term.press_until("down", lambda shown: f"❯ {at}. " in shown, f"option {at} at the cursor")
    term.press_until("enter", lambda shown: HINT not in shown, "the dialog closed")
    return term.wait_for("Noted.")


def tool_results(api):
    return [block["content"] for request in api.requests
            for message in request["body"].get("messages") or []
            if isinstance(message.get("content"), list)
            for block in message["content"] if block.get("type") == "tool_result"]


@pytest.mark.parametrize("question, chosen", [
    (QUEUE["question"], "Chosen on {day}"),
    # asked in Korean about a decision recorded in English: the note is in Korean
    # (docs/claude-kit.md, "What the person sees")
    ("잡 큐는 레디스로 할까 포스트그레스로 할까?", "{day}에 고른 답")])
def test_the_person_reads_the_past_decision_on_the_option_and_answers(home, project, question,
                                                                       chosen):
    decide(project, PAST, "Postgres", "one less service to run")
    with ScriptedAPI({"questions": [dict(QUEUE, question=question)]}) as api, \
            tui(home, project, api) as term:
        asked = ask_on_screen(term)
        answered = answer_on_screen(term, "Postgres", 2)
    lines = asked.splitlines()
    at = lines.index(question)
    assert lines[at + 2:at + 4] == ["❯ 1. Redis", "     fast, one more service"], asked
    assert lines[at + 4] == "  2. Postgres", asked
    note = rf"     the database we run {NOTE}{chosen.format(day=DAY)}: one less service to run"
    assert re.fullmatch(note, lines[at + 5]), asked  # the mark shows as an arrow, nothing else
    assert "→ Postgres" in answered
    assert any('="Postgres"' in result for result in tool_results(api)), tool_results(api)


def test_a_past_answer_no_option_has_is_a_line_under_the_question(home, project):
    decide(project, PAST, "SQS", "managed for us")
    with ScriptedAPI({"questions": [QUEUE]}) as api, tui(home, project, api) as term:
        asked = ask_on_screen(term)
        answer_on_screen(term, "Redis", 1)
    lines = asked.splitlines()
    at = lines.index("│ " + QUEUE["question"])  # a question of two lines is shown with a bar
    assert re.fullmatch(rf'│ {NOTE}Last time \({DAY}\) the answer was "SQS": managed for us',
                        lines[at + 1]), asked
    assert lines[at + 3:at + 7] == ["❯ 1. Redis", "     fast, one more service",
                                    "  2. Postgres", "     the database we run"], asked
    assert any('="Redis"' in result for result in tool_results(api)), tool_results(api)


def test_an_unrelated_question_is_on_screen_as_asked(home, project):
    decide(project, PAST, "Postgres", "one less service to run")
    with ScriptedAPI({"questions": [SETTINGS]}) as api, tui(home, project, api) as term:
        asked = ask_on_screen(term)
        answered = answer_on_screen(term, "Modal", 1)
    lines = asked.splitlines()
    at = lines.index(SETTINGS["question"])
    assert lines[at + 2:at + 6] == ["❯ 1. Modal", "     stays on the page",
                                    "  2. Route", "     a URL of its own"], asked
    assert "↺" not in asked and "Chosen on" not in asked and "Last time" not in asked
    assert "→ Modal" in answered
    assert any('="Modal"' in result for result in tool_results(api))


# The question dialog of QUEUE as fixed_hook_home's note leaves it, from its header to its last
# option; the same with no decision and with "ask": no banner, and the hook's reason unshown.
DIALOG = [" ☐ Queue", "", QUEUE["question"], "", "❯ 1. Redis", "     fast, one more service",
          "  2. Postgres", "     the database we run (chosen before)", "  3. Type something."]
REASON = "a reason of the hook's own"


@pytest.mark.parametrize("decision", [None, "ask"])
def test_a_hook_without_allow_shows_the_updated_question_and_no_banner(tmp_path, decision):
    """What a PreToolUse answer without "allow" looks like on screen (docs/claude-kit.md,
    "What Claude Code does with it")."""
    answer = {"updatedInput": shown_with_a_note()}
    if decision:
        answer.update(permissionDecision=decision, permissionDecisionReason=REASON)
    home, project, _ = fixed_hook_home(tmp_path, answer)
    with ScriptedAPI({"questions": [QUEUE]}) as api, \
            tui(home, project, api, "/usr/bin:/bin") as term:
        asked = ask_on_screen(term)
        answered = answer_on_screen(term, "Postgres", 2)
    lines = asked.splitlines()
    at = lines.index(DIALOG[0])
    assert lines[at - 1].startswith("────") and lines[at:at + len(DIALOG)] == DIALOG, asked
    assert REASON.encode() not in term.output  # written nowhere, not only off the last screen
    assert "→ Postgres" in answered
    assert any('="Postgres"' in result for result in tool_results(api))
