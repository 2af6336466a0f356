"""The project's runtime dependencies, and how to tell a user to install them.

Presence is checked with `find_spec`, which locates a module without importing it, so the read
paths can check without paying for (or loading) jsonschema and ulid.
"""
import sys

# module name -> distribution name (as in pyproject.toml)
REQUIRED = {"jsonschema": "jsonschema", "ulid": "python-ulid"}
# needed only by the relevance ranking (search/recall --rank relevance); append never asks for it
RANKING = {"snowballstemmer": "snowballstemmer"}


RANKED_MODES = ("relevance", "answers")  # the modes of judgment.search that read with RANKING


def missing(rank_mode="match"):
    """Distribution names of the runtime dependencies this interpreter cannot import (for a
    read in `rank_mode`: one of RANKED_MODES needs RANKING too)."""
    needed = dict(REQUIRED, **RANKING) if rank_mode in RANKED_MODES else REQUIRED
    return [dist for module, dist in needed.items() if find_spec(module) is None]


def install_hint():
    return (f"run bash scripts/setup.sh, or: {sys.executable} -m pip install "
            + " ".join(dict(REQUIRED, **RANKING).values()))


def skip_reason(missing_dists):
    """Why a fail-open write was skipped, in the one wording append and record-answer share."""
    return (f"missing Python dependencies: {', '.join(missing_dists)} in {sys.executable}; "
            f"{install_hint()}")


# The packaged files are found and read in one place (judgment_toolkit.packaged); these names are
# what the ledger modules have always imported.
from ..packaged import MissingResource, text as packaged_text  # noqa: E402,F401


def find_spec(name):
    """importlib.util.find_spec for a top-level module name: the module's spec, found by the
    import system's own finders (sys.meta_path) without importing it, or None. Asked of the
    finders here because importing importlib.util (with contextlib and warnings) costs a hook
    about a millisecond on every call."""
    module = sys.modules.get(name)
    if module is not None:
        return getattr(module, "__spec__", None)
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find(name, None) if find is not None else None
        if spec is not None:
            return spec
    return None
