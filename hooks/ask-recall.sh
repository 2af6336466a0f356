#!/bin/sh
# PreToolUse on AskUserQuestion: recall this project's past judgments for each question being
# asked (hooks/ask_recall.py). Fail-open: exit 0 always; never denies or alters the call.
. "$(dirname "$0")/find-tool.sh"
tool=$(jt_find judgment-ledger judgment-ledger.sh) || exit 0
command -v python3 >/dev/null 2>&1 || exit 0
python3 "$(dirname "$0")/ask_recall.py" "$tool" 2>/dev/null || true
exit 0
