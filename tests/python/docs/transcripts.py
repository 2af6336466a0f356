"""Doc transcripts: the command examples in README.md and docs/ are the expected output.

A transcript is a fenced code block (no info string, or `console`) whose lines starting with
`$ ` are commands; the lines after a command, up to the next command or the end of the block,
are what it prints (stdout and stderr together, in order), and a last line `[exit N]` is its
exit status. What a block does not show is not checked: output without `[exit N]` leaves the
status unchecked; a command with neither output nor `[exit N]` must succeed (exit 0) and may
print anything. A line that is exactly `...` stands for any lines.
A command line ending in a backslash continues on the next line.

Every transcript of one document runs in order, as `bash -c`, in one fresh sandbox (a git
repository holding the fixture goal at docs/specs/empty-input, committed with a fixed
author and date; `scripts/` on PATH and reachable as `scripts/`, then the installed console
scripts of the test venv; HOME, the ledger and
harness-mem inside the sandbox; the ledger's `.claude/` and `*.json` files at the top are
git-ignored there), so later examples see what earlier ones did.

Volatile fields are normalised on both sides before comparing: times, UUIDs, ULIDs, cursors,
hashes and commit ids (12, 24, 40 or 64 hex digits), durations and the sandbox path.

Directives (HTML comments, invisible in the rendered Markdown), between the previous block and
the fence they apply to:
- `<!-- doc-test: run COMMAND -->` runs COMMAND (hidden set-up, e.g. damaging a file the
  example then shows refused); it must exit 0.
- `<!-- doc-test: file NAME -->` before any fenced block (e.g. a ```json example): its content
  is written to NAME in the sandbox when the documents' examples reach it, so the input a
  document shows is the input its examples use.
- `<!-- doc-test: path /tmp/demo -->` (anywhere): the document writes the sandbox repository
  as /tmp/demo, in its commands and outputs alike.
- `<!-- doc-test: reset -->` starts a fresh sandbox for this block and the ones after it (a
  section whose examples do not continue the ones before).
- `<!-- doc-test: skip REASON -->` marks the block illustrative only (keep these rare; the
  reason says why it cannot run).

Set-up commands may start helpers in the background (e.g. the harness-mem stand-in) and append
their process ids to `$DOC_TEST_PIDS`; they are killed when the document is done. `$DOC_ROOT`
is this repository.

Maintainers: `DOC_TRANSCRIPTS=update` rewrites the output of every block that differs with
what the commands printed now (review the diff before committing).
"""
from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from conftest import FIXTURE_GOAL, GOAL, ROOT, SCRIPTS

_FENCE = re.compile(r"^(`{3,})\s*([\w-]*)\s*$")
_DIRECTIVE = re.compile(r"^<!--\s*doc-test:\s*(run|skip|reset|file|path)\b\s*(.*?)\s*-->\s*$")
_EXIT = re.compile(r"^\[exit (\d+)\]$")

_NORMALISE = [
    (re.compile(r"\b\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)"),
     "<TIME>"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<UUID>"),
    (re.compile(r"\b[0-9A-HJKMNP-TV-Z]{26}\b"), "<ULID>"),
    (re.compile(r"\b[cp]1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"), "<CURSOR>"),
    (re.compile(r"\b(?:[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{24}|[0-9a-f]{12})\b"), "<HEX>"),
    (re.compile(r'"duration_ms":\d+'), '"duration_ms":<N>'),
]


@dataclass
class Command:
    text: str
    line: int                       # 1-based line of the `$ ` in the document
    expected: list = field(default_factory=list)
    exit: int | None = None         # None: not shown
    out_start: int = 0              # 0-based index of the first output line in the document
    out_end: int = 0                # one past the last output line (incl. `[exit N]`)


@dataclass
class Block:
    line: int                       # 1-based line of the opening fence
    commands: list
    setup: list                     # hidden `run` directives
    skip: str | None = None
    reset: bool = False
    file: str | None = None         # a `file` block: write `content` to this name
    content: str = ""


def parse(text: str) -> list:
    """Every transcript block of a Markdown document, in order."""
    lines = text.split("\n")
    blocks, pending_setup, pending_skip, pending_reset = [], [], None, False
    pending_file = None
    i = 0
    while i < len(lines):
        d = _DIRECTIVE.match(lines[i])
        if d:
            if d.group(1) == "run":
                pending_setup.append(d.group(2))
            elif d.group(1) == "reset":
                pending_reset = True
            elif d.group(1) == "path":
                pass  # read by run_document
            elif d.group(1) == "file":
                pending_file = d.group(2)
            else:
                pending_skip = d.group(2) or "illustrative"
            i += 1
            continue
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() != m.group(1):
            end += 1
        body = range(i + 1, end)
        if pending_file:
            blocks.append(Block(i + 1, [], pending_setup, None, pending_reset, pending_file,
                                "\n".join(lines[i + 1:end]) + "\n"))
        elif m.group(2) in ("", "console") and any(lines[j].startswith("$ ") for j in body):
            blocks.append(Block(i + 1, _commands(lines, i + 1, end), pending_setup,
                                pending_skip, pending_reset))
        pending_setup, pending_skip, pending_reset, pending_file = [], None, False, None
        i = end + 1
    return blocks


def _commands(lines: list, start: int, end: int) -> list:
    out, j = [], start
    while j < end and not lines[j].startswith("$ "):
        j += 1
    while j < end:
        cmd = Command(lines[j][2:], j + 1)
        while cmd.text.endswith("\\") and j + 1 < end:
            j += 1
            cmd.text = cmd.text[:-1] + "\n" + lines[j]
        j += 1
        cmd.out_start = j
        while j < end and not lines[j].startswith("$ "):
            j += 1
        output = lines[cmd.out_start:j]
        while output and output[-1].strip() == "":
            output.pop()
        cmd.out_end = cmd.out_start + len(output)
        if output and _EXIT.match(output[-1]):
            cmd.exit = int(_EXIT.match(output[-1]).group(1))
            output.pop()
        cmd.expected = output
        out.append(cmd)
    return out


def normalise(lines: list, sandbox: str | None = None) -> list:
    out = []
    for line in lines:
        if sandbox:
            line = line.replace(sandbox, "<SANDBOX>")
        for pattern, repl in _NORMALISE:
            line = pattern.sub(repl, line)
        out.append(line.rstrip())
    return out


def matches(expected: list, actual: list) -> bool:
    """Line-by-line equality where an expected `...` line stands for any lines (the usual
    wildcard walk: on a mismatch, let the last `...` take one more line)."""
    i = j = 0
    star, mark = -1, 0
    while j < len(actual):
        if i < len(expected) and expected[i] == "...":
            star, mark = i, j
            i += 1
        elif i < len(expected) and expected[i] == actual[j]:
            i += 1
            j += 1
        elif star >= 0:
            mark += 1
            i, j = star + 1, mark
        else:
            return False
    return all(x == "..." for x in expected[i:])


class Sandbox:
    """A fresh repository with the fixture goal, and the environment every command gets."""

    def __init__(self, tmp: Path):
        tmp.mkdir()
        self.root = tmp
        self.repo = tmp / "repo"
        home = tmp / "home"
        home.mkdir()
        self.env = {
            # scripts/ first; then the test venv's bin, which holds the installed console
            # scripts (judgment-ledger, judgment-card, ha) that README's Install section runs
            "PATH": f"{SCRIPTS}:{Path(sys.executable).parent}:"
                    f"{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": str(home), "TZ": "UTC", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8",
            "GIT_AUTHOR_NAME": "Doc Example", "GIT_AUTHOR_EMAIL": "doc@example.invalid",
            "GIT_COMMITTER_NAME": "Doc Example", "GIT_COMMITTER_EMAIL": "doc@example.invalid",
            "GIT_AUTHOR_DATE": "2026-12-02T15:40:00Z", "GIT_COMMITTER_DATE": "2026-12-02T15:40:00Z",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
            "HARNESS_MEM_HOME": str(tmp / "no-harness-mem"), "HARNESS_MEM_PORT": "1",
            "DOC_ROOT": str(ROOT), "DOC_TEST_PIDS": str(tmp / "pids"),
        }
        if os.environ.get("HARNESS_PYTHON"):
            self.env["HARNESS_PYTHON"] = os.environ["HARNESS_PYTHON"]
        self.repo.mkdir()
        self.sh("git init -q -b main && printf 'demo\\n' > README.md && mkdir src && "
                "printf 'package count\\n' > src/count.go && git add -A && "
                "git commit -qm initial")
        shutil.copytree(FIXTURE_GOAL, self.repo / GOAL)
        (self.repo / "scripts").symlink_to(SCRIPTS)
        with open(self.repo / ".git" / "info" / "exclude", "a") as f:
            f.write("/scripts\n/.claude/\n/*.json\n")  # the tools, the ledger, example cards
        self.sh("git add -A && git commit -qm goal")

    def stop_helpers(self):
        """Kill the background helpers set-up commands started (their pids, one a line)."""
        pids = self.root / "pids"
        if pids.exists():
            for line in pids.read_text().split():
                try:
                    os.kill(int(line), 15)
                except (ValueError, OSError):
                    pass

    def sh(self, command: str, check: bool = True):
        p = subprocess.run(["bash", "-c", command], cwd=self.repo, env=self.env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120)
        text = p.stdout.decode("utf-8", "replace")
        if check and p.returncode != 0:
            raise AssertionError(f"set-up command failed ({p.returncode}): {command}\n{text}")
        return p.returncode, text


def run_document(path: Path, tmp: Path, update: bool = False) -> list:
    """Run every transcript of the document; a list of readable failures (empty: all agree).
    With `update`, rewrite the outputs that differ."""
    text = path.read_text(encoding="utf-8")
    alias = next((m.group(2) for m in map(_DIRECTIVE.match, text.split("\n"))
                  if m and m.group(1) == "path"), None)
    boxes = [Sandbox(tmp / "box0")]
    try:
        return _run_blocks(path, text, boxes, tmp, alias, update)
    finally:
        for box in boxes:
            box.stop_helpers()


def _run_blocks(path, text, boxes, tmp, alias, update) -> list:
    doc_lines = text.split("\n")
    rel = path.relative_to(ROOT)
    failures, rewrites = [], []
    for block in parse(text):
        if block.skip:
            continue
        if block.reset:
            boxes.append(Sandbox(tmp / f"box{len(boxes)}"))
        box = boxes[-1]
        real = str(box.repo)

        def here(command):
            return command.replace(alias, real) if alias else command

        for setup in block.setup:
            box.sh(here(setup))
        if block.file:
            (box.repo / block.file).write_text(block.content, encoding="utf-8")
        for cmd in block.commands:
            code, out = box.sh(here(cmd.text), check=False)
            if alias:
                out = out.replace(real, alias)
            actual = out.rstrip("\n").split("\n") if out.strip() else []
            shown = bool(cmd.expected) or cmd.exit is not None
            want_exit = cmd.exit if cmd.exit is not None else 0
            ok_out = not shown or matches(normalise(cmd.expected),
                                          normalise(actual, str(box.root)))
            ok_exit = code == want_exit if cmd.exit is not None or not shown else True
            if ok_out and ok_exit:
                continue
            exp = cmd.expected + ([f"[exit {cmd.exit}]"] if cmd.exit is not None else [])
            got = actual + ([f"[exit {code}]"] if cmd.exit is not None or code else [])
            diff = "\n".join(difflib.unified_diff(
                normalise(exp), normalise(got, str(box.root)), "documented", "actual",
                lineterm=""))
            failures.append(f"{rel}:{cmd.line}: $ {cmd.text}\n{diff or '(exit differs)'}")
            if update and shown:
                rewrites.append((cmd.out_start, cmd.out_end, got))
    if update and rewrites:
        for start, end, new in sorted(rewrites, reverse=True):
            doc_lines[start:end] = new
        path.write_text("\n".join(doc_lines), encoding="utf-8")
    return failures


def documents() -> list:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in found
            if any(b.commands for b in parse(p.read_text(encoding="utf-8")))]
