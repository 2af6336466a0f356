#!/bin/sh
# PostToolUse on AskUserQuestion: append each answered question to the ledger (hooks/capture.py).
# Opt-in: does nothing unless JUDGMENT_CAPTURE=1 (docs/claude-kit.md, "Capture"). Fail-open:
# exit 0 always.
[ "${JUDGMENT_CAPTURE:-}" = 1 ] || exit 0
. "$(dirname "$0")/find-tool.sh"
tool=$(jt_find judgment-ledger judgment-ledger.sh) || exit 0
command -v python3 >/dev/null 2>&1 || exit 0
python3 "$(dirname "$0")/capture.py" "$tool" 2>/dev/null || true
exit 0
