#!/usr/bin/env bash
# Sets up (idempotently) and runs every test: pytest for the Python layer, bats for the shell
# entry points as users call them; ends with one line counting both.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
bash scripts/setup.sh

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
py_status=0 bats_status=0
.venv/bin/python -m pytest tests/python "$@" 2>&1 | tee "$logs/pytest" || py_status=$?
tests/node/node_modules/bats/bin/bats --tap -r tests/bats 2>&1 | tee "$logs/bats" || bats_status=$?

# pytest's closing line ("N passed, M failed, K errors in ...") and bats' TAP lines.
count() { local n; n="$(grep -oE "[0-9]+ $1" "$logs/pytest" | tail -n 1 | cut -d' ' -f1)" || true; echo "${n:-0}"; }
tap() { grep -c "^$1 " "$logs/bats" || true; }
passed=$(( $(count passed) + $(tap ok) ))
failed=$(( $(count failed) + $(count error) + $(tap 'not ok') ))
if [[ "$py_status" -ne 0 || "$bats_status" -ne 0 ]] && [[ "$failed" -eq 0 ]]; then
  failed=1  # a runner failed without a countable test (collection error, crash)
fi
printf '\nall tests: %d passed, %d failed\n' "$passed" "$failed"
[[ "$py_status" -eq 0 && "$bats_status" -eq 0 ]]
