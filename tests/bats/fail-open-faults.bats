#!/usr/bin/env bats
# Judgment Ledger v1, section 'Fail-Open', under real interpreter faults: record-answer's two
# steps (the card-answer job, then `judgment-ledger.sh append --input -`) each meet an
# interpreter that crashes, one killed by a signal, and none at all. The step that fails says
# one `... skipped (reason)` line, exit 0, and nothing half-written is left in the ledger.

bats_require_minimum_version 1.5.0
load helpers

setup() {
  export HOME="$BATS_TEST_TMPDIR/home"
  mkdir -p "$HOME"
  unset HARNESS_PROJECT_ROOT HARNESS_PYTHON HARNESS_JUDGMENT_RANK HARNESS_MEM_HOME HARNESS_MEM_HOST \
    HARNESS_MEM_PORT HARNESS_MEM_ADMIN_TOKEN HARNESS_MEM_PLATFORM
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/ledger.jsonl"
  CARD_FILE="$ROOT/tests/fixtures/cards/queue.json"
  REAL_PY="$ROOT/.venv/bin/python"
  [[ -x "$REAL_PY" ]] || REAL_PY="$(command -v python3)"
}

# fault_python NAME JOB FAULT: an interpreter that behaves as the real one, except that the
# given job (`-m judgment_toolkit.judgment.jobs JOB ...`) meets FAULT: crash (a traceback and
# exit 1) or kill (SIGKILL to itself). JOB "*" faults every job.
fault_python() {
  local path="$BATS_TEST_TMPDIR/$1" fault
  case "$3" in
    crash) fault='echo "Traceback (most recent call last):" >&2; echo "RuntimeError: boom" >&2; exit 1' ;;
    kill) fault='kill -KILL $$' ;;
  esac
  printf '#!/bin/sh\ncase "$3" in %s) %s ;; esac\nexec "%s" "$@"\n' "$2" "$fault" "$REAL_PY" >"$path"
  chmod +x "$path"
  printf '%s\n' "$path"
}

record() {
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer postgres --why "fewer services" \
    --project demo --session s1 "$@"
}

@test "record-answer: the append step's interpreter crashes: one append skipped line, exit 0, no ledger" {
  HARNESS_PYTHON="$(fault_python crash-append append crash)" record
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-ledger: append skipped (Python exited 1: RuntimeError: boom)" ]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "record-answer: the append step's interpreter is killed: one append skipped line, exit 0" {
  HARNESS_PYTHON="$(fault_python kill-append append kill)" record --json
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-ledger: append skipped (killed by signal KILL)" ]
  [ "$output" = '{"ledger":null,"harness_mem":"not_configured"}' ]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "record-answer: the card step's interpreter crashes or is killed: one record skipped line, exit 0" {
  HARNESS_PYTHON="$(fault_python crash-all '*' crash)" record
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-card: record skipped (Python exited 1: RuntimeError: boom)" ]
  HARNESS_PYTHON="$(fault_python kill-card card-answer kill)" record
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-card: record skipped (killed by signal KILL)" ]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "record-answer with no interpreter at all: one record skipped line, exit 0" {
  HARNESS_PYTHON="$BATS_TEST_TMPDIR/no-such-python" record
  [ "$status" -eq 0 ]
  [[ "$stderr" == "judgment-card: record skipped (Python interpreter not found: $BATS_TEST_TMPDIR/no-such-python; "* ]]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "record-answer with a healthy interpreter behind the same wrapper records once (the wrapper is faithful)" {
  HARNESS_PYTHON="$(fault_python crash-none no-such-job crash)" record
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(wc -l <"$HARNESS_JUDGMENT_LEDGER")" -eq 1 ]
}

@test "record-answer with an interpreter that lacks the dependencies: one record skipped line, exit 0" {
  python3 -m venv --without-pip "$BATS_TEST_TMPDIR/bare"
  HARNESS_PYTHON="$BATS_TEST_TMPDIR/bare/bin/python" record
  [ "$status" -eq 0 ]
  [[ "$stderr" == "judgment-card: record skipped (missing Python dependencies: jsonschema, python-ulid in $BATS_TEST_TMPDIR/bare/bin/python; run bash scripts/setup.sh"* ]]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}
