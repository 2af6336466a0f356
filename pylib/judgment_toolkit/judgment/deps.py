"""The project's runtime dependencies, and how to tell a user to install them.

Presence is checked with importlib.util.find_spec, which locates a module without importing it,
so the read paths can check without paying for (or loading) jsonschema and ulid.
"""
import importlib.util
import sys

# module name -> distribution name (as in pyproject.toml)
REQUIRED = {"jsonschema": "jsonschema", "ulid": "python-ulid"}


def missing():
    """Distribution names of the runtime dependencies this interpreter cannot import."""
    return [dist for module, dist in REQUIRED.items() if importlib.util.find_spec(module) is None]


def install_hint():
    return (f"run bash scripts/setup.sh, or: {sys.executable} -m pip install "
            + " ".join(REQUIRED.values()))


class MissingResource(RuntimeError):
    """A file that ships inside the package (a schema) is not there: a broken installation, a
    bug of the packaging, never an I/O problem to be skipped over (exit 70)."""
