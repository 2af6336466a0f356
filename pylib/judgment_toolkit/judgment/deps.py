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


class MissingResource(RuntimeError):
    """A file that ships inside the package (a schema, the card template, the lexicon) is not
    there: a broken installation, a bug of the packaging, never an I/O problem to be skipped
    over (exit 70)."""


PACKAGE_DATA = "judgment_toolkit.templates"


def packaged_text(what, *parts):
    """The UTF-8 text of the file `parts` of judgment_toolkit/templates (the package's data),
    read through the package's loader: what importlib.resources does for a plain file, without
    importing it (that import alone costs about 25 ms a call). MissingResource names `what` and
    the file when the installation lacks it."""
    import os
    from .. import templates
    name = "/".join(parts)
    try:
        data = templates.__loader__.get_data(os.path.join(os.path.dirname(templates.__file__),
                                                          *parts))
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MissingResource(f"the packaged {what} {name} is missing or unreadable in "
                              f"{PACKAGE_DATA} ({type(e).__name__}); the installation is "
                              "broken: reinstall judgment-toolkit") from None
