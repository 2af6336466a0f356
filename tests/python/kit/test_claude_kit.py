"""The Claude Code kit in .claude/ (issue 13): the skill and slash commands parse, the example
settings wire a SessionStart command hook to `judgment-ledger prime`, and every command the kit
names is an installed console script whose subcommand runs, for real, in a started project.

The kit names the installed names (pyproject [project.scripts]); the test runs each line through
a PATH on which each name is the installed console script once its entry function exists, and
until then a link to the matching scripts/ entry point, which takes the same arguments.
"""
import importlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GIT_ENV, ROOT, SCRIPTS, ha

KIT = ROOT / ".claude"
SCRIPT_FOR = {"judgment-ledger": "judgment-ledger.sh", "judgment-card": "judgment-card.sh",
              "ha": "ha"}
CARD = {"question": "Use Redis or Postgres for the job queue?",
        "options": [{"id": "redis", "label": "Redis", "consequence": "one more service"},
                    {"id": "postgres", "label": "Postgres", "consequence": "no new service"}],
        "recommendation": "postgres", "confidence": "medium", "impact": "queue latency",
        "impact_score": 40, "diff_summary": "adds a jobs table"}


# -- a tiny strict frontmatter parser -------------------------------------------------------

class FrontmatterError(ValueError):
    pass


_KEY = re.compile(r"^([a-z][a-z0-9-]*): (\S.*)$")


def frontmatter(text):
    """({key: value}, body) of a Markdown file that starts with `---` lines of `key: value`
    (plain one-line values only: no lists, no nesting, no block scalars, no repeated key)."""
    lines = text.split("\n")
    if lines[0] != "---":
        raise FrontmatterError("the file must start with a --- line")
    try:
        end = lines.index("---", 1)
    except ValueError:
        raise FrontmatterError("no closing --- line") from None
    out = {}
    for n, line in enumerate(lines[1:end], 2):
        m = _KEY.match(line)
        if not m:
            raise FrontmatterError(f"line {n}: not `key: value`: {line!r}")
        key, value = m.groups()
        if key in out:
            raise FrontmatterError(f"line {n}: {key} repeated")
        if value[0] in "[{>|&*!%@`'\"" or value.rstrip() != value or " #" in value:
            raise FrontmatterError(f"line {n}: {key}: not a plain one-line value")
        out[key] = value
    return out, "\n".join(lines[end + 1:])


@pytest.mark.parametrize("text, error", [
    ("no frontmatter", "start with a ---"),
    ("---\nname: x\n", "no closing"),
    ("---\nname x\n---\n", "not `key: value`"),
    ("---\nname: a\nname: b\n---\n", "name repeated"),
    ("---\ndescription: [a, b]\n---\n", "plain one-line"),
    ("---\ndescription: |\n---\n", "plain one-line"),
    ("---\nName: a\n---\n", "not `key: value`"),
])
def test_the_parser_is_strict(text, error):
    with pytest.raises(FrontmatterError, match=re.escape(error)):
        frontmatter(text)


def kit_files():
    return sorted(KIT.glob("skills/*/SKILL.md")) + sorted(KIT.glob("commands/*.md"))


def test_skill_frontmatter():
    skills = sorted(KIT.glob("skills/*/SKILL.md"))
    assert skills, "no skill in .claude/skills"
    for path in skills:
        meta, body = frontmatter(path.read_text(encoding="utf-8"))
        assert set(meta) == {"name", "description"}, path
        assert meta["name"] == path.parent.name and re.fullmatch(r"[a-z0-9-]{1,64}", meta["name"])
        assert 20 <= len(meta["description"]) <= 1024
        for topic in ("Recall", "card", "decision history", "record-answer", "ha history"):
            assert topic in body, (path, topic)


def test_command_frontmatter_and_the_required_commands():
    commands = {p.stem: frontmatter(p.read_text(encoding="utf-8")) for p in KIT.glob("commands/*.md")}
    for name, (meta, body) in commands.items():
        assert set(meta) <= {"description", "argument-hint", "allowed-tools", "model"}, name
        assert len(meta["description"]) >= 20 and "$ARGUMENTS" in body, name
    names = " ".join(" ".join(code_lines(KIT / "commands" / f"{n}.md")) for n in commands)
    assert "judgment-ledger recall" in names               # recall past judgments
    assert "ha history \"$ARGUMENTS\"" in names             # a goal's current history
    assert "ha history <goal> add" in names                # record an event
    assert "--ref external:judgment-ledger:" in names      # cite a judgment as evidence


def test_settings_example_structure():
    settings = json.loads((KIT / "settings.example.json").read_text(encoding="utf-8"))
    assert isinstance(settings, dict) and set(settings) <= {"permissions", "hooks", "env"}
    hooks = settings["hooks"]
    assert isinstance(hooks, dict) and list(hooks) == ["SessionStart"]
    (group,) = hooks["SessionStart"]
    assert set(group) <= {"matcher", "hooks"} and isinstance(group["hooks"], list)
    assert set(group["matcher"].split("|")) <= {"startup", "resume", "clear", "compact"}
    (hook,) = group["hooks"]
    assert hook["type"] == "command" and isinstance(hook["command"], str)
    assert isinstance(hook.get("timeout", 1), int)
    assert " prime " in hook["command"] and hook["command"].split()[1] == "judgment-ledger"
    allow = settings["permissions"]["allow"]
    assert all(re.fullmatch(r"Bash\([a-z-]+( [a-z-]+)?:\*\)", rule) for rule in allow), allow
    assert not (KIT / "settings.json").exists()  # an example, not active settings
    assert (KIT / "state" / ".gitkeep").exists()


# -- every command the kit names exists and runs ----------------------------------------------

def code_lines(path):
    """The command lines of the ```sh blocks of a kit file."""
    out, inside = [], False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("```"):
            inside = line == "```sh" if not inside else False
            continue
        if inside and line.strip():
            out.append(line.strip())
    return out


def console_scripts():
    """{name: "module:function"} of pyproject.toml's [project.scripts], and {name: None} for the
    commands installed as script-files (the Bash entry points); a small reader: Python 3.9 has
    no tomllib."""
    import re
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.scripts]\n", 1)[1].split("\n[", 1)[0]
    found = {name.strip(): target.strip().strip('"')
             for name, _, target in (line.partition("=") for line in section.splitlines())
             if target}
    files = re.search(r"^script-files = \[(.*)\]$", text, re.M).group(1)
    found.update((p.strip().strip('"').rsplit("/", 1)[-1], None) for p in files.split(","))
    return found


def command_for(name, target):
    """The installed console script when it exists and its entry function does (the names are
    declared before every entry function lands), else the scripts/ entry point (always so for
    judgment-ledger and judgment-card, which are the Bash scripts themselves, not console scripts)."""
    if target is None:
        return SCRIPTS / SCRIPT_FOR[name]
    module, _, function = target.partition(":")
    installed = Path(sys.executable).parent / name
    try:
        usable = installed.exists() and hasattr(importlib.import_module(module), function)
    except ImportError:
        usable = False
    return installed if usable else SCRIPTS / SCRIPT_FOR[name]


@pytest.fixture
def project(repo, goal, tmp_path):
    """A started goal (run seq 2), one recorded judgment, a card file, and a PATH on which the
    installed names lead to the scripts/ entry points."""
    shims = tmp_path / "bin"
    shims.mkdir()
    scripts = console_scripts()
    for name in SCRIPT_FOR:
        (shims / name).symlink_to(command_for(name, scripts.get(name)))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST_"))}
    env.update(GIT_ENV, PATH=f"{shims}:{env['PATH']}", HOME=str(tmp_path))
    for args in (("ha", "start", goal, "--request", "빈 입력을 고쳐 줘"), ("ha", "check", goal, "AC-1")):
        r = subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    (repo / "card.json").write_text(json.dumps(CARD), encoding="utf-8")
    r = subprocess.run(["judgment-card", "record-answer", "card.json", "--answer", "postgres",
                        "--why", "one less service", "--project", "demo", "--session", "s-0"],
                       cwd=repo, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ledger = repo / ".claude" / "state" / "judgment-ledger.jsonl"
    ledger_id = json.loads(ledger.read_text().splitlines()[0])["id"]
    return {"repo": repo, "goal": goal, "env": env, "ledger_id": ledger_id}


def substitute(line, p, n):
    """The line with every <placeholder> (and $ARGUMENTS) filled; <Dn> is a fresh event each
    time, so a --supersedes never meets an earlier correction."""
    values = {"project": "demo", "question": "Which job queue?", "words": "queue",
              "card.json": "card.json", "option-id": "postgres", "why": "kit run",
              "session": "s-1", "goal": p["goal"], "AC-n": "AC-1", "T001": "T001",
              "summary": f"kit example {n}", "request-id": f"kit-{n}", "path": "src/count.go",
              "ledger-id": p["ledger_id"]}

    def fill(m):
        name = m.group(1)
        if name == "Dn":
            r = ha("history", p["goal"], "add", "--kind", "관측", "--summary", f"ground {n}",
                   cwd=p["repo"])
            assert r.returncode == 0, r.stderr
            return json.loads(r.stdout)["id"]
        assert name in values, f"unknown placeholder <{name}> in {line!r}"
        return shlex.quote(values[name])
    return re.sub(r"<([A-Za-z][A-Za-z0-9.-]*)>", fill, line)


ARGUMENTS = {"recall-judgments": "Which job queue?", "history-current": "docs/specs/empty-input"}


def test_every_command_the_kit_names_exists_and_runs(project):
    installed = console_scripts()
    ran = []
    for path in kit_files():
        for n, line in enumerate(code_lines(path)):
            name = shlex.split(line)[0]
            assert name in installed, f"{path.name}: {name} is not a [project.scripts] name"
            assert name in SCRIPT_FOR, name
            cmd = substitute(line, project, f"{path.stem}-{n}")
            cmd = cmd.replace("$ARGUMENTS", ARGUMENTS.get(path.stem, ""))
            r = subprocess.run(["bash", "-c", cmd], cwd=project["repo"], env=project["env"],
                               capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, (path.name, cmd, r.returncode, r.stdout, r.stderr)
            ran.append(" ".join(shlex.split(line)[:2]))
    for command in ("judgment-ledger recall", "judgment-ledger prime", "judgment-card render",
                    "judgment-card record-answer", "ha history", "judgment-ledger verify"):
        assert command in ran, command


def test_the_session_start_hook_primes_the_session(project):
    settings = json.loads((KIT / "settings.example.json").read_text(encoding="utf-8"))
    command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    elsewhere = project["repo"].parent  # Claude Code may start the hook from another folder
    env = dict(project["env"], CLAUDE_PROJECT_DIR=str(project["repo"]))
    r = subprocess.run(["bash", "-c", command], cwd=elsewhere, env=dict(env, JUDGMENT_PROJECT="demo"),
                       capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("## Recent judgments: demo\n")
    assert f"Use Redis or Postgres for the job queue? → **postgres**" in r.stdout
    assert project["ledger_id"] in r.stdout
    # without JUDGMENT_PROJECT the project is the folder's name ("repo"): nothing recorded there
    r = subprocess.run(["bash", "-c", command], cwd=elsewhere, env=env, capture_output=True,
                       text=True)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
