"""The Claude Code kit in .claude/: the skill and slash commands parse, the example
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

KIT = ROOT / "plugin"  # the plugin's skill and commands, the one copy
SETTINGS = ROOT / ".claude"  # the example settings and the ledger's default folder
SCRIPT_FOR = {"judgment-ledger": "judgment-ledger.sh", "judgment-card": "judgment-card.sh",
              "ha": "ha", "judgment-kit": "judgment-kit"}
CARD = {"question": "Use Redis or Postgres for the job queue?",
        "options": [{"id": "redis", "label": "Redis", "consequence": "one more service"},
                    {"id": "postgres", "label": "Postgres", "consequence": "no new service"}],
        "recommendation": "postgres", "confidence": "medium", "impact": "queue latency",
        "impact_score": 40, "diff_summary": "adds a jobs table"}


# -- a tiny strict frontmatter parser -------------------------------------------------------

class FrontmatterError(ValueError):
    pass


_KEY = re.compile(r"^([a-z][a-z0-9_-]*): (\S.*)$")


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
        if (value[0] in "[{>|&*!%@`'\"" or value.rstrip() != value or " #" in value
                or ": " in value):  # YAML would read a comment, a nested mapping, a quoted value
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
    ("---\nwhen_to_use: asks: which\n---\n", "plain one-line"),
])
def test_the_parser_is_strict(text, error):
    with pytest.raises(FrontmatterError, match=re.escape(error)):
        frontmatter(text)


def kit_files():
    return sorted(KIT.glob("skills/*/SKILL.md")) + sorted(KIT.glob("commands/*.md"))


def test_skill_frontmatter():
    skills = sorted(KIT.glob("skills/*/SKILL.md"))
    assert skills, "no skill in plugin/skills"
    for path in skills:
        meta, body = frontmatter(path.read_text(encoding="utf-8"))
        assert set(meta) == {"name", "description", "when_to_use"}, path
        assert meta["name"] == path.parent.name and re.fullmatch(r"[a-z0-9-]{1,64}", meta["name"])
        assert 20 <= len(meta["description"]) <= 1024
        # skills page, 'Frontmatter reference': description + when_to_use share a 1,536 cap
        assert len(meta["description"]) + len(meta["when_to_use"]) <= 1536
        words = meta["when_to_use"].lower()  # the words a user types, and the moment before asking
        for phrase in ('"x or y?"', "what did we decide about", "before you ask the user a question"):
            assert phrase in words, phrase
        for topic in ("Recall", "card", "decision history", "record-answer", "ha history"):
            assert topic in body, (path, topic)


def test_command_frontmatter_and_the_required_commands():
    commands = {p.stem: frontmatter(p.read_text(encoding="utf-8")) for p in KIT.glob("commands/*.md")}
    for name, (meta, body) in commands.items():
        assert set(meta) <= {"description", "argument-hint", "allowed-tools", "model"}, name
        assert len(meta["description"]) >= 20 and "$ARGUMENTS" in body, name
    names = " ".join(" ".join(code_lines(KIT / "commands" / f"{n}.md")) for n in commands)
    assert "judgment-ledger recall" in names               # recall past judgments
    assert "ha history <goal> graph --format md" in names  # a goal's current history
    assert "ha history <goal> add" in names                # record an event
    assert "--ref external:judgment-ledger:" in names      # cite a judgment as evidence


@pytest.mark.quick  # the quick loop's test of this module (docs/internals.md)
def test_settings_example_is_what_setup_writes():
    """The example is setup-claude's own output for a project with no started goal (one fact:
    judgment_toolkit.claude.setup), a settings object of permissions and hooks (hooks reference,
    'Configuration'), the SessionStart hook on every source."""
    from judgment_toolkit.claude.setup import dump, example_settings
    text = (SETTINGS / "settings.example.json").read_text(encoding="utf-8")
    assert text == dump(example_settings()), "regenerate it with judgment_toolkit.claude.setup.example_settings()"
    settings = json.loads(text)
    assert set(settings) == {"permissions", "hooks"}
    (group,) = settings["hooks"]["SessionStart"]
    assert set(group["matcher"].split("|")) == {"startup", "resume", "clear", "compact", "fork"}
    (hook,) = group["hooks"]
    assert hook["type"] == "command" and "judgment-kit hook session-start" in hook["command"]
    assert not (SETTINGS / "settings.json").exists()  # an example, not active settings
    assert (SETTINGS / "state" / ".gitkeep").exists()


# -- every command the kit names exists and runs ----------------------------------------------

HEREDOC = re.compile(r"<<'([A-Z_]+)'")  # a quoted here-document: its body is never expanded


def code_lines(path, text=None):
    """The commands of the ```sh blocks of a kit file (of `text`, its rendered content, when
    given): one per line, except that a command holding a quoted here-document runs on to the
    delimiter line and the `)...` line that closes its $(...)."""
    out, inside, open_doc = [], False, None
    for line in (path.read_text(encoding="utf-8") if text is None else text).split("\n"):
        if open_doc is not None:
            out[-1] += "\n" + line
            if line == open_doc:
                open_doc = ")"
            elif open_doc == ")" and line.startswith(")"):
                open_doc = None
            continue
        if line.startswith("```"):
            inside = line == "```sh" if not inside else False
            continue
        if inside and line.strip():
            out.append(line.strip())
            found = HEREDOC.search(line)
            open_doc = found.group(1) if found else None
    return out


# -- Claude Code's substitutions in a skill or command file (skills page, 'Available string
# substitutions'): one pass; `\$ARGUMENTS` and `\$N` escaped by one backslash; $ARGUMENTS is
# the argument string as typed, $ARGUMENTS[N] and $N its shell-style words; ${CLAUDE_*} values.

def render(text, arguments="", session="sess-0", project_dir="/nowhere"):
    try:
        words = shlex.split(arguments)
    except ValueError:  # an unbalanced quote: what Claude Code does then is not documented
        words = arguments.split()
    values = {"CLAUDE_SESSION_ID": session, "CLAUDE_PROJECT_DIR": str(project_dir)}

    def one(m):
        if m.group("escaped"):
            return m.group("escaped")
        if m.group("var"):
            return values.get(m.group("var"), m.group(0))
        index = m.group("index") or m.group("n")
        if index is not None:
            return words[int(index)] if int(index) < len(words) else m.group(0)
        return arguments
    token = (r"\\(?P<escaped>\$(?:ARGUMENTS|\d+))|\$\{(?P<var>CLAUDE_[A-Z_]+)\}"
             r"|\$ARGUMENTS\[(?P<index>\d+)\]|\$ARGUMENTS|\$(?P<n>\d+)")
    body = re.sub(token, one, text)
    return body if "$ARGUMENTS" in text or not arguments else body + f"\n\nARGUMENTS: {arguments}"


def test_render_follows_the_documented_substitutions():
    text = 'a $ARGUMENTS b $ARGUMENTS[1] c $0 d \\$1 e ${CLAUDE_SESSION_ID} f $2'
    assert render(text, 'x "y z"', session="S") == 'a x "y z" b y z c x d $1 e S f $2'
    assert render("no placeholder", "q") == "no placeholder\n\nARGUMENTS: q"


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


ARGUMENTS = {"recall-judgments": "Which job queue?", "history-current": "docs/specs/empty-input",
             "history-record": "docs/specs/empty-input 관측 kit", "cite-judgment": "docs/specs/empty-input queue"}


def test_every_command_the_kit_names_exists_and_runs(project):
    installed = console_scripts()
    ran = []
    for path in kit_files():
        text = render(path.read_text(encoding="utf-8"), ARGUMENTS.get(path.stem, ""),
                      session="sess-kit", project_dir=project["repo"])
        for n, line in enumerate(code_lines(path, text)):
            name = shlex.split(line)[0]
            assert name in installed, f"{path.name}: {name} is not a [project.scripts] name"
            assert name in SCRIPT_FOR, name
            cmd = substitute(line, project, f"{path.stem}-{n}")
            r = subprocess.run(["bash", "-c", cmd], cwd=project["repo"], env=project["env"],
                               capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, (path.name, cmd, r.returncode, r.stdout, r.stderr)
            ran.append(" ".join(shlex.split(line)[:2]))
    for command in ("judgment-ledger recall", "judgment-ledger prime", "judgment-card render",
                    "judgment-card record-answer", "ha history", "judgment-ledger verify"):
        assert command in ran, command


def test_the_session_start_hook_primes_the_session(project):
    settings = json.loads((SETTINGS / "settings.example.json").read_text(encoding="utf-8"))
    command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    elsewhere = project["repo"].parent  # Claude Code may start the hook from another folder
    env = dict(project["env"], CLAUDE_PROJECT_DIR=str(project["repo"]))
    r = subprocess.run(["bash", "-c", command], cwd=elsewhere, env=dict(env, JUDGMENT_PROJECT="demo"),
                       input='{"source": "startup"}', capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("## Recent judgments: demo\n")
    assert f"Use Redis or Postgres for the job queue? → **postgres**" in r.stdout
    assert project["ledger_id"] in r.stdout
    # without JUDGMENT_PROJECT the project is the folder's name ("repo"): nothing recorded there
    r = subprocess.run(["bash", "-c", command], cwd=elsewhere, env=env, capture_output=True,
                       input='{"source": "resume"}', text=True)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


# -- arguments, the project and the session as Claude Code fills them in ---------------------

TRICKY = ("Ship \"v2\" or 'v3'? $HOME ${PATH} $(touch pwned-1) `touch pwned-2` \\ 100% $1\n"
          "second line; it's done) && touch pwned-3 # JUDGMENT_ARGUMENTS")
ARGS_DOC = "<<'JUDGMENT_ARGUMENTS'\n$ARGUMENTS\nJUDGMENT_ARGUMENTS\n"


def test_arguments_appear_only_as_a_quoted_here_document():
    """A command line never puts $ARGUMENTS where the shell would read it: only as the body of
    a quoted here-document, which the shell passes on unexpanded."""
    seen = 0
    for path in kit_files():
        for line in code_lines(path):
            seen += line.count("$ARGUMENTS")
            assert "$ARGUMENTS" not in line.replace(ARGS_DOC, ""), (path.name, line)
    assert seen >= 2


def logged_tools(project, tmp_path):
    """(env, log): a PATH whose judgment-ledger and ha write their argv (one JSON array a line)
    to log, then run the real ones."""
    logged, log = tmp_path / "logged", tmp_path / "argv.jsonl"
    logged.mkdir()
    shims = Path(project["env"]["PATH"].split(":")[0])
    for name in ("judgment-ledger", "ha"):
        (logged / name).write_text(
            f"#!{sys.executable}\nimport json, os, sys\n"
            f"open({str(log)!r}, 'a').write(json.dumps([{name!r}] + sys.argv[1:]) + '\\n')\n"
            f"os.execv({str(shims / name)!r}, [{str(shims / name)!r}] + sys.argv[1:])\n")
        (logged / name).chmod(0o755)
    return dict(project["env"], PATH=f"{logged}:{project['env']['PATH']}"), log


@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_a_question_reaches_the_tool_unchanged(project, tmp_path, shell):
    """Skills page, 'Available string substitutions': `$ARGUMENTS` expands to the argument
    string as typed. /recall-judgments rendered so, its lines run as they stand (only
    <project> filled in): the tools get the question byte for byte, and nothing in it runs."""
    repo = project["repo"]
    env, log = logged_tools(project, tmp_path)
    path = KIT / "commands" / "recall-judgments.md"
    lines = code_lines(path, render(path.read_text(encoding="utf-8"), TRICKY, project_dir=repo))
    assert len(lines) == 2
    for line in lines:
        r = subprocess.run([shell, "-c", line.replace("<project>", "demo")], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, (line, r.stderr)
    calls = [json.loads(l) for l in log.read_text(encoding="utf-8").splitlines()]
    assert [c[:2] for c in calls] == [["judgment-ledger", "recall"], ["judgment-ledger", "search"]]
    assert calls[0][calls[0].index("--question") + 1] == TRICKY
    assert calls[1][calls[1].index("--query") + 1] == TRICKY
    assert not list(tmp_path.rglob("pwned-*"))
    # the plain double-quoted form that the command held before does not survive the same text
    log.unlink()
    naive = render('judgment-ledger recall --project demo --question "$ARGUMENTS"', TRICKY)
    subprocess.run([shell, "-c", naive], cwd=repo, env=env, capture_output=True, timeout=120)
    got = [json.loads(l) for l in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    assert not got or got[0][got[0].index("--question") + 1] != TRICKY


def test_each_file_says_how_the_project_is_derived(tmp_path, monkeypatch):
    """Every kit file whose commands take <project> prints the command that names it as the
    hooks do (judgment_toolkit.claude.kit.project_name, docs/claude-kit.md, "The project
    name"); the history commands say they take none. The printed command, rendered as Claude
    Code renders it and run, names the project as the hooks do: in the main worktree, in a
    linked worktree whose folder has another name, with a committed name, with
    $JUDGMENT_PROJECT, and with ${CLAUDE_PROJECT_DIR} rendered empty."""
    from judgment_toolkit.claude.kit import PROJECT_COMMAND, project_name
    for path in kit_files():
        text = path.read_text(encoding="utf-8")
        if any("<project>" in line for line in code_lines(path)):
            assert f"`{PROJECT_COMMAND}`" in text, path.name
        elif path.parent.name == "commands":
            assert "there is no `<project>` here" in text, path.name
    shop = tmp_path / "my shop"
    shop.mkdir()
    git_env = dict(os.environ, **GIT_ENV)
    for argv in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "i"],
                 ["worktree", "add", "-q", str(tmp_path / "shop-feature-x")]):
        subprocess.run(["git", "-C", str(shop), *argv], check=True, env=git_env,
                       capture_output=True)
    linked = tmp_path / "shop-feature-x"

    def printed(project_dir, named=None, rendered=None):
        env = {"PATH": f"{SCRIPTS}:/usr/bin:/bin", "CLAUDE_PROJECT_DIR": str(project_dir),
               **({"JUDGMENT_PROJECT": named} if named else {})}
        for key, value in (("CLAUDE_PROJECT_DIR", str(project_dir)), ("JUDGMENT_PROJECT", named)):
            if value:
                monkeypatch.setenv(key, value)
            else:
                monkeypatch.delenv(key, raising=False)
        r = subprocess.run(["bash", "-c", render(PROJECT_COMMAND, project_dir=rendered
                                                 if rendered is not None else project_dir)],
                           env=env, capture_output=True, text=True, cwd=tmp_path, timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout == project_name({"cwd": "/elsewhere"}) + "\n"
        return r.stdout.strip()

    assert printed(shop) == printed(linked) == printed(linked, rendered="") == "my shop"
    assert printed(linked, named="other") == "other"
    (linked / ".claude").mkdir()
    (linked / ".claude" / "judgment-project").write_text("shop\n")  # committed on a branch
    assert printed(linked) == "shop" and printed(shop) == "my shop"
    (shop / ".claude").mkdir()
    (shop / ".claude" / "judgment-project").write_text("team-shop\n")
    assert printed(linked) == printed(shop) == "team-shop"


def test_the_session_id_is_the_one_claude_code_fills_in():
    """Skills page, 'Available string substitutions': ${CLAUDE_SESSION_ID} is the session."""
    with_session = [(p, l) for p in kit_files() for l in code_lines(p) if "--session" in l]
    assert with_session
    for path, line in with_session:
        assert '--session "${CLAUDE_SESSION_ID}"' in line, (path.name, line)
    for path in kit_files():
        assert "<session>" not in path.read_text(encoding="utf-8"), path.name
    skill = render((KIT / "skills" / "judgment-toolkit" / "SKILL.md").read_text(encoding="utf-8"),
                   session="0b6f2c1e-sess")
    assert '--session "0b6f2c1e-sess"' in skill
