#!/usr/bin/env bash
# judgment-ledger.sh: the Judgment Ledger v1 (append | search | recall | prime | verify); the same command as
# the installed console script `judgment-ledger` (judgment_toolkit.judgment.cli.ledger_main).
#
# Bash only finds the interpreter: every rule, message, exit code and the fail-open mapping of
# append live in Python. The one case Python cannot handle, no interpreter, is answered here:
# append and prime stay fail-open (one `... skipped (...)` line, exit 0), the others exit 1.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/py.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/py.sh"  # through symlinks too

if [[ "${1:-}" == append || "${1:-}" == prime ]]; then  # the fail-open subcommands
  py="$(harness_python)"
  if ! command -v "$py" >/dev/null 2>&1; then
    if [[ "$1" == prime ]]; then
      printf 'judgment-ledger: prime: skipped (Python interpreter not found: %s)\n' "$py" >&2
    else
      printf 'judgment-ledger: append skipped (Python interpreter not found: %s; run bash scripts/setup.sh)\n' "$py" >&2
    fi
    exit 0
  fi
fi
harness_exec judgment-ledger 1 judgment_toolkit.judgment.cli ledger "$@"
