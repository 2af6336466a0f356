"""`show`'s fresh comparison of one evidence reference with the present (docs/history.md,
"Evidence observed at registration").

- file: the file is observed again now, with the write side's safe observation
  (evidence.observe_file: no symlink at the last component, nothing outside the repository,
  nothing waited on, bounded reads). `unchanged` / `changed` when it was identified then and
  is now; `unavailable` when it was identified then but cannot be now; `unidentified` when it
  had no version at registration (nothing to compare with).
- run: the registered line (its seq and the sha256 observed then) against the view's basis
  chain: `same` / `different` / `unverifiable`, the same judgment as lineage uses for
  run heads. Run evidence still never decides an event's lineage.
- commit: `as_registered` (the contract compares nothing: the registration observation holds).
- external: `not_checked` (Core never fetches).

`current`/`list` never call this; only `show` reads evidence files again.
"""
from __future__ import annotations

from judgment_toolkit.ha.history.register import evidence
from judgment_toolkit.ha.history.views.lineage import UNVERIFIABLE


class Comparer:
    def __init__(self, repo_top: str, basis):
        self._top = repo_top
        self._basis = basis

    def state(self, ref: dict, registered: dict) -> str:
        kind = ref.get("type") if isinstance(ref, dict) else None
        registered = registered if isinstance(registered, dict) else {}
        if kind == "file":
            then = registered.get("version")
            if registered.get("state") != "read" or not then:
                return "unidentified"
            now = evidence.observe_file(self._top, ref.get("path", ""))
            if now.get("state") != "read":
                return "unavailable"
            return "unchanged" if now.get("version") == then else "changed"
        if kind == "run":
            if registered.get("state") != "matched":
                return UNVERIFIABLE
            return self._basis.of({"seq": ref.get("seq"), "sha256": registered.get("version")})
        if kind == "commit":
            return "as_registered"
        return "not_checked"
