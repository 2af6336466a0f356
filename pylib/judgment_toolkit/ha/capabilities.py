"""`ha capabilities`: what this ha supports, decided without opening any repository."""
from __future__ import annotations

import importlib.util

from judgment_toolkit.jsonutil import compact

from . import HA_VERSION
from .runs import DEFAULT_RULES, SCHEMA, SUPPORTED_RULES

HISTORY_FORMAT = "decision-history/v1"


def history_available() -> bool:
    """True when the decision-history commands ship in this package (ha.history.cli exists)."""
    try:
        return importlib.util.find_spec(f"{__package__}.history.cli") is not None
    except (ImportError, ValueError):
        return False


def report() -> dict:
    formats = {"run_record": [SCHEMA], "status": ["ha-status/v1"]}
    features = []
    if history_available():
        formats["decision_history"] = [HISTORY_FORMAT]
        features.append(HISTORY_FORMAT)
    return {"schema": "ha-capabilities/v1", "ha_version": HA_VERSION,
            "supported_rules": list(SUPPORTED_RULES), "default_rules": DEFAULT_RULES,
            "formats": {k: formats[k] for k in sorted(formats)}, "features": features}


def render() -> str:
    return compact(report()) + "\n"
