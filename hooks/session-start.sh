#!/bin/sh
# SessionStart: print the project's recent judgments so the session starts with them. Fail-open:
# whatever happens, exit 0, so a missing or broken install never shows a "hook error".
. "$(dirname "$0")/find-tool.sh"
dir=${CLAUDE_PROJECT_DIR:-$PWD}
project=${JUDGMENT_PROJECT:-$(basename "$dir")}
if ! tool=$(jt_find judgment-ledger judgment-ledger.sh); then
  printf '%s\n' "$JT_INSTALL_HINT"
  exit 0
fi
HARNESS_PROJECT_ROOT="$dir" "$tool" prime --project "$project" --limit 5 </dev/null || true
exit 0
