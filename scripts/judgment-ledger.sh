#!/usr/bin/env bash
# judgment-ledger.sh: the Judgment Ledger v1 (append | search | recall); the same command as
# the installed console script `judgment-ledger` (judgment_toolkit.judgment.cli.ledger_main).
#
# Bash only finds the interpreter: every rule, message, exit code and the fail-open mapping of
# append live in Python. The one case Python cannot handle, no interpreter, is answered here:
# append stays fail-open (one `append skipped (...)` line, exit 0), the others exit 1.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/py.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/py.sh"  # through symlinks too

if [[ "${1:-}" == append ]]; then
  py="$(harness_python)"
  if ! command -v "$py" >/dev/null 2>&1; then
    printf 'judgment-ledger: append skipped (Python interpreter not found: %s; run bash scripts/setup.sh)\n' "$py" >&2
    exit 0
  fi
fi
harness_exec judgment-ledger 1 judgment_toolkit.judgment.cli ledger "$@"
