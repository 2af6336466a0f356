"""The project's runtime dependencies, and how to tell a user to install them.

Presence is checked with importlib.util.find_spec, which locates a module without importing it,
so the read paths can check without paying for (or loading) jsonschema and ulid.
"""
import importlib.util
import sys

# module name -> distribution name (as in pyproject.toml)
REQUIRED = {"jsonschema": "jsonschema", "ulid": "python-ulid"}
# needed only by the relevance ranking (search/recall --rank relevance); append never asks for it
RANKING = {"snowballstemmer": "snowballstemmer"}


def missing(rank_mode="match"):
    """Distribution names of the runtime dependencies this interpreter cannot import (for a
    read in `rank_mode`: "relevance" needs RANKING too)."""
    needed = dict(REQUIRED, **RANKING) if rank_mode == "relevance" else REQUIRED
    return [dist for module, dist in needed.items() if importlib.util.find_spec(module) is None]


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
