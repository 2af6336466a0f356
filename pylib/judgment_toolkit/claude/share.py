"""`judgment-kit share [--check | --remove] [--project NAME]`: opt a repository into a team
ledger committed with the code (docs/team-memory.md, "How a team shares").

What it writes, each piece marked so that --remove takes out exactly that and nothing the
user wrote:
- .gitattributes (committed): the ledger merges with git's built-in `union`. That is the floor:
  a clone that never ran share still merges without conflict markers and loses no record (a
  record on both sides is then kept twice, which readers count once).
- .git/info/attributes and .git/config (this clone only, shared by its worktrees): the
  `judgment-ledger` merge driver (judgment-ledger merge, a union by record). git reads
  info/attributes after .gitattributes, so the driver wins where it is registered; an
  attribute naming a driver that a clone's config lacks would fall back to conflict markers,
  which is why the driver's name is never committed.
- .gitignore (committed), only when the ledger or the project file is ignored: lines that
  un-ignore exactly those two files (and the folders on their way, whose other files stay
  ignored).
- .claude/judgment-project (committed): the project name, so every clone and worktree,
  whatever its folder is called, reads and writes the same project.
- the git hooks post-commit, post-merge, post-checkout and post-rewrite (this clone only, in
  the folder `git rev-parse --git-path hooks` names, core.hooksPath included): a marked line
  that runs `judgment-kit heal`, which puts back the records a git operation overwrote
  (docs/team-memory.md, "What git can still lose"). A user's own sh hook gets the line right
  after its first line and is otherwise kept; a hook in another language is left alone and
  named, for the user to call heal from it.
It makes no commit: it prints the command that does.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

LEDGER = ".claude/state/judgment-ledger.jsonl"  # judgment.ledger.RELATIVE_PATH, as git spells it
PROJECT_FILE = ".claude/judgment-project"  # judgment.project reads it
DRIVER = "judgment-ledger"
MARK = "# judgment-kit share:"  # starts every comment line share writes; --remove looks for it
FLOOR_LINE = f"{LEDGER} merge=union"
DRIVER_LINE = f"{LEDGER} merge={DRIVER}"
EXIT_NOT_SET_UP, EXIT_USAGE, EXIT_CANNOT = 1, 64, 70
PROJECT_NAME = re.compile(r"[^\x00-\x1f\x7f]{1,200}")


class ShareError(Exception):
    """Share cannot proceed; the message says why and what to do. `code` is the exit."""

    def __init__(self, message, code=EXIT_CANNOT):
        super().__init__(message)
        self.code = code


def git(top, *args, check=True):
    done = subprocess.run(["git", "-C", str(top), *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise ShareError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done


def repository(cwd) -> tuple[Path, Path]:
    """(the worktree's top, its git common dir's info/attributes); a usage error outside one."""
    try:
        done = subprocess.run(["git", "-C", str(cwd), "rev-parse", "--show-toplevel"],
                              capture_output=True, text=True)
    except FileNotFoundError:
        raise ShareError("git is not installed (share writes git's own files)", EXIT_USAGE)
    if done.returncode != 0 or not done.stdout.strip():
        raise ShareError(f"{cwd} is not inside a git worktree; run share from the "
                         "repository whose ledger the team shares", EXIT_USAGE)
    top = Path(done.stdout.strip())
    info = git(top, "rev-parse", "--path-format=absolute", "--git-path", "info/attributes")
    return top, Path(info.stdout.strip())


# --- marked blocks in a text file: a MARK comment line, then the lines it owns ---------------

def block(purpose, lines) -> list:
    return [f"{MARK} {purpose}", *lines]


def has_block(text, lines) -> bool:
    have = text.splitlines()
    return any(have[i].startswith(MARK) and have[i + 1:i + 1 + len(lines)] == lines
               for i in range(len(have)))


def add_block(path: Path, purpose, lines) -> bool:
    """Append the block unless the file holds it; the user's lines are kept as they are."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if has_block(text, lines):
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    write(path, text + "\n".join(block(purpose, lines)) + "\n")
    return True


def remove_blocks(path: Path) -> bool:
    """Take out every block share wrote (its MARK line and the lines under it, up to the next
    blank or comment line); the file goes when nothing else is left in it."""
    if not path.exists():
        return False
    kept, skipping, changed = [], False, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(MARK):
            skipping = changed = True
            continue
        if skipping and line.strip() and not line.startswith("#"):
            continue
        skipping = False
        kept.append(line)
    if changed:
        if any(line.strip() for line in kept):
            write(path, "\n".join(kept) + "\n")
        else:
            path.unlink()
    return changed


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".share-tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# --- the pieces ----------------------------------------------------------------------------

def ignored(top, path) -> bool:
    return git(top, "check-ignore", "-q", "--no-index", "--", path, check=False).returncode == 0


def unignore_lines(top) -> list:
    """The .gitignore lines that make the ledger and the project file committable: for each
    ignored folder on their way, re-include it and ignore its other contents; then the file."""
    lines = []
    for target in (LEDGER, PROJECT_FILE):
        parts = target.split("/")
        inside = False  # in a folder these lines re-include: its `/*` ignores the file again
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            if f"!/{folder}/" in lines:
                inside = True
            elif ignored(top, folder + "/"):
                lines += [f"!/{folder}/", f"/{folder}/*"]
                inside = True
        if inside or ignored(top, target):
            lines.append(f"!/{target}")
    return lines


def driver_command() -> str:
    """The driver as git runs it (sh -c): this installation's judgment-ledger, and git's own
    union when that cannot run (moved, uninstalled), so no merge ever stops on it."""
    from judgment_toolkit.claude.kit import tool_path
    tool = tool_path(DRIVER) or DRIVER
    return f"{shlex.quote(tool)} merge %O %A %B || git merge-file --union %A %O %B"


HOOKS = ("post-commit", "post-merge", "post-checkout", "post-rewrite")
HOOK_MARK = f"{MARK} restore the ledger records a git operation overwrote"
SHELLS = ("sh", "bash", "dash", "zsh", "ksh")


def hooks_dir(top) -> Path:
    done = git(top, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
    return Path(done.stdout.strip())


def hook_command(hook) -> str:
    """The hook's line: heal from this installation (with git's arguments to the hook),
    silently nothing when it is gone."""
    from judgment_toolkit.claude.kit import tool_path
    kit = shlex.quote(tool_path("judgment-kit") or "judgment-kit")
    return f'command -v {kit} >/dev/null 2>&1 && {kit} heal --hook {hook} "$@"; true'


def is_sh(text) -> bool:
    first = text.split("\n", 1)[0]
    if not first.startswith("#!"):
        return False
    words = first[2:].split()
    names = [os.path.basename(w) for w in words[:2]]
    return any(n in SHELLS for n in names)


def add_hook(path: Path) -> str | None:
    """Install the heal line in one hook; what changed in words, or None when it was there.
    Raises ShareError for a hook that is not an sh script (left as it is)."""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if HOOK_MARK in text.splitlines():
            return None
        if not is_sh(text):
            raise ShareError(f"{path} is not an sh script, so share leaves it as it is; add "
                             "`judgment-kit heal` to it, then run share again", EXIT_CANNOT)
        first, _, rest = text.partition("\n")
        write(path, f"{first}\n{HOOK_MARK}\n{hook_command(path.name)}\n{rest}")
        mode = path.stat().st_mode
        os.chmod(path, mode | 0o111)
        return f"{path}: your hook"
    write(path, f"#!/bin/sh\n{HOOK_MARK}\n{hook_command(path.name)}\n")
    os.chmod(path, 0o755)
    return f"{path}: runs judgment-kit heal"


def remove_hook(path: Path) -> bool:
    """Take out the mark line and the line under it; the hook goes when share made it."""
    if not path.exists():
        return False
    lines = path.read_text(encoding="utf-8").split("\n")
    if HOOK_MARK not in lines:
        return False
    at = lines.index(HOOK_MARK)
    del lines[at:at + 2]
    if [x for x in lines if x] == ["#!/bin/sh"]:
        path.unlink()
    else:
        write(path, "\n".join(lines))
        os.chmod(path, 0o755)  # write() made a new file: keep the hook runnable
    return True


def hook_installed(path: Path) -> bool:
    try:
        return HOOK_MARK in path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False


def driver_registered(top) -> bool:
    done = git(top, "config", "--local", "--get", f"merge.{DRIVER}.driver", check=False)
    return done.returncode == 0 and " merge %O %A %B" in done.stdout


def project_file_name(top):
    path = top / PROJECT_FILE
    try:
        name = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name or None


def missing(top, info) -> list:
    """What a shared ledger lacks in this clone, in words; empty when it is set up."""
    gaps = []
    attrs = top / ".gitattributes"
    if not (attrs.exists() and has_block(attrs.read_text(encoding="utf-8"), [FLOOR_LINE])):
        gaps.append(f".gitattributes has no `{FLOOR_LINE}` line")
    if not (info.exists() and has_block(info.read_text(encoding="utf-8"), [DRIVER_LINE])):
        gaps.append(f"{info} has no `{DRIVER_LINE}` line")
    if not driver_registered(top):
        gaps.append(f"git config has no merge.{DRIVER}.driver")
    if ignored(top, LEDGER):
        gaps.append(f"{LEDGER} is ignored by git")
    folder = hooks_dir(top)
    absent = [h for h in HOOKS if not hook_installed(folder / h)]
    if absent:
        gaps.append(f"the git hooks {', '.join(absent)} in {folder} do not run judgment-kit heal")
    if project_file_name(top) is None:
        gaps.append(f"{PROJECT_FILE} is missing or empty")
    elif ignored(top, PROJECT_FILE):
        gaps.append(f"{PROJECT_FILE} is ignored by git")
    return gaps


def share(top, info, name) -> list:
    """Set everything up; returns what changed, in words. The ignore rules come first: when
    the ledger stays ignored whatever share adds, it says which rule, and nothing is written."""
    done = []
    ignore = top / ".gitignore"
    before = ignore.read_bytes() if ignore.exists() else None
    lines = unignore_lines(top)
    if lines and add_block(ignore, "the team ledger and the project name are committed",
                           lines):
        done.append(f".gitignore: {' '.join(lines)}")
    still = [p for p in (LEDGER, PROJECT_FILE) if ignored(top, p)]
    if still:
        rule = git(top, "check-ignore", "-v", "--no-index", "--", still[0], check=False)
        if before is None:
            ignore.unlink(missing_ok=True)
        else:
            ignore.write_bytes(before)
        raise ShareError(f"{still[0]} is still ignored ({rule.stdout.strip()}); change that "
                         "rule so it is not, then run share again (nothing was changed)")
    if add_block(top / ".gitattributes", "the team ledger merges as a union of lines in "
                 "every clone", [FLOOR_LINE]):
        done.append(f".gitattributes: {FLOOR_LINE}")
    if add_block(info, "this clone merges the ledger by record (judgment-ledger merge)",
                 [DRIVER_LINE]):
        done.append(f"{info}: {DRIVER_LINE}")
    command = driver_command()
    if git(top, "config", "--local", "--get", f"merge.{DRIVER}.driver",
           check=False).stdout.strip() != command:
        git(top, "config", "--local", f"merge.{DRIVER}.name",
            "judgment ledger: a union by record (judgment-kit share)")
        git(top, "config", "--local", f"merge.{DRIVER}.driver", command)
        done.append(f"git config merge.{DRIVER}.driver: {command}")
    if project_file_name(top) != name:
        write(top / PROJECT_FILE, name + "\n")
        done.append(f"{PROJECT_FILE}: {name}")
    folder = hooks_dir(top)
    skipped, made, chained = [], [], []
    for hook in HOOKS:
        try:
            changed = add_hook(folder / hook)
        except ShareError as exc:
            skipped.append(str(exc))
            continue
        if changed:
            (chained if changed.endswith("your hook") else made).append(hook)
    if made:
        done.append(f"git hooks {' '.join(made)} in {folder}: run judgment-kit heal")
    if chained:
        done.append(f"your git hooks {' '.join(chained)} in {folder}: also run judgment-kit heal "
                    "(a marked line after the first)")
    if skipped:
        raise ShareError("; ".join(skipped) + " (everything else is set up: "
                         + ("; ".join(done) if done else "unchanged") + ")")
    return done


def unshare(top, info) -> list:
    done = []
    for path in (top / ".gitattributes", info, top / ".gitignore"):
        if remove_blocks(path):
            done.append(f"{path}: share's lines removed")
    if git(top, "config", "--local", "--get-regexp", f"^merge\\.{DRIVER}\\.",
           check=False).returncode == 0:
        git(top, "config", "--local", "--remove-section", f"merge.{DRIVER}")
        done.append(f"git config: merge.{DRIVER} removed")
    if (top / PROJECT_FILE).exists():
        (top / PROJECT_FILE).unlink()
        done.append(f"{PROJECT_FILE}: removed")
    folder = hooks_dir(top)
    gone = [hook for hook in HOOKS if remove_hook(folder / hook)]
    if gone:
        done.append(f"git hooks {' '.join(gone)} in {folder}: share's line removed")
    return done


def next_step(top) -> str:
    paths = [p for p in (".gitattributes", ".gitignore", PROJECT_FILE, LEDGER)
             if (top / p).exists()]
    add = " ".join(shlex.quote(p) for p in paths)
    return (f"next: git add {add} && git commit -m 'Share the judgment ledger' && git push\n"
            "then each teammate, once per clone: git pull && judgment-kit share "
            "(registers the merge driver; without it git's union still merges)\n")


def parse(argv):
    opts = {"check": False, "remove": False, "project": None}
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("--check", "--remove"):
            opts[arg[2:]] = True
        elif arg == "--project" and args:
            opts["project"] = args.pop(0)
        elif arg.startswith("--project="):
            opts["project"] = arg.split("=", 1)[1]
        elif arg in ("-h", "--help"):
            return None
        else:
            raise ValueError("--project needs a value" if arg == "--project"
                             else f"unknown argument: {arg}")
    if opts["check"] and opts["remove"]:
        raise ValueError("--check and --remove exclude each other")
    if opts["project"] is not None and (opts["check"] or opts["remove"]):
        raise ValueError("--project goes with share itself, not --check or --remove")
    if opts["project"] is not None and not PROJECT_NAME.fullmatch(opts["project"].strip()):
        raise ValueError(f"--project {opts['project']!r}: one line of 1 to 200 characters, "
                         "no control characters")
    return opts


def main(argv) -> int:
    from judgment_toolkit.claude.kit import USAGE
    try:
        opts = parse(argv)
    except ValueError as exc:
        sys.stderr.write(f"judgment-kit: share: {exc}; see judgment-kit --help\n")
        return EXIT_USAGE
    if opts is None:
        sys.stdout.write(USAGE)
        return 0
    try:
        top, info = repository(os.getcwd())
        if opts["check"]:
            gaps = missing(top, info)
            print(f"shared: {top / LEDGER}" if not gaps else
                  f"not shared: {top}: " + "; ".join(gaps) + " (judgment-kit share sets it up)")
            return 0 if not gaps else EXIT_NOT_SET_UP
        if opts["remove"]:
            done = unshare(top, info)
            print("\n".join(done) if done else f"nothing to remove: {top}")
            if done:
                print("next: commit the removal (git add -A .gitattributes .gitignore "
                      f"{PROJECT_FILE} && git commit), and git rm --cached {LEDGER} to "
                      "stop tracking the ledger")
            return 0
        from judgment_toolkit.judgment.project import project_name
        name = (opts["project"] or "").strip() or project_file_name(top) or project_name(str(top))
        done = share(top, info, name)
    except ShareError as exc:
        sys.stderr.write(f"judgment-kit: share: {exc}\n")
        return exc.code
    except (OSError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"judgment-kit: share: {exc}\n")
        return EXIT_CANNOT
    print("\n".join(done) if done else f"unchanged: {top} already shares its ledger")
    sys.stdout.write(next_step(top))
    return 0
