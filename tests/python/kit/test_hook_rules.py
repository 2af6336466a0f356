"""The rules every Claude Code hook keeps (docs/claude-kit.md, "The PATH that hooks get" and
"What each hook does"), each driven as Claude Code drives a hook: `sh -c` with its command from
hooks/hooks.json and its JSON on stdin, under `env -i PATH=... HOME=<tmp>`.

Where a test needs to see which copy of a tool ran, the copy is a small script that logs its
name and then runs the real tool; where it needs a hung tool, the tool is a real `sleep`."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from kit.test_plugin import (PLUGIN_DIR, QUESTION, ask_payload, command, ledger_lines,  # noqa: F401
                             run_hook, shop)

LEDGER = ROOT / "scripts" / "judgment-ledger.sh"


def record(project, question, answer, rationale="one less service"):
    subprocess.run([str(LEDGER), "append", "--project", project.name, "--question", question,
                    "--answer", answer, "--card-ref", "c.json", "--rationale", rationale],
                   cwd=project, check=True, capture_output=True)


def logging_copy(folder, name, label, log, real):
    """folder/name: appends `label name` to log, then runs `real` with the same arguments."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f'#!/bin/sh\necho "{label} {name}" >> "{log}"\nexec "{real}" "$@"\n')
    (folder / name).chmod(0o755)


def test_tools_are_found_on_path_then_local_bin_then_the_plugin_folder(shop, tmp_path):
    project, home = shop
    record(project, "Use Redis or Postgres for the job queue?", "postgres")
    log = tmp_path / "ran.log"
    on_path, local = tmp_path / "bin", home / ".local" / "bin"
    for folder, label in ((on_path, "path"), (local, "local")):
        logging_copy(folder, "judgment-kit", label, log, ROOT / "scripts" / "judgment-kit")
        logging_copy(folder, "judgment-ledger", label, log, LEDGER)

    def capture(path):
        if log.exists():
            log.unlink()
        env = {"PATH": path, "HOME": str(home), "CLAUDE_PLUGIN_ROOT": str(PLUGIN_DIR),
               "CLAUDE_PROJECT_DIR": str(project), "JUDGMENT_CAPTURE": "1"}
        payload = ask_payload("PostToolUse", project, tool_use_id=f"toolu_{len(ledger_lines(project))}",
                              tool_response={"answers": {QUESTION: "Postgres"}})
        before = len(ledger_lines(project))
        r = subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in env.items()], "sh", "-c",
                            command("PostToolUse")], input=json.dumps(payload),
                           capture_output=True, text=True, cwd=project, timeout=60)
        assert (r.returncode, r.stdout) == (0, "") and len(ledger_lines(project)) == before + 1, r.stderr
        return log.read_text().split("\n")[:-1] if log.exists() else []
    assert capture(f"{on_path}:/usr/bin:/bin") == ["path judgment-kit", "path judgment-ledger"]
    assert capture("/usr/bin:/bin") == ["local judgment-kit", "local judgment-ledger"]
    shutil.rmtree(local)
    assert capture("/usr/bin:/bin") == []  # the plugin's own scripts/ (this checkout)


def bare_python_without_dependencies():
    if not os.access("/usr/bin/python3", os.X_OK):
        return False
    probe = subprocess.run(["/usr/bin/python3", "-c", "import jsonschema"], capture_output=True)
    return probe.returncode != 0


@pytest.mark.skipif(not bare_python_without_dependencies(),
                    reason="needs a /usr/bin/python3 without the toolkit's dependencies")
def test_a_plugin_folder_without_an_install_says_how_to_install(shop, tmp_path):
    """The plugin as /plugin install copies it (its folder, links to the rest of the repository
    followed: plugins reference, "Share files within a marketplace with symlinks"; no .venv),
    the tools installed nowhere, the
    hooks' PATH holding only /usr/bin:/bin, whose python3 lacks the dependencies: each hook
    prints the one install line and exits 0 (with a ledger to read, too)."""
    from judgment_toolkit.claude.kit import INSTALL_HINT
    project, home = shop
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN_DIR, plugin, symlinks=False, ignore=shutil.ignore_patterns("__pycache__"))
    for with_ledger in (False, True):
        if with_ledger:
            record(project, "Use Redis or Postgres for the job queue?", "postgres")
        for event in ("SessionStart", "PreToolUse", "PostToolUse"):
            payload = ask_payload(event, project, tool_response={"answers": {QUESTION: "Redis"}})
            r = run_hook(event, payload, home, project, root=plugin, JUDGMENT_CAPTURE="1")
            assert (r.returncode, r.stdout) == (0, INSTALL_HINT + "\n"), (event, r.stderr)
    assert len(ledger_lines(project)) == 1  # nothing captured


def test_recall_context_is_a_dated_list_within_its_byte_bound(shop):
    """Hooks reference, 'PreToolUse decision control': additionalContext. Four questions, three
    long matches each: whole lines only, each with decision, rationale, date and mem_id, within
    CONTEXT_LIMIT bytes."""
    from judgment_toolkit.claude.hooks import CONTEXT_LIMIT
    project, home = shop
    # twelve services (a word each: automatic recall tells "service 1" from "service 2" by
    # no digit), each decided alike
    names = ["billing", "search", "checkout", "payments", "shipping", "inventory", "reviews",
             "coupons", "invoices", "returns", "loyalty", "emails"]
    for name in names:
        record(project, f"Which queue backend for the {name} service: Redis or Postgres? "
               + "long " * 60, "postgres", rationale="one less service to run " + "and so on " * 40)
    payload = ask_payload("PreToolUse", project)
    payload["tool_input"]["questions"] = [
        {"question": f"Which queue backend for the {name} service: Redis or Postgres?", "header": "Q",
         "options": [{"label": "Redis"}, {"label": "Postgres"}]} for name in names[:4]]
    r = run_hook("PreToolUse", payload, home, project)
    context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
    lines = context.split("\n")
    assert len(context.encode()) <= CONTEXT_LIMIT and len(lines) >= 3
    for line in lines[1:]:
        assert line.startswith("- For \"Which queue backend") and " on 20" in line, line
        assert "chose \"postgres\" because one less service" in line and "mem_id judgment-ledger:" in line


def test_a_hung_tool_is_killed_at_the_deadline_and_the_answer_goes_ahead(shop, tmp_path):
    """The capture hook's time is bounded (judgment_toolkit.claude.hooks.DEADLINE, under the
    hooks.json timeout): a judgment-ledger that never answers is killed, and the hook ends
    silent, exit 0."""
    project, home = shop
    hung = tmp_path / "hung"
    hung.mkdir()
    pid_file = tmp_path / "pid"
    (hung / "judgment-ledger").write_text(f'#!/bin/sh\necho $$ > "{pid_file}"\nexec sleep 300\n')
    (hung / "judgment-ledger").chmod(0o755)
    env = {"PATH": f"{hung}:/usr/bin:/bin", "HOME": str(home), "CLAUDE_PLUGIN_ROOT": str(PLUGIN_DIR),
           "CLAUDE_PROJECT_DIR": str(project), "JUDGMENT_CAPTURE": "1"}
    payload = ask_payload("PostToolUse", project, tool_response={"answers": {QUESTION: "Postgres"}})
    r = subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in env.items()], "sh", "-c",
                        command("PostToolUse")], input=json.dumps(payload),
                       capture_output=True, text=True, cwd=project, timeout=60)
    assert (r.returncode, r.stdout) == (0, "")
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped, not left running


def test_capture_is_fail_open(shop):
    """Judgment Ledger v1, section 'Fail-open': a ledger that cannot be written (its path is a
    folder) costs the session nothing: exit 0, nothing on stdout, nothing changed."""
    project, home = shop
    blocked = project / ".claude" / "state" / "judgment-ledger.jsonl"
    blocked.mkdir(parents=True)
    payload = ask_payload("PostToolUse", project, tool_response={"answers": {QUESTION: "Postgres"}})
    r = run_hook("PostToolUse", payload, home, project, JUDGMENT_CAPTURE="1")
    assert (r.returncode, r.stdout) == (0, "") and blocked.is_dir() and not any(blocked.iterdir())
