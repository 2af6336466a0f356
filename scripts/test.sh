#!/usr/bin/env bash
# Sets up (idempotently) and runs every test: pytest for the Python layer,
# bats for the shell entry points as users call them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
bash scripts/setup.sh
status=0
.venv/bin/python -m pytest tests/python "$@" || status=$?
node_modules/bats/bin/bats -r tests/bats || status=$?
exit "$status"
