"""The only module that runs git.

Every call goes through `_run` with LC_ALL=C, GIT_OPTIONAL_LOCKS=0 and GIT_TERMINAL_PROMPT=0
and reads machine output (rev-parse, status --porcelain=v2 -z, config --get-regexp). One
exception: when discovery fails, rev-parse's stderr (fixed English under LC_ALL=C) tells "not a
git repository" from "not a work tree" to choose the message. Results that cannot change
during one ha command (HEAD, cleanliness for one exclude set) are cached on the Repo so a
command does not start the same git process twice.
"""
from __future__ import annotations

import os
import subprocess

from .errors import error

_ENV_OVERRIDES = {"LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
_UNSET = object()


def _git_env():
    env = dict(os.environ)
    env.update(_ENV_OVERRIDES)
    return env


def _run(argv, cwd, input=None):
    try:
        return subprocess.run(["git", *argv], cwd=cwd, input=input, env=_git_env(),
                              stdin=None if input is not None else subprocess.DEVNULL,
                              capture_output=True)
    except FileNotFoundError:
        raise error("usage", "git: not found on PATH") from None
    except OSError as exc:
        raise error("io_error", f"git: cannot run: {exc}") from None


class Repo:
    """One worktree of a git repository, as git itself reports it."""

    def __init__(self, toplevel: str, git_dir: str, common_dir: str, head=_UNSET):
        self.toplevel = toplevel
        self.git_dir = git_dir
        self.common_dir = common_dir
        self._head = head
        self._clean: dict[tuple, bool] = {}

    def __repr__(self):
        return f"Repo({self.toplevel!r})"

    def refresh(self):
        """Forget cached HEAD and cleanliness (something may have changed them)."""
        self._head = _UNSET
        self._clean.clear()

    def git(self, *args: str, input: bytes | None = None, check=True) -> bytes:
        proc = _run(list(args), self.toplevel, input=input)
        if check and proc.returncode != 0:
            detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise error("io_error", f"git {args[0] if args else ''} failed (exit {proc.returncode})"
                        + (f": {detail[-1]}" if detail else ""))
        return proc.stdout

    def head(self) -> str | None:
        """Full id of the commit HEAD points at; None on an unborn branch."""
        if self._head is _UNSET:
            self._head = self.resolve_commit("HEAD")
        return self._head

    def resolve_commit(self, rev: str) -> str | None:
        """Full id of the commit `rev` names in this repository (no fetch); None when none."""
        if not rev or rev.startswith("-") or "\n" in rev or "\0" in rev:
            return None
        proc = _run(["rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"],
                    self.toplevel)
        out = proc.stdout.decode("ascii", "replace").strip()
        if proc.returncode != 0 or not _is_hex_id(out):
            return None
        return out

    def commit_by_id(self, hex_id: str) -> str | None:
        """Full id of the commit named by the (abbreviated) object id `hex_id`, never by a
        ref that happens to be spelled in hex digits (rev-parse prefers such a ref)."""
        hex_id = hex_id.lower()
        full = self.resolve_commit(hex_id)
        if full is None or full.startswith(hex_id):
            return full
        # A ref shadowed the prefix: look among objects only (a tag still peels to its commit).
        out = self.git("rev-parse", f"--disambiguate={hex_id}", check=False)
        found = {self.resolve_commit(oid) for oid in out.decode("ascii", "replace").split()
                 if _is_hex_id(oid) and oid.startswith(hex_id)} - {None}
        return found.pop() if len(found) == 1 else None

    def is_clean(self, excludes: list[str]) -> bool:
        """True when `git status --porcelain=v2` shows nothing outside `excludes`.

        `excludes` are repository-relative paths (files or folders) matched literally.
        Ignored files do not count; untracked files and submodule changes do.
        """
        key = tuple(sorted(set(excludes)))
        if key not in self._clean:
            specs = [":(exclude,literal)" + p for p in key]
            out = self.git("status", "--porcelain=v2", "-z", "--untracked-files=all",
                           "--ignore-submodules=none", "--", ".", *specs)
            self._clean[key] = out == b""
        return self._clean[key]


def _is_hex_id(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def discover(cwd: str | None = None) -> Repo:
    """The worktree containing `cwd` (default: the process's cwd), with HEAD already read.

    One git process in the usual case: rev-parse reports the three directories and HEAD
    together; only an unborn HEAD needs a second call.
    """
    cwd = cwd or os.getcwd()
    base = ["rev-parse", "--path-format=absolute", "--show-toplevel", "--absolute-git-dir",
            "--git-common-dir"]
    proc = _run([*base, "HEAD^{commit}", "--"], cwd)
    head = _UNSET
    if proc.returncode == 0:
        lines = proc.stdout.decode("utf-8", "surrogateescape").split("\n")
        if len(lines) >= 5 and lines[4] == "--" and _is_hex_id(lines[3]):
            head = lines[3]
            lines = lines[:3]
        else:
            lines = None
    else:
        lines = None
    if lines is None:
        proc = _run(base, cwd)
        if proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace")
            if "not a git repository" in err:
                raise error("usage", "not inside a git repository")
            if "must be run in a work tree" in err:
                raise error("usage", "not inside a git worktree (bare repository or git dir)")
            last = (err.strip().splitlines() or ["?"])[-1]
            raise error("usage", f"git rev-parse failed: {last}")
        lines = proc.stdout.decode("utf-8", "surrogateescape").split("\n")
        if head is _UNSET:
            head = None  # rev-parse of HEAD failed while discovery works: unborn branch
    if len(lines) < 3 or not all(lines[:3]):
        raise error("io_error", "git rev-parse gave unexpected output")
    toplevel, git_dir, common_dir = (os.path.normpath(p) for p in lines[:3])
    return Repo(toplevel, git_dir, common_dir, head=head)
