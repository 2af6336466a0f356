"""The files the package carries (the `templates/` folder at the repository's top level: the JSON
Schemas, the card template, the lexicon, the goal scaffold), found the same way from every kind of
installation.

A wheel carries them inside the package as `judgment_toolkit/templates/` (pyproject's
`package-dir` maps the top-level folder there). A checkout on PYTHONPATH and an editable install
import the package from `pylib/`, so the folder is the checkout's own `templates/`, two levels
up. Either way there is one copy in the repository. The files are read with a plain open(): an
importlib.resources import alone costs about 25 ms a call (docs/internals.md, "Imports").
"""
import os

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


class MissingResource(RuntimeError):
    """A file that ships inside the package is not there: a broken installation or a bug of the
    packaging, never an I/O problem to be skipped over (exit 70)."""


def _folder(inside, checkout):
    """A folder pyproject's `package-dir` maps into the wheel as judgment_toolkit/`inside`, else
    the checkout's top-level `checkout`."""
    installed = os.path.join(_PACKAGE, inside)
    if os.path.isdir(installed):
        return installed
    return os.path.join(os.path.dirname(os.path.dirname(_PACKAGE)), checkout)


def templates_dir():
    """The folder holding the packaged files: inside the installed package, else the checkout's."""
    return _folder("templates", "templates")


def script(name):
    """The path of the Bash entry point `name` (judgment-ledger.sh, judgment-card.sh): the
    package's copy once installed (judgment_toolkit/sh), else the checkout's scripts/."""
    return os.path.join(_folder("sh", "scripts"), name)


def path(*parts):
    return os.path.join(templates_dir(), *parts)


def text(what, *parts):
    """The UTF-8 text of templates/`parts`. MissingResource names `what` and the file when the
    installation lacks it."""
    name = "/".join(parts)
    try:
        with open(path(*parts), "rb") as f:
            return f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MissingResource(f"the packaged {what} {name} is missing or unreadable in "
                              f"judgment_toolkit's templates/ ({type(e).__name__}); the "
                              "installation is broken: reinstall judgment-toolkit") from None
