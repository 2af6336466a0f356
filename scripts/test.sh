#!/usr/bin/env bash
# Sets up (idempotently) and runs the tests: pytest for the Python layer, bats for the shell
# entry points as users call them, each on every core (pytest-xdist, bats --jobs with GNU
# parallel); ends with one line counting both. docs/internals.md, "Tests: how they run".
#
#   bash scripts/test.sh               every test (what CI runs)
#   bash scripts/test.sh --quick       the loop before each commit: the tests not marked slow
#                                      or e2e, and the bats files of QUICK_BATS
#   bash scripts/test.sh --durations   every test, then where the time went: the slowest
#                                      tests, the costs per file and per kind (process starts,
#                                      sleeps, timeouts, fixture set-up), the bats timings; and
#                                      rewrites tests/python/slow_tests.txt from this run
# Any other argument goes to pytest (e.g. -k NAME, -x); TEST_JOBS=N sets the number of workers.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"

# One bats file per entry point's command line for --quick (the rest of bats is in the full run).
readonly QUICK_BATS=(tests/bats/entry-points.bats)

quick=0 durations=0 pytest_args=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --durations) durations=1 ;;
    *) pytest_args+=("$arg") ;;
  esac
done
if [[ "$quick" -eq 1 && "$durations" -eq 1 ]]; then
  printf 'usage: bash scripts/test.sh [--quick | --durations] [pytest arguments]\n' >&2
  exit 64
fi

bash scripts/setup.sh

jobs="${TEST_JOBS:-$(nproc)}"
# worksteal: an idle worker takes half of another's queue, so no worker ends with a backlog
# while the other waits (with the default hand-out one worker ran two minutes alone).
pytest_cmd=(.venv/bin/python -m pytest tests/python -n "$jobs" --dist worksteal)
# Files in parallel, the tests of one file in turn: splitting a file's tests over GNU parallel
# cost more than it saved (the whole of tests/bats: 48 s so, 76 s with them split, 61 s with
# one job, on the same machine in a row).
bats_cmd=(tests/node/node_modules/bats/bin/bats --tap --jobs "$jobs"
          --no-parallelize-within-files)
if [[ "$quick" -eq 1 ]]; then
  pytest_cmd+=(-m "not slow and not e2e")
  bats_cmd+=("${QUICK_BATS[@]}")
else
  bats_cmd+=(-r tests/bats)
fi
if [[ "$durations" -eq 1 ]]; then
  pytest_cmd+=(--durations=25 --costs --costs-slow-list tests/python/slow_tests.txt)
  bats_cmd+=(--timing)
fi

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
py_status=0 bats_status=0
start=$SECONDS
"${pytest_cmd[@]}" ${pytest_args[@]+"${pytest_args[@]}"} 2>&1 | tee "$logs/pytest" || py_status=$?
py_seconds=$((SECONDS - start))
"${bats_cmd[@]}" 2>&1 | tee "$logs/bats" || bats_status=$?
bats_seconds=$((SECONDS - start - py_seconds))

if [[ "$durations" -eq 1 ]]; then
  printf '\n== bats: slowest tests (ms) ==\n'
  grep -E '^(not )?ok .* in [0-9]+ms' "$logs/bats" | sed -E 's/^(not )?ok [0-9]+ (.*) in ([0-9]+)ms.*/\3 \2/' \
    | sort -rn | head -n 15 || true
  printf '\nwall: pytest %ds, bats %ds\n' "$py_seconds" "$bats_seconds"
fi

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
