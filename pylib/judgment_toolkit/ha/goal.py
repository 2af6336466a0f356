"""Goal folders: resolution, target ids, the goal document set and its digest, clean excludes."""
from __future__ import annotations

import hashlib
import os
import posixpath
import re
import urllib.parse

from . import ids, markdown, plan as planmod, safefs
from .errors import HaError, error
from .gitrepo import Repo
from judgment_toolkit.judgment.place import LEDGER_PARTS

OWN_STATE = ("/".join(LEDGER_PARTS),)  # repository-relative; never counted as code

BUNDLE_FILES = ("PLAN.md", "REVIEW.md", "PROGRESS.md", "runs.jsonl")
BUNDLE_DIRS = ("tasks",)
OPTIONAL_MARK = "(선택)"
CRITERIA_HEADING = "Acceptance Criteria"  # the level-2 heading of SPEC.md that holds AC-n

_LIST_ITEM = re.compile(r"^ {0,3}[-*+](?:[ \t]+(.*))?$")
_AC_ITEM = re.compile(rf"^(?:\*\*({ids.CRITERION_LIKE})\*\*|({ids.CRITERION_LIKE}))(?=[ \t]|$)"
                      r"[ \t]*(.*)$")
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)"
                          r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
_REF_DEF = re.compile(r"^ {0,3}\[(?:[^\[\]\\]|\\.)+\]:[ \t]*(<[^>\n]*>|\S+)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class GoalIds:
    def __init__(self):  # a plain class: no dataclasses at start-up (tests/python/imports)
        self.criteria = []      # AC-n from SPEC.md, document order
        self.extras = []        # EX-n from PLAN.md ## 조건표, table order
        self.tasks = []         # T001... from PLAN.md ## Task, table order
        self.optional = []      # criteria marked (선택)
        self.plan = None        # planmod.Plan
        self.plan_found = False  # PLAN.md exists (a regular file)

    def all(self) -> set:
        return set(self.criteria) | set(self.extras) | set(self.tasks)


def goal_key(path: str) -> str:
    """The goal path percent-escaped as one path segment (docs%2Fspecs%2Fempty-input)."""
    return urllib.parse.quote(path, safe="")


def is_bundle_path(rel: str) -> bool:
    """True for goal-relative paths of the run bundle (never goal documents)."""
    return rel in BUNDLE_FILES or rel.split("/", 1)[0] in BUNDLE_DIRS


class Goal:
    def __init__(self, repo: Repo, path: str):
        self.repo = repo
        self.path = path
        self.abs_path = os.path.join(repo.toplevel, *path.split("/"))
        self.runs_path = os.path.join(self.abs_path, "runs.jsonl")
        self.key = goal_key(path)
        self._ids = None
        self._docs = None
        self._bytes = {}
        self._digest = None

    def __repr__(self):
        return f"Goal({self.path!r})"

    def refresh(self):
        """Forget cached ids, documents, digest and git state (after running a command)."""
        self._ids = self._docs = self._digest = None
        self.repo.refresh()

    def rel(self, name: str) -> str:
        return f"{self.path}/{name}"

    def read(self, name: str) -> bytes | None:
        """Bytes of a regular file in the goal folder, None when missing or not regular."""
        try:
            return safefs.read_file(os.path.join(self.abs_path, *name.split("/")))
        except safefs.FsError as exc:
            if exc.state in ("missing", "not_regular"):
                return None
            raise error("goal_invalid", f"{self.rel(name)}: cannot read: {exc.detail}") from None

    def _text(self, name: str) -> str | None:
        data = self.read(name)
        if data is None:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            raise error("goal_invalid", f"{self.rel(name)}:{line}: not valid UTF-8") from None

    def has_spec(self) -> bool:
        return safefs.kind(os.path.join(self.abs_path, "SPEC.md")) == "file"

    # ids -------------------------------------------------------------------------------
    def ids(self) -> GoalIds:
        if self._ids is None:
            ids = GoalIds()
            spec = self._text("SPEC.md")
            if spec is not None:
                ids.criteria, ids.optional = parse_criteria(spec, self.rel("SPEC.md"))
            plan_text = self._text("PLAN.md")
            ids.plan = planmod.parse(plan_text or "", self.rel("PLAN.md"))
            ids.plan_found = plan_text is not None
            criteria = set(ids.criteria)
            for row in ids.plan.conditions:
                if row.id.startswith("AC-") and row.id not in criteria:
                    raise error("goal_invalid",
                                f"{row.file}:{row.line}: {row.id} is not an acceptance "
                                "criterion in SPEC.md")
            ids.extras = [r.id for r in ids.plan.conditions if r.id.startswith("EX-")]
            ids.tasks = [t.id for t in ids.plan.tasks]
            self._ids = ids
        return self._ids

    # documents and digest ----------------------------------------------------------------
    def document_paths(self) -> list:
        """Repository-relative SPEC.md plus the .md documents it links to, sorted bytewise."""
        if self._docs is None:
            if self.read("SPEC.md") is None:
                self._docs, self._bytes = [], {}  # no SPEC.md: the digest of the empty text
                return []
            found = {"SPEC.md"}
            queue = ["SPEC.md"]
            self._bytes = {}
            while queue:
                name = queue.pop()
                data = self._bytes[name] = self.read(name)
                if data is None:
                    continue
                for target in linked_documents(data.decode("utf-8", "replace"), name):
                    if target not in found:
                        found.add(target)
                        queue.append(target)
            self._docs = sorted((self.rel(n) for n in found), key=lambda p: p.encode())
        return list(self._docs)

    def digest(self) -> str:
        if self._digest is None:
            prefix = len(self.path) + 1
            parts = []  # document_paths() read every document once; hash those same bytes
            for rel in self.document_paths():
                data = self._bytes.get(rel[prefix:]) or b""
                parts.append(rel.encode() + b"\0" + hashlib.sha256(data).hexdigest().encode()
                             + b"\n")
            self._digest = hashlib.sha256(b"".join(parts)).hexdigest()
        return self._digest

    # cleanliness -----------------------------------------------------------------------
    def bundle_paths(self) -> list:
        return [self.rel(n) for n in (*BUNDLE_FILES, *BUNDLE_DIRS)]

    def sibling_goals(self) -> list:
        """Repository-relative folders beside this goal that hold a SPEC.md."""
        parent = posixpath.dirname(self.path)
        parent_abs = os.path.dirname(self.abs_path)
        try:
            names = sorted(os.listdir(parent_abs))
        except OSError:
            return []
        out = []
        for name in names:
            rel = posixpath.join(parent, name) if parent else name
            if rel == self.path or name == ".git":
                continue
            if safefs.kind(os.path.join(parent_abs, name)) == "dir" and \
                    safefs.kind(os.path.join(parent_abs, name, "SPEC.md")) == "file":
                out.append(rel)
        return out

    def clean_excludes(self, rules: str) -> list:
        # The toolkit's own state, the Judgment Ledger, is no code under any rules, tracked or
        # not (docs/ha-core.md, "Worktree cleanliness (`tree_clean`)").
        excludes = set(self.document_paths()) | set(self.bundle_paths()) | set(OWN_STATE)
        if _rules_number(rules) >= 2 and not self._shares_bundles():
            for sib in self.sibling_goals():
                excludes.update(f"{sib}/{n}" for n in (*BUNDLE_FILES, *BUNDLE_DIRS))
        return sorted(excludes, key=lambda p: p.encode())

    def _shares_bundles(self) -> bool:
        try:
            return self.ids().plan.shares_bundles
        except HaError:
            text = self.read("PLAN.md")
            return text is not None and \
                planmod.SHARED_BUNDLE_DECLARATION.encode() in text

    def is_clean(self, rules: str) -> bool:
        return self.repo.is_clean(self.clean_excludes(rules))


def _rules_number(rules: str) -> int:
    try:
        return int(rules.rsplit("/", 1)[1])
    except (IndexError, ValueError, AttributeError):
        return 0


def parse_criteria(text: str, file: str):
    """(criteria, optional) from SPEC.md's `## Acceptance Criteria` list items."""
    section = markdown.section(text, CRITERIA_HEADING)
    if section is None:
        near = markdown.near_heading(text, CRITERIA_HEADING)
        if near is not None:
            raise error("goal_invalid",
                        f"{file}:{near[0]}: heading '{near[1]}' is not '## {CRITERIA_HEADING}' "
                        "(exact spelling, case and level), so no acceptance criterion would be "
                        f"read; rename it '## {CRITERIA_HEADING}'")
    criteria, optional, seen = [], [], {}
    for no, line in section or []:
        m = _LIST_ITEM.match(line)
        if not m:
            continue
        item = (m.group(1) or "").strip()
        am = _AC_ITEM.match(item)
        if not am:
            raise error("goal_invalid",
                        f"{file}:{no}: list item under ## {CRITERIA_HEADING} has no "
                        "AC-n id")
        cid = am.group(1) or am.group(2)
        if not ids.CRITERION.match(cid):
            raise error("goal_invalid",
                        f"{file}:{no}: {cid!r} is not an AC-n id (n = 1, 2, ... without "
                        "leading zeros)")
        if cid in seen:
            raise error("goal_invalid",
                        f"{file}:{no}: duplicate id {cid} (first at line {seen[cid]})")
        seen[cid] = no
        criteria.append(cid)
        if am.group(3).startswith(OPTIONAL_MARK):
            optional.append(cid)
    return criteria, optional


def linked_documents(text: str, name: str) -> list:
    """Goal-relative .md documents linked from `text` (the document at goal-relative `name`)."""
    out = []
    base = posixpath.dirname(name)
    for _no, line in markdown.lines_outside_fences(text):
        line = markdown.strip_code_spans(line)
        targets = [m.group(1) for m in _INLINE_LINK.finditer(line)]
        rm = _REF_DEF.match(line)
        if rm:
            targets.append(rm.group(1))
        for t in targets:
            rel = _link_target(t, base)
            if rel and rel.endswith(".md") and not is_bundle_path(rel):
                out.append(rel)
    return out


def _link_target(target: str, base: str):
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target or target.startswith("/") or _SCHEME.match(target):
        return None
    target = urllib.parse.unquote(target)
    joined = posixpath.normpath(posixpath.join(base, target)) if base else \
        posixpath.normpath(target)
    if joined.startswith("../") or joined in ("..", ".") or "\0" in joined:
        return None
    return joined


def resolve(repo: Repo, arg: str, cwd: str | None = None, create: bool = False) -> Goal:
    """The goal folder named by `arg` (relative to `cwd` or absolute) inside `repo`'s worktree;
    with `create` (ha new) a missing folder and its missing parents are made."""
    if not arg:
        raise error("usage", "goal: empty path")
    cwd = cwd or os.getcwd()
    raw = os.path.join(cwd, arg)
    real = os.path.realpath(raw)
    top = os.path.realpath(repo.toplevel)
    if real == top:
        raise error("usage", f"goal {arg!r}: the repository root cannot be a goal")
    if not real.startswith(top.rstrip(os.sep) + os.sep):
        raise error("usage", f"goal {arg!r}: outside the worktree {repo.toplevel}")
    for gd in (repo.git_dir, repo.common_dir):
        gd = os.path.realpath(gd)
        if real == gd or real.startswith(gd + os.sep):
            raise error("usage", f"goal {arg!r}: inside the git dir")
    k = safefs.kind(real)
    if k == "missing" and create:
        try:
            safefs.ensure_dir(real)
        except safefs.FsError as exc:
            if exc.state == "not_regular":
                raise error("usage", f"goal {arg!r}: {exc.path} is not a folder") from None
            raise error("io_error", f"goal {arg!r}: cannot create the folder {exc.path}: "
                        f"{exc.detail}") from None
        k = safefs.kind(real)
    if k == "missing":  # a newcomer's first `ha start`: say how a goal folder is made
        import shlex
        raise error("usage", f"goal {arg!r}: no such folder; make a goal there with "
                    f"`ha new {shlex.quote(arg)}` (its SPEC.md and PLAN.md to fill in)")
    if k != "dir":
        raise error("usage", f"goal {arg!r}: not a folder")
    rel = os.path.relpath(real, top).replace(os.sep, "/")
    if rel.split("/", 1)[0] == ".git":
        raise error("usage", f"goal {arg!r}: inside the git dir")
    return Goal(repo, rel)
