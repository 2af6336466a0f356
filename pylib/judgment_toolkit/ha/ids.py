"""The grammar of goal target ids, in one place (docs/ha-core.md, "Goal folders and ids").

- `AC-n`: an acceptance criterion (SPEC.md); `EX-n`: an extra check (PLAN.md `## 조건표`).
  `n` is a whole number from 1, in ASCII digits, without leading zeros (`AC-1`, `EX-12`;
  not `AC-0`, `AC-01`), so that one criterion has one spelling everywhere.
- `T001`: a task (PLAN.md `## Task`): `T` and at least three ASCII digits (`^T\\d{3,}$` with
  ASCII digits only: `\\d` would also take other scripts' digits).

The core (SPEC, PLAN, `ha check`) and the decision history (`--target`, `targets`, view
filters) all take their ids from here. `\\Z`, not `$`, so a final LF is not part of an id.
"""
from __future__ import annotations

import re

_N = r"[1-9][0-9]*"

CRITERION = re.compile(rf"AC-{_N}\Z")
CONDITION = re.compile(rf"(?:AC|EX)-{_N}\Z")       # a ## 조건표 row: AC-n or EX-n
TASK = re.compile(r"T[0-9]{3,}\Z")
TARGET = re.compile(rf"(?:(?:AC|EX)-{_N}|T[0-9]{{3,}})\Z")

# What looks like an id in running text (a SPEC list item's first word), checked against the
# grammar above afterwards so that `AC-01` gets "not an id" rather than being skipped.
CRITERION_LIKE = r"AC-[0-9]+"

GRAMMAR = "AC-n, EX-n (n = 1, 2, ... without leading zeros) or T001 (T and 3+ digits)"


def is_target(text) -> bool:
    return isinstance(text, str) and TARGET.match(text) is not None
