"""The Claude Code plugin (docs/claude-kit.md): manifests against the plugins reference and the
plugin-marketplaces page, the hooks driven as Claude Code drives them (`sh -c` with the hook's
JSON on stdin) under `env -i PATH=/usr/bin:/bin HOME=<tmp>`, the setup command and the
permission rules under the permissions page's matching rules."""
import json
import re
import shlex
import subprocess
import uuid
from pathlib import Path

import pytest

from conftest import ROOT

PLUGIN_DIR = ROOT / "plugin"  # the marketplace's one plugin source (docs/claude-kit.md)
PLUGIN = json.loads((PLUGIN_DIR / ".claude-plugin" / "plugin.json").read_text())
MARKET = json.loads((ROOT / ".claude-plugin" / "marketplace.json").read_text())
HOOKS = json.loads((PLUGIN_DIR / "hooks" / "hooks.json").read_text())["hooks"]
KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
EVENTS = {"SessionStart", "PreToolUse", "PostToolUse"}  # hooks reference, "Hook events" (subset used)
QUESTION = "Which queue backend: Redis or Postgres?"


def pyproject_version():
    text = (ROOT / "pyproject.toml").read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


def test_plugin_manifest_follows_the_plugins_reference():
    """Plugins reference, 'Required fields', 'Component path fields', 'Path behavior rules':
    the default folders (skills/, commands/, hooks/hooks.json, .mcp.json) as regular files, so
    `claude plugin validate --strict` reads them (it reads no symlinked component)."""
    assert KEBAB.fullmatch(PLUGIN["name"]) and PLUGIN["version"] == pyproject_version()
    assert isinstance(PLUGIN["keywords"], list) and isinstance(PLUGIN["author"]["name"], str)
    for field in ("skills", "commands", "hooks", "mcpServers"):
        assert field not in PLUGIN, field  # the default location; naming it loads it twice
    for part in ("skills", "commands", "hooks", "hooks/hooks.json", ".mcp.json"):
        assert not (PLUGIN_DIR / part).is_symlink(), part
    assert list((PLUGIN_DIR / "skills").glob("*/SKILL.md"))
    for elsewhere in (ROOT / "skills", ROOT / "commands", ROOT / "hooks", ROOT / ".mcp.json"):
        assert not elsewhere.exists(), elsewhere  # one copy, in the plugin's folder
    # the design card's .claude/ serves the same files to a session in this repository: links
    # into the plugin's folder, never copies
    for part in ("skills", "commands"):
        link = ROOT / ".claude" / part
        assert link.is_symlink() and link.resolve() == (PLUGIN_DIR / part).resolve(), link


def test_marketplace_follows_the_marketplaces_page():
    """Plugin marketplaces, 'Marketplace schema' (name, owner, plugins required), 'Plugin
    entries' and 'Relative paths' (./ from the marketplace root, no ..)."""
    assert KEBAB.fullmatch(MARKET["name"]) and MARKET["owner"]["name"]
    (entry,) = MARKET["plugins"]
    assert entry["name"] == PLUGIN["name"] and entry["source"] == "./plugin"
    assert (ROOT / entry["source"] / ".claude-plugin" / "plugin.json").is_file()
    assert "version" not in entry  # plugin.json's version is the one fact


def test_hooks_file_structure_and_events():
    """Hooks reference, 'Configuration' / 'Matcher patterns': event -> [{matcher, hooks:
    [{type: command, command, timeout}]}]; SessionStart on every documented source."""
    from judgment_toolkit.claude.setup import PLUGIN_ROOT, hook_settings
    assert set(HOOKS) == EVENTS and HOOKS == hook_settings(PLUGIN_ROOT)
    for event, groups in HOOKS.items():
        for group in groups:
            assert set(group) == {"matcher", "hooks"}
            for hook in group["hooks"]:
                assert hook["type"] == "command" and isinstance(hook["timeout"], int)
    assert set(HOOKS["SessionStart"][0]["matcher"].split("|")) == {
        "startup", "resume", "clear", "compact", "fork"}
    assert HOOKS["PreToolUse"][0]["matcher"] == HOOKS["PostToolUse"][0]["matcher"] == "AskUserQuestion"


# -- the hooks as Claude Code runs them ------------------------------------------------------

def command(event):
    return HOOKS[event][0]["hooks"][0]["command"]


def run_hook(event, payload, home, project, root=PLUGIN_DIR, **extra):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "CLAUDE_PLUGIN_ROOT": str(root),
           "CLAUDE_PROJECT_DIR": str(project), **extra}
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in env.items()], "sh", "-c",
                           command(event)], input=data, capture_output=True, text=True,
                          cwd=project, timeout=60)


def ask_payload(event, project, **more):
    """An AskUserQuestion call as the hooks reference shows it ('PreToolUse input',
    'AskUserQuestion'; 'PostToolUse input' adds tool_response)."""
    payload = {"session_id": "sess-1", "cwd": str(project), "hook_event_name": event,
               "tool_name": "AskUserQuestion", "tool_use_id": "toolu_01", "permission_mode": "default",
               "tool_input": {"questions": [{"question": QUESTION, "header": "Queue", "multiSelect": False,
                                             "options": [{"label": "Redis", "description": "fast, one more service"},
                                                         {"label": "Postgres", "description": "no new service"}]}]}}
    payload.update(more)
    return payload


@pytest.fixture
def shop(tmp_path):
    project = tmp_path / "shop"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    return project, home


def ledger_lines(project):
    path = project / ".claude" / "state" / "judgment-ledger.jsonl"
    return [json.loads(l) for l in path.read_text().splitlines()] if path.exists() else []


def test_checkout_hooks_prime_recall_and_stay_silent(shop):
    project, home = shop
    empty = run_hook("PreToolUse", ask_payload("PreToolUse", project), home, project)
    assert (empty.returncode, empty.stdout) == (0, "")  # nothing matches: nothing said
    subprocess.run([str(ROOT / "scripts" / "judgment-ledger.sh"), "append", "--project", "shop",
                    "--question", "Use Redis or Postgres as the queue backend?", "--answer", "postgres",
                    "--card-ref", "c.json", "--rationale", "one less service"], cwd=project, check=True)
    for source in ("startup", "resume", "clear", "compact", "fork"):
        r = run_hook("SessionStart", {"session_id": "s", "hook_event_name": "SessionStart",
                                      "source": source}, home, project)
        assert r.returncode == 0 and r.stdout.startswith("## Recent judgments: shop\n"), source
    r = run_hook("PreToolUse", ask_payload("PreToolUse", project), home, project)
    assert r.returncode == 0
    out = json.loads(r.stdout)["hookSpecificOutput"]
    assert set(out) == {"hookEventName", "updatedInput", "additionalContext"}  # never a decision
    assert "Chosen on 20" in out["updatedInput"]["questions"][0]["options"][1]["description"]
    assert "chose \"postgres\" because one less service" in out["additionalContext"]
    assert "mem_id judgment-ledger:" in out["additionalContext"]
    for bad in ("", "not json", "[1,2]", '{"tool_input": 5}'):
        r = run_hook("PreToolUse", bad, home, project)
        assert (r.returncode, r.stdout) == (0, ""), bad


def test_the_recall_hook_reads_the_questions_header(shop):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 1: the header Claude
    gives a question ("Rollout") names its subject; the hook passes it to the recall, so a
    question worded as a situation finds the decision, and with a generic header it does not."""
    project, home = shop
    for question, answer in [  # the decision, among others of the team (the words' idf)
            ("Use Redis or Postgres for the job queue?", "postgres"),
            ("How long do we retain application logs?", "30 days"),
            ("Offset or cursor pagination for list endpoints?", "cursor"),
            ("Ship dark mode in the first release?", "no, after launch"),
            ("Mobile app release rollout?", "staged over three days: 10%, 50%, 100%")]:
        subprocess.run([str(ROOT / "scripts" / "judgment-ledger.sh"), "append", "--project",
                        "shop", "--question", question, "--answer", answer,
                        "--card-ref", "c.json"], cwd=project, check=True)

    def asked(header):
        payload = ask_payload("PreToolUse", project)
        payload["tool_input"]["questions"][0].update(
            question="Is everyone moved to the new app the same morning?", header=header,
            options=[{"label": "Yes", "description": ""}, {"label": "No", "description": ""}])
        return run_hook("PreToolUse", payload, home, project)

    r = asked("Rollout")
    assert r.returncode == 0
    assert "staged over three days" in json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    r = asked("Approach")
    assert (r.returncode, r.stdout) == (0, "")


def test_the_note_goes_on_the_option_an_answer_in_other_words_chose(shop):
    """docs/claude-kit.md, "What the person sees": the hook, as Claude Code runs it, puts the
    past decision on the option it chose when the answer was recorded in other words ("SQS로
    전환" for "Amazon SQS"), and the question stays as asked."""
    project, home = shop
    subprocess.run([str(ROOT / "scripts" / "judgment-ledger.sh"), "append", "--project", "shop",
                    "--question", "Which queue backend should the workers use?", "--answer", "SQS로 전환",
                    "--card-ref", "c.json", "--rationale", "managed, no ops"], cwd=project, check=True)
    payload = ask_payload("PreToolUse", project)
    question = "Which queue backend should the new workers use?"
    payload["tool_input"]["questions"][0].update(question=question, options=[
        {"label": "Postgres (SKIP LOCKED)", "description": "no new service"},
        {"label": "Amazon SQS", "description": "managed"}])
    r = run_hook("PreToolUse", payload, home, project)
    assert r.returncode == 0
    asked = json.loads(r.stdout)["hookSpecificOutput"]["updatedInput"]["questions"][0]
    assert asked["question"] == question
    assert asked["options"][0] == payload["tool_input"]["questions"][0]["options"][0]
    assert asked["options"][1]["description"].startswith("managed \u200c\u21ba Chosen on 20")


def test_a_question_that_asks_two_things_shows_a_decision_for_each(shop):
    """docs/claude-kit.md, "What the person sees": the person reads the first decision of each
    question a question asks ("Several questions in one" of docs/judgment-ledger.md), here one
    on the option it chose and one under the question; capture's strip gives back the input."""
    from judgment_toolkit.claude import annotate
    project, home = shop
    for question, answer, why in [
            ("Bundle size budget for the console?", "200 KB of JS, gzipped, checked in CI", "slow phones"),
            ("Charts library for the dashboards?", "Recharts", "smallest"),
            ("Use Redis or Postgres for the job queue?", "postgres", ""),
            ("How long do we retain application logs?", "30 days", ""),
            ("Offset or cursor pagination for list endpoints?", "cursor", "")]:
        subprocess.run([str(ROOT / "scripts" / "judgment-ledger.sh"), "append", "--project", "shop",
                        "--question", question, "--answer", answer, "--card-ref", "c.json",
                        "--rationale", why], cwd=project, check=True)
    payload = ask_payload("PreToolUse", project)
    payload["tool_input"]["questions"][0].update(
        question="Before we add the charts page: which bundle size budget applies, and which charts library should it use?",
        header="Charts", options=[{"label": "ECharts, lazy-loaded", "description": "a"},
                                  {"label": "Recharts", "description": "b"},
                                  {"label": "Raise the budget", "description": "c"}])
    r = run_hook("PreToolUse", payload, home, project)
    assert r.returncode == 0
    updated = json.loads(r.stdout)["hookSpecificOutput"]["updatedInput"]
    asked = updated["questions"][0]
    assert asked["options"][1]["description"] == "b " + annotate.MARK + "Chosen on " + \
        ledger_lines(project)[1]["decided_at"][:10] + ": smallest"
    assert asked["question"].endswith('the answer was "200 KB of JS, gzipped, checked in CI": slow phones')
    assert asked["question"].count(annotate.MARK) == 1
    assert annotate.strip_input(updated) == payload["tool_input"]


def test_not_installed_one_line_exit_zero(shop, tmp_path):
    project, home = shop
    bare = tmp_path / "plugin"  # a plugin folder without the tools
    (bare / "hooks").mkdir(parents=True)
    for event in EVENTS:
        r = run_hook(event, ask_payload(event, project), home, project, root=bare, JUDGMENT_CAPTURE="1")
        assert r.returncode == 0 and r.stdout.count("\n") == 1 and "pipx install" in r.stdout


def test_capture_is_opt_in_idempotent_and_keeps_the_text(shop):
    """Capture reads tool_response.answers, else tool_input.answers (hooks reference,
    'AskUserQuestion': question text -> label, multi-select joined with commas)."""
    project, home = shop
    tricky = "Ship it as \"v2\" with $HOME and `date`?"
    payload = ask_payload("PostToolUse", project, tool_response={"answers": {QUESTION: "Postgres"}})
    payload["tool_input"]["questions"].append({"question": tricky, "header": "Ship", "multiSelect": True,
                                               "options": [{"label": "A"}, {"label": "B", "description": "why B"}]})
    payload["tool_input"]["answers"] = {tricky: "A, B"}
    assert run_hook("PostToolUse", payload, home, project).returncode == 0
    assert ledger_lines(project) == []  # off by default
    for _ in range(2):
        assert run_hook("PostToolUse", payload, home, project, JUDGMENT_CAPTURE="1").returncode == 0
    records = ledger_lines(project)
    assert len(records) == 1  # tool_response.answers wins; delivered twice, stored once
    (rec,) = records
    assert (rec["question"], rec["answer"], rec["rationale"]) == (QUESTION, "Postgres", "no new service")
    assert rec["card_ref"] == "claude-session:sess-1#toolu_01" and "claude-code" in rec["tags"]
    del payload["tool_response"]
    assert run_hook("PostToolUse", payload, home, project, JUDGMENT_CAPTURE="1").returncode == 0
    rec = ledger_lines(project)[-1]
    assert (rec["question"], rec["answer"], rec["rationale"]) == (tricky, "A, B", "why B")
    from judgment_toolkit.claude.hooks import capture_id
    assert rec["id"] == capture_id("sess-1", "toolu_01", tricky) and uuid.UUID(rec["id"])


def test_capture_off_starts_no_python(shop, tmp_path):
    """With the switch off (the default) the PostToolUse hook's shell command ends before it
    runs judgment-kit: counted by a judgment-kit first on PATH that logs each start and then
    runs the checkout's own."""
    project, home = shop
    counted = tmp_path / "counted"
    counted.mkdir()
    log = tmp_path / "starts.log"
    (counted / "judgment-kit").write_text(
        f'#!/bin/sh\necho "$*" >> {shlex.quote(str(log))}\nexec {shlex.quote(str(ROOT / "scripts" / "judgment-kit"))} "$@"\n')
    (counted / "judgment-kit").chmod(0o755)
    payload = ask_payload("PostToolUse", project, tool_response={"answers": {QUESTION: "Postgres"}})

    def capture(**switch):
        env = {"PATH": f"{counted}:/usr/bin:/bin", "HOME": str(home), "CLAUDE_PLUGIN_ROOT": str(PLUGIN_DIR),
               "CLAUDE_PROJECT_DIR": str(project), **switch}
        return subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in env.items()], "sh", "-c",
                               command("PostToolUse")], input=json.dumps(payload), capture_output=True,
                              text=True, cwd=project, timeout=60)
    for switch in ({}, {"JUDGMENT_CAPTURE": "0"}, {"JUDGMENT_CAPTURE": ""}):
        r = capture(**switch)
        assert (r.returncode, r.stdout, r.stderr) == (0, "", "") and not log.exists(), switch
    assert ledger_lines(project) == []
    r = capture(JUDGMENT_CAPTURE="1")
    assert r.returncode == 0 and log.read_text() == "hook ask-capture\n" and len(ledger_lines(project)) == 1


# -- setup-claude -----------------------------------------------------------------------------

def kit(*args, cwd, home):
    return subprocess.run([str(ROOT / "scripts" / "judgment-kit"), *args], cwd=cwd, capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(home)}, timeout=60)


def test_setup_merges_is_idempotent_checks_and_removes(shop):
    project, home = shop
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    before = json.dumps({"permissions": {"allow": ["Bash(make test)"]}, "model": "x"}, indent=2) + "\n"
    settings.write_text(before)
    assert kit("setup-claude", "--check", cwd=project, home=home).returncode == 1
    assert kit("setup-claude", cwd=project, home=home).returncode == 0
    once = settings.read_bytes()
    assert kit("setup-claude", cwd=project, home=home).returncode == 0
    assert settings.read_bytes() == once
    data = json.loads(once)
    assert data["model"] == "x" and data["permissions"]["allow"][0] == "Bash(make test)"
    assert set(data["hooks"]) == EVENTS
    assert kit("setup-claude", "--check", cwd=project, home=home).returncode == 0
    assert kit("setup-claude", "--remove", cwd=project, home=home).returncode == 0
    assert settings.read_text() == before
    settings.write_text("[1]")
    r = kit("setup-claude", cwd=project, home=home)
    assert r.returncode == 65 and settings.read_text() == "[1]" and "not a JSON object" in r.stderr
    assert kit("setup-claude", "--global", cwd=project, home=home).returncode == 0
    assert (home / ".claude" / "settings.json").is_file()


def test_setup_replaces_an_older_setups_hooks_and_keeps_the_persons(shop):
    """An entry an earlier setup-claude wrote (another command line for the same hook) is
    replaced, so a session is not primed twice; --remove takes it out too; the person's own
    hooks stay. Parts of the wrong type are an error that changes nothing."""
    project, home = shop
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    old = {"matcher": "startup|resume|clear|compact", "hooks": [
        {"type": "command", "command": "PATH=\"$PATH:$HOME/.local/bin\" judgment-kit hook session-start"
                                       " || echo 'judgment-toolkit: its commands were not found'"}]}
    mine = {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}
    settings.write_text(json.dumps({"hooks": {"SessionStart": [old, mine]}}))
    assert kit("setup-claude", cwd=project, home=home).returncode == 0
    groups = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert old not in groups and mine in groups and len(groups) == 2
    once = settings.read_bytes()
    assert kit("setup-claude", cwd=project, home=home).returncode == 0 and settings.read_bytes() == once
    settings.write_text(json.dumps({"hooks": {"SessionStart": [old, mine]}}))
    assert kit("setup-claude", "--remove", cwd=project, home=home).returncode == 0
    assert json.loads(settings.read_text()) == {"hooks": {"SessionStart": [mine]}}
    for bad in ({"permissions": []}, {"permissions": {"allow": "Bash(ls)"}},
                {"hooks": {"PreToolUse": {"matcher": "x"}}}):
        settings.write_text(json.dumps(bad))
        r = kit("setup-claude", cwd=project, home=home)
        assert r.returncode == 65 and json.loads(settings.read_text()) == bad, bad
        assert "is not a JSON" in r.stderr and "nothing was changed" in r.stderr


# -- permissions under the documented matching -----------------------------------------------

SEPARATORS = re.compile(r"&&|\|\||\|&|;|\||&|\n")
WRAPPERS = {"timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin", "noglob"}


def subcommands(cmd):
    """Permissions page, 'Compound commands' (each part separately), 'Wrappers' (stripped),
    and hooks reference 'bash-if-matching' ($() and backticks are checked as commands too)."""
    inner = re.findall(r"\$\(([^()]*)\)|`([^`]*)`", cmd)
    parts = SEPARATORS.split(cmd) + [a or b for a, b in inner]
    out = []
    for part in parts:
        words = part.strip().split(" ")
        while words and words[0] in WRAPPERS:
            words = words[2:] if words[0] == "timeout" else words[1:]
        if words and words[0]:
            out.append(" ".join(words))
    return out


def rule_matches(rule, cmd):
    """Permissions page, 'Wildcard patterns' and 'Bash': `*` spans anything, spaces included;
    a trailing ` *` (or `:*`) also matches the bare prefix; the match is whole-string."""
    body = re.fullmatch(r"Bash\((.*)\)", rule).group(1)
    body = body[:-2] + " *" if body.endswith(":*") else body
    tail = body.endswith(" *")
    core = body[:-2] if tail else body
    pattern = ".*".join(map(re.escape, core.split("*"))) + ("( .*)?" if tail else "")
    return re.fullmatch(pattern, cmd) is not None


WRITE_COMMANDS = [
    "judgment-ledger append --project p --question q --answer a --card-ref c",
    "judgment-card record-answer card.json --answer x --why current --project p --session s",
    "ha history docs/specs/g add --kind 관측 --summary current",
    "ha history docs/specs/g add --kind 결정 --summary 'show D1' --request-id verify",
    "ha history docs/specs/g add --input - list",
    "ha start docs/specs/g --request 'status'", "ha check docs/specs/g AC-1",
    "judgment-ledger search x && judgment-ledger append --project p",
    "judgment-ledger recall --question \"$(judgment-ledger append --project p)\"",
    "timeout 5 ha history docs/specs/g add --summary graph",
    "judgment-ledger show 1234 && judgment-ledger append --project p --question show",
    "judgment-ledger list --project p; judgment-card record-answer c.json --answer list",
]
READ_COMMANDS = ["judgment-ledger recall --project p --question 'X or Y?'", "judgment-ledger verify",
                 "judgment-card render card.json --format html", "ha history docs/specs/g",
                 "ha history docs/specs/g list --keyword x", "ha history docs/specs/g show D2",
                 "ha status docs/specs/g", "ha capabilities", "judgment-ledger list --project p",
                 "judgment-ledger list", "judgment-ledger show 907ca7e1-afca-433c-b367-b52af25e5aa5"]


def test_no_allow_rule_matches_a_write_and_every_write_asks():
    from judgment_toolkit.claude.setup import permission_rules
    rules = permission_rules(["docs/specs/g"])
    writes = ("append", "record-answer", " add", "ha start", "ha check")
    for cmd in WRITE_COMMANDS:
        for part in subcommands(cmd):
            if any(w in part.split("--")[0] for w in writes):
                assert not any(rule_matches(r, part) for r in rules["allow"]), (part, cmd)
                assert any(rule_matches(r, part) for r in rules["ask"]), part
    for cmd in READ_COMMANDS:
        assert any(rule_matches(r, cmd) for r in rules["allow"]), cmd
    assert rule_matches("Bash(ls:*)", "ls") and not rule_matches("Bash(ls *)", "lsof")


def test_the_old_example_rules_did_allow_writes():
    """The matching model is not vacuous: `Bash(judgment-card:*)` covers record-answer."""
    assert rule_matches("Bash(judgment-card:*)", WRITE_COMMANDS[1])
    assert rule_matches("Bash(ha history:*)", WRITE_COMMANDS[2])


# -- from an installed copy: the wheel in a fresh venv, its scripts linked into ~/.local/bin as
# pipx links them; the plugin folder holds no tools, so only ~/.local/bin can serve ---------

# `installed` is the session's shared build (tests/python/builds.py), the install tests' own.


def test_installed_copy_in_local_bin_serves_every_hook(installed, shop, tmp_path):
    project, home = shop
    local = home / ".local" / "bin"
    local.mkdir(parents=True)
    for name in ("judgment-kit", "judgment-ledger"):
        (local / name).symlink_to(installed / name)
    bare = tmp_path / "plugin"
    (bare / "hooks").mkdir(parents=True)
    payload = ask_payload("PostToolUse", project, tool_response={"answers": {QUESTION: "Postgres"}})
    r = run_hook("PostToolUse", payload, home, project, root=bare, JUDGMENT_CAPTURE="1")
    assert (r.returncode, r.stdout) == (0, "") and len(ledger_lines(project)) == 1
    r = run_hook("SessionStart", {"source": "startup"}, home, project, root=bare)
    assert r.returncode == 0 and "Which queue backend" in r.stdout
    r = run_hook("PreToolUse", ask_payload("PreToolUse", project), home, project, root=bare)
    assert "the person chose \"Postgres\" because no new service" in json.loads(r.stdout)[
        "hookSpecificOutput"]["additionalContext"]
