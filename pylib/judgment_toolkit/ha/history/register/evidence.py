"""Observe evidence at registration (docs/history.md, "Evidence") and identify file versions
safely, and say which references could not be read (`unread_notes`).

file: the last path component is opened without following a symlink (a link there is
`not_regular`); earlier components may be symlinks only if their real target stays inside the
repository (else `outside`). The resolved parent is re-walked component by component with
O_NOFOLLOW from the repository's top folder, so a swap after the check cannot lead outside.
FIFOs and devices are opened with O_NONBLOCK and refused by fstat before any read, so nothing
is ever waited on. At most FILE_READ_MAX bytes are identified; a file that is larger from the
start or grows past the limit while read is `too_large` after one bounded extra read.
"""
from __future__ import annotations

import hashlib
import os

from judgment_toolkit.ha import safefs
from judgment_toolkit.ha.history import model
from judgment_toolkit.ha.history.errors import HistoryError

_CHUNK = 1 << 20


def _walk(top_real: str, rel_parts):
    """fd of top_real/rel_parts..., each step without following links; OSError on failure."""
    fd = safefs.open_dir(top_real)
    for part in rel_parts:
        try:
            nfd = safefs.open_dir(part, dir_fd=fd)
        finally:
            os.close(fd)
        fd = nfd
    return fd


def _inside(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def observe_file(top: str, path: str, limit: int = model.FILE_READ_MAX) -> dict:
    """{"state": ..., ["version": sha256]} for repository-relative `path`."""
    top_real = os.path.realpath(top)
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts:
        return {"state": "not_regular"}
    dfd = _open_parent(top_real, parts[:-1])
    if isinstance(dfd, str):
        return {"state": dfd}
    try:
        fd = _open_last(dfd, parts[-1])
    finally:
        os.close(dfd)
    if isinstance(fd, str):
        return {"state": fd}
    try:
        return _identify(fd, limit)
    finally:
        os.close(fd)


def _open_parent(top_real: str, parent_rel: list):
    """An fd of the folder holding the file, reached without following links from the top
    after its real path was found inside the repository; else the observation state."""
    try:
        parent_real = os.path.realpath(os.path.join(top_real, *parent_rel), strict=True) \
            if parent_rel else top_real
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError:  # ELOOP, EACCES, ...: the path or a parent cannot be examined
        return "unreadable"
    if not _inside(parent_real, top_real):
        return "outside"
    if not os.path.isdir(parent_real):
        return "missing"
    try:
        return _walk(top_real, [p for p in os.path.relpath(parent_real, top_real).split("/")
                                if p != "."])
    except FileNotFoundError:
        return "missing"
    except OSError:  # replaced by a link or unreadable since realpath: do not guess
        return "unreadable"


def _open_last(dfd: int, name: str):
    """An fd of the regular file `name` in folder `dfd` (safefs.open_file: not following a
    link, never waiting on a FIFO or device); else the observation state."""
    try:
        return safefs.open_file(name, dir_fd=dfd)
    except safefs.FsError as exc:
        return exc.state            # missing, not_regular or unreadable


def _identify(fd: int, limit: int) -> dict:
    """The sha256 of a regular file read through `fd`, at most `limit` bytes (`too_large`
    past it, after one bounded extra read)."""
    try:
        st = os.fstat(fd)           # a regular file: safefs.open_file checked it
        if st.st_size > limit:
            return {"state": "too_large"}
        digest, total = hashlib.sha256(), 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                return {"state": "too_large"}
            digest.update(chunk)
        return {"state": "read", "version": digest.hexdigest()}
    except OSError:
        return {"state": "unreadable"}


def this_repository(repo) -> set:
    """Names that identify this repository for commit:<sha>@<repository>: its top folder (as
    given or resolved), its git common dir, and every configured remote URL."""
    names = {repo.toplevel, os.path.realpath(repo.toplevel), repo.common_dir,
             os.path.realpath(repo.common_dir)}
    out = repo.git("config", "--get-regexp", r"^remote\..*\.url$", check=False)
    for line in out.decode("utf-8", "surrogateescape").splitlines():
        _, _, url = line.partition(" ")
        if url:
            names.add(url)
    return names


def observe(ev: dict, ctx, names_cache: dict) -> dict:
    """The context.evidence[i] observation of decision.evidence[i]."""
    kind = ev["type"]
    if kind == "run":
        sha = ctx.chain.line_sha256(ev["seq"])
        if sha is None:
            raise HistoryError("invalid_reference", f"run:{ev['seq']}: the run record of "
                               f"{ctx.goal.path} has no line {ev['seq']}")
        if "sha256" in ev and ev["sha256"] != sha:
            raise HistoryError("invalid_reference", f"run:{ev['seq']}:{ev['sha256']}: line "
                               f"{ev['seq']} of the run record has sha256 {sha}")
        return {"type": "run", "state": "matched", "version": sha}
    if kind == "file":
        return {"type": "file", **observe_file(ctx.repo.toplevel, ev["path"])}
    if kind == "commit":
        if "repository" in ev:
            if "names" not in names_cache:
                names_cache["names"] = this_repository(ctx.repo)
            repo_given = ev["repository"]
            if repo_given not in names_cache["names"] and \
                    os.path.realpath(repo_given) not in names_cache["names"]:
                return {"type": "commit", "state": "other_repository"}
        full = ctx.repo.commit_by_id(ev["commit"])
        if full is None:
            return {"type": "commit", "state": "not_found"}
        return {"type": "commit", "state": "found", "commit": full}
    return {"type": "external", "state": "not_checked"}


def check_runs(decision: dict, ctx) -> None:
    """Refuse (invalid_reference) run evidence whose line is missing or whose hash differs,
    before any file or commit is observed."""
    for ev in decision.get("evidence", ()):
        if ev["type"] == "run":
            observe(ev, ctx, {})


# The observation states that mean a reference was not read, with what each means to the user
# (docs/history.md, "Evidence"); `read`, `matched`, `found` and `not_checked` (external, never
# looked at by design) give no note.
UNREAD = {
    "missing": "no such file in the repository",
    "not_regular": "not a regular file (a symlink, folder, FIFO or device), so it was not read",
    "outside": "its path leads outside the repository, so it was not read",
    "unreadable": "it could not be read safely (permissions, a loop, or it changed while read)",
    "too_large": f"over the read limit of {model.FILE_READ_MAX >> 20} MiB, so no version was "
                 "identified",
    "not_found": "no such commit in this repository (nothing is ever fetched)",
    "other_repository": "it names another repository, so it was not looked up",
}


def unread_notes(evidence, observed) -> list:
    """One stderr line per evidence reference whose observation says it was not read; the
    event is stored all the same (an observation is never a refusal)."""
    notes = []
    for ref, seen in zip(evidence, observed):
        meaning = UNREAD.get(seen["state"])
        if meaning is None:
            continue
        name, at = (("file:" + ref["path"], "#" + ref.get("section", "")) if ref["type"] == "file"
                    else ("commit:" + ref["commit"], "@" + ref.get("repository", "")))
        name += at if len(at) > 1 else ""  # the reference as given: #section, @repository
        notes.append(f"ha: note: {name} is stored as {seen['state']}: {meaning}\n")
    return notes
