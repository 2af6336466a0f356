"""judgment-toolkit: a memory of judgments for AI coding agents.

Subpackages: `judgment` (Judgment Ledger v1 and judgment-card.v1 decision cards) and `ha`
(the ha core and decision-history/v1). Package data (JSON Schemas, the card template, the
lexicon) is the top-level `templates/` folder, found through `judgment_toolkit.packaged`.
"""

_DISTRIBUTION = "judgment-toolkit"


def version() -> str:
    """The toolkit's version, the one answer of every command's `--version`.

    Installed (wheel, pipx, editable), it is the distribution's metadata. A plain checkout on
    PYTHONPATH has no metadata, so it is read from the checkout's pyproject.toml (the one place
    the version is written). importlib.metadata is imported here only, so commands that never
    print a version do not pay for it.
    """
    from importlib import metadata
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    import os
    import re
    pyproject = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "pyproject.toml")
    try:
        with open(pyproject, encoding="utf-8") as f:
            m = re.search(r'(?m)^version\s*=\s*"([^"]+)"', f.read())
    except OSError:
        m = None
    return m.group(1) if m else "unknown (no package metadata and no pyproject.toml)"
