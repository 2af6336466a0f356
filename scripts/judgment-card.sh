#!/usr/bin/env bash
# judgment-card.sh: judgment-card.v1 decision cards (should-issue | validate | record-answer |
# recall | render); the same command as the installed console script `judgment-card`
# (judgment_toolkit.judgment.cli.card_main). record-answer appends to the ledger in-process.
#
# Bash only finds the interpreter; every rule, message and exit code lives in Python.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/py.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/py.sh"  # through symlinks too

harness_exec judgment-card 1 judgment_toolkit.judgment.cli card "$@"
