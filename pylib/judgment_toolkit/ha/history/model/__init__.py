"""decision-history/v1's facts in one name space, `model.X`, each defined once in the module of
its job: terms.py (tokens, limits, grammars, line bytes), checks.py (validation)."""
from judgment_toolkit.ha.history.model.terms import *  # noqa: F401,F403
from judgment_toolkit.ha.history.model.checks import *  # noqa: F401,F403
