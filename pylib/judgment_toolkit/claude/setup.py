"""`judgment-kit setup-claude`: the hook wiring and the permissions in a settings file, for
people who do not install the plugin (docs/claude-kit.md, "Without the plugin").

Merges into what the file holds (nothing else is touched), is idempotent (a second run leaves
the file byte-identical), `--check` says whether everything is there, `--remove` takes out
exactly the entries setup writes. The permission rules are the one list of what the agent may
run unasked: reads only; every command that writes is an `ask` rule.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path

from judgment_toolkit.claude.kit import CAPTURE_ON, CAPTURE_SWITCH, INSTALL_HINT

CAPTURE_HOOK = "ask-capture"  # runs only with the capture switch on
HOOKS = (  # (event, matcher, hook name): the plugin's plugin/hooks/hooks.json is hook_settings() too
    ("SessionStart", "startup|resume|clear|compact|fork", "session-start"),
    ("PreToolUse", "AskUserQuestion", "ask-recall"),
    ("PostToolUse", "AskUserQuestion", CAPTURE_HOOK),
)
HOOK_TIMEOUT = 10  # seconds; the hooks bound their own work below it (hooks.DEADLINE)
PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}"

READS = (  # Bash(...) allow rules: commands that only read
    "judgment-ledger search *", "judgment-ledger recall *", "judgment-ledger prime *",
    "judgment-ledger verify *", "judgment-ledger list *", "judgment-ledger show *",
    "judgment-card validate *", "judgment-card recall *",
    "judgment-card render *", "judgment-card should-issue *", "ha status *", "ha capabilities *",
    "judgment-kit project", "judgment-kit project *",
)
HISTORY_READS = ("", " current", " current *", " list", " list *", " show *", " graph",
                 " graph *", " verify", " verify *")  # after `ha history <goal>`, per goal
WRITES = (  # Bash(...) ask rules: every command that writes
    "judgment-ledger append *", "judgment-card record-answer *", "ha history * add *",
    "ha start *", "ha check *",
)
GOAL_NAME = re.compile(r"[A-Za-z0-9._/-]+")  # a goal path a rule can name literally
EXIT_USAGE, EXIT_NOT_OBJECT, EXIT_IO = 64, 65, 70


def hook_command(hook: str, root: str | None) -> str:
    """The shell command of one hook: judgment-kit from PATH, then ~/.local/bin, then the
    plugin's (or checkout's) scripts/; when none runs, the one install line, exit 0. The capture
    hook tests its switch in the shell first: off (the default) costs a shell, not a Python
    start (bench/hooks.py)."""
    dirs = "$PATH:$HOME/.local/bin" + (f":{root}/scripts" if root else "")
    guard = f'[ "${CAPTURE_SWITCH}" = {CAPTURE_ON} ] || exit 0; ' if hook == CAPTURE_HOOK else ""
    return (f'{guard}PATH="{dirs}" judgment-kit hook {hook} || echo {shlex.quote(INSTALL_HINT)}')


def hook_settings(root: str | None) -> dict:
    return {event: [{"matcher": matcher, "hooks": [{"type": "command",
                                                    "command": hook_command(hook, root),
                                                    "timeout": HOOK_TIMEOUT}]}]
            for event, matcher, hook in HOOKS}


def started_goals(project: Path) -> list:
    """The started goals under docs/specs/ (a folder holding a run record), as rule-safe
    relative paths."""
    specs = project / "docs" / "specs"
    found = sorted(str(p.parent.relative_to(project)) for p in specs.glob("*/runs.jsonl")) \
        if specs.is_dir() else []
    return [g for g in found if GOAL_NAME.fullmatch(g)]


def permission_rules(goals) -> dict:
    allow = list(READS) + [f"ha history {g}{tail}" for g in goals for tail in HISTORY_READS]
    return {"allow": [f"Bash({r})" for r in allow], "ask": [f"Bash({r})" for r in WRITES]}


def checkout_scripts_root() -> str | None:
    """This checkout's folder when setup runs from one (scripts/judgment-kit beside pylib/)."""
    root = Path(__file__).resolve().parents[3]
    return str(root) if (root / "scripts" / "judgment-kit").is_file() else None


def wanted(goals) -> dict:
    return {"permissions": permission_rules(goals), "hooks": hook_settings(checkout_scripts_root())}


def example_settings() -> dict:
    """The kit's .claude/settings.example.json: what setup-claude writes into a project with no
    started goal, for tools installed on PATH or in ~/.local/bin."""
    return {"permissions": permission_rules([]), "hooks": hook_settings(None)}


OUR_HOOK = re.compile(r"\bjudgment-kit hook (?:" + "|".join(h for _, _, h in HOOKS) + r")\b")


def ours(group) -> bool:
    """A hook group some version of setup-claude wrote: every hook in it runs `judgment-kit
    hook <name>`. An older one (another command line) is replaced, not kept beside the new."""
    hooks = group.get("hooks") if isinstance(group, dict) else None
    return bool(hooks) and isinstance(hooks, list) and all(
        isinstance(h, dict) and isinstance(h.get("command"), str) and OUR_HOOK.search(h["command"])
        for h in hooks)


def merge(settings: dict, want: dict) -> dict:
    perms = settings.setdefault("permissions", {})
    for kind, rules in want["permissions"].items():
        have = perms.setdefault(kind, [])
        have.extend(r for r in rules if r not in have)
    hooks = settings.setdefault("hooks", {})
    for event, groups in want["hooks"].items():
        have = [g for g in hooks.get(event, []) if g in groups or not ours(g)]
        hooks[event] = have + [g for g in groups if g not in have]
    return settings


GOAL_RULE = re.compile(r"Bash\(ha history " + GOAL_NAME.pattern + "(?:"
                       + "|".join(re.escape(t) for t in HISTORY_READS) + r")\)")


def our_rule(kind: str, rule) -> bool:
    """A goal's allow rule in the shape permission_rules writes, for any goal: one given with
    --goal, or one that has moved or gone since, which today's goal list no longer names."""
    return kind == "allow" and isinstance(rule, str) and GOAL_RULE.fullmatch(rule) is not None


def remove(settings: dict, want: dict) -> dict:
    for section in ("permissions", "hooks"):
        held = settings.get(section)
        if not isinstance(held, dict):
            continue
        for key, entries in want[section].items():
            if isinstance(held.get(key), list):
                held[key] = [e for e in held[key] if e not in entries
                             and not (section == "hooks" and ours(e))
                             and not (section == "permissions" and our_rule(key, e))]
                if not held[key]:
                    del held[key]
        if not held:
            del settings[section]
    return settings


def check_shape(settings: dict) -> None:
    """The parts setup merges into must have the settings' documented types (objects of
    lists); anything else is the person's to fix, so nothing is changed."""
    for section in ("permissions", "hooks"):
        held = settings.get(section, {})
        if not isinstance(held, dict):
            raise ValueError(f"{section} is not a JSON object")
        for key in (("allow", "ask") if section == "permissions" else (e for e, _, _ in HOOKS)):
            if not isinstance(held.get(key, []), list):
                raise ValueError(f"{section}.{key} is not a JSON array")


def is_set_up(settings: dict, want: dict) -> bool:
    for section in ("permissions", "hooks"):
        held = settings.get(section) if isinstance(settings.get(section), dict) else {}
        for key, entries in want[section].items():
            have = held.get(key) if isinstance(held.get(key), list) else []
            if any(e not in have for e in entries):
                return False
    return True


def dump(settings: dict) -> str:
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def load(path: Path) -> dict:
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    settings = json.loads(text) if text.strip() else {}
    if not isinstance(settings, dict):
        raise ValueError("not a JSON object")
    check_shape(settings)
    return settings


def parse(argv):
    opts = {"global": False, "check": False, "remove": False, "dir": None, "goals": []}
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("--global", "--check", "--remove"):
            opts[arg[2:]] = True
        elif arg in ("--project-dir", "--goal") and args:
            value = args.pop(0)
            opts["goals"].append(value) if arg == "--goal" else opts.update(dir=value)
        elif arg in ("-h", "--help"):
            return None
        else:
            raise ValueError(f"unknown argument: {arg}" if not arg.startswith("--project-dir")
                             and not arg.startswith("--goal") else f"{arg} needs a value")
    if opts["check"] and opts["remove"]:
        raise ValueError("--check and --remove exclude each other")
    bad = [g for g in opts["goals"] if not GOAL_NAME.fullmatch(g)]
    if bad:
        raise ValueError(f"--goal {bad[0]!r}: a goal path of letters, digits, . _ / - only")
    return opts


def main(argv) -> int:
    from judgment_toolkit.claude.kit import USAGE
    try:
        opts = parse(argv)
    except ValueError as exc:
        sys.stderr.write(f"judgment-kit: setup-claude: {exc}; see judgment-kit --help\n")
        return EXIT_USAGE
    if opts is None:
        sys.stdout.write(USAGE)
        return 0
    project = Path(opts["dir"] or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    path = (Path.home() / ".claude" / "settings.json" if opts["global"]
            else project / ".claude" / "settings.local.json")
    goals = sorted(set(started_goals(project) + opts["goals"]))
    want = wanted(goals)
    try:
        settings = load(path)
    except (ValueError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"judgment-kit: setup-claude: {path}: {exc}; fix or move the file, "
                         "then run setup-claude again (nothing was changed)\n")
        return EXIT_NOT_OBJECT
    except OSError as exc:
        sys.stderr.write(f"judgment-kit: setup-claude: cannot read {path}: {exc.strerror}\n")
        return EXIT_IO
    if opts["check"]:
        ok = is_set_up(settings, want)
        print(f"{'set up' if ok else 'not set up'}: {path}")
        return 0 if ok else 1
    changed = remove(settings, want) if opts["remove"] else merge(settings, want)
    text = dump(changed)
    try:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            print(f"unchanged: {path}")
            return 0
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        sys.stderr.write(f"judgment-kit: setup-claude: cannot write {path}: {exc.strerror}\n")
        return EXIT_IO
    print(f"{'removed from' if opts['remove'] else 'written'}: {path}")
    return 0
