#!/usr/bin/env bats
# Hostile and careless input to the ledger's and the card's entry points, as a user calls them:
# stored text that tries to drive the terminal, JSON that repeats a key, ids shared by two
# projects (Judgment Ledger v1, section 'Project Scope'), a record the ledger refuses.

bats_require_minimum_version 1.5.0
load helpers

setup() {
  export HOME="$BATS_TEST_TMPDIR/home"
  mkdir -p "$HOME"
  unset HARNESS_PROJECT_ROOT HARNESS_PYTHON HARNESS_JUDGMENT_RANK HARNESS_MEM_HOME HARNESS_MEM_HOST \
    HARNESS_MEM_PORT HARNESS_MEM_ADMIN_TOKEN HARNESS_MEM_PLATFORM
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/state/ledger.jsonl"
  ESC=$'\x1b'
}

# no_controls TEXT: fails (naming the byte) when TEXT holds a C0 control other than LF, DEL,
# or the C1 control CSI (U+009B, bytes C2 9B: a one-character ESC [ on some terminals).
no_controls() {
  local LC_ALL=C
  if [[ "$1" =~ [$'\x01'-$'\x09'$'\x0b'-$'\x1f'$'\x7f'] || "$1" == *$'\xc2\x9b'* ]]; then
    printf 'control character in output: %q\n' "$1" >&2
    return 1
  fi
}

hostile_record() {
  "$LEDGER" append --project p --question $'q\x1b]0;title\x07?' --answer $'a\r\x1b[31mred' \
    --rationale $'first line\nsecond\x1b[0m line' --card-ref $'c\xc2\x9b31m.json' --tags $'t\x1b[1m' --id i1
}

@test "show, list and prime print stored control characters escaped, as the history views do" {
  hostile_record
  run --separate-stderr "$LEDGER" show --project p i1
  [ "$status" -eq 0 ]
  no_controls "$output"
  [[ "$output" == *'answer: "a\r\u001b[31mred"'* ]]
  [[ "$output" == *'question: "q\u001b]0;title\u0007?"'* ]]
  [[ "$output" == *$'rationale: first line\n  "second\\u001b[0m line"'* ]]
  [[ "$output" == *'card_ref: "c\u009b31m.json"'* ]]
  run --separate-stderr "$LEDGER" list --project p
  [ "$status" -eq 0 ]
  no_controls "$output"
  [[ "$output" == *'"a \u001b[31mred"'* ]]
  run --separate-stderr "$LEDGER" prime --project p
  [ "$status" -eq 0 ]
  no_controls "$output"
  [[ "$output" == *'**"a \u001b[31mred"**'* ]]
}

@test "show --json, list --json and prime --json keep the exact stored values" {
  hostile_record
  run --separate-stderr "$LEDGER" show --project p i1 --json
  [ "$(json_eval 'd["answer"] == "a\r\x1b[31mred"' <<<"$output")" = true ]
  run --separate-stderr "$LEDGER" list --project p --json
  [ "$(json_eval 'd["decisions"][0]["answer"] == "a\r\x1b[31mred"' <<<"$output")" = true ]
  run --separate-stderr "$LEDGER" prime --project p --json
  [ "$(json_eval 'd["decisions"][0]["answer"] == "a\r\x1b[31mred"' <<<"$output")" = true ]
}

@test "card render: a card's control characters reach the terminal escaped" {
  "$JSON_PY" - "$ROOT/tests/fixtures/cards/queue.json" "$BATS_TEST_TMPDIR/card.json" <<'PY'
import json, sys
card = json.load(open(sys.argv[1]))
card["question"] = "Queue?\x1b[2J"
card["impact"] = "line one\nline \x1b[31mtwo"
card["options"][0]["label"] = "Redis\x1b]0;x\x07"
json.dump(card, open(sys.argv[2], "w"))
PY
  run --separate-stderr "$CARD" render "$BATS_TEST_TMPDIR/card.json"
  [ "$status" -eq 0 ]
  no_controls "$output"
  [[ "$output" == *'# Decision: "Queue?\u001b[2J"'* ]]
  [[ "$output" == *$'line one\n"line \\u001b[31mtwo"'* ]]
}

@test "append --input - refuses a repeated key, names it, exit 1, writes nothing" {
  run --separate-stderr "$LEDGER" append --input - <<<'{"project":"p","project":"q","question":"q?","answer":"a","card_ref":"c"}'
  [ "$status" -eq 1 ]
  [ "$stderr" = "judgment-ledger: append rejected (--input: the key 'project' is given twice; give each field once)" ]
  [ ! -s "$HARNESS_JUDGMENT_LEDGER" ]
  run --separate-stderr "$LEDGER" append --input - <<<'{"project":"p","question":"q?","answer":"a","card_ref":"c","tags":NaN}'
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"NaN is not JSON"* ]]
  [ ! -s "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "an id stored by one project is neither revealed to nor blocks another (Project Scope)" {
  "$LEDGER" append --project secret --question 'Hidden?' --answer yes --card-ref s.json --id shared-id
  run --separate-stderr "$LEDGER" append --project other --question 'Mine?' --answer no \
    --card-ref o.json --id shared-id --json
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(json_eval 'd["project"], d["answer"]' <<<"$output")" = '["other","no"]' ]
  # idempotent within each project: the same retry writes nothing, other content is refused
  run --separate-stderr "$LEDGER" append --project other --question 'Mine?' --answer no \
    --card-ref o.json --id shared-id
  [ "$status" -eq 0 ]
  run --separate-stderr "$LEDGER" append --project other --question 'Mine?' --answer yes \
    --card-ref o.json --id shared-id
  [ "$status" -eq 1 ]
  [ "$(wc -l <"$HARNESS_JUDGMENT_LEDGER")" -eq 2 ]
  run --separate-stderr "$LEDGER" show shared-id --project secret
  [[ "$output" == *"question: Hidden?"* ]]
  run --separate-stderr "$LEDGER" show shared-id --project other
  [[ "$output" == *"question: Mine?"* ]]
  run --separate-stderr "$LEDGER" verify
  [ "$status" -eq 0 ]
  [ "$output" = "ok: 2 records in $HARNESS_JUDGMENT_LEDGER" ]
}

# big_card: the fixture card with a question of 5 MB (valid for the card's schema, over the
# ledger's record cap), at $BATS_TEST_TMPDIR/big.json.
big_card() {
  "$JSON_PY" - "$ROOT/tests/fixtures/cards/queue.json" "$BATS_TEST_TMPDIR/big.json" <<'PY'
import json, sys
card = json.load(open(sys.argv[1]))
card["question"] = "Q" * (5 * 1024 * 1024)
json.dump(card, open(sys.argv[2], "w"))
PY
}

@test "record-answer: a record the ledger rejects is exit 1 with its append rejected line (Fail-Open)" {
  big_card
  run --separate-stderr "$CARD" record-answer "$BATS_TEST_TMPDIR/big.json" --answer postgres \
    --why w --project p --session s --json
  [ "$status" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: append rejected (record: "*"over the record cap of 4 MiB"* ]]
  [ "$output" = '{"ledger":null,"harness_mem":"not_configured"}' ]
  [ ! -s "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "record-answer: with no interpreter, or one that crashes in the append step, it is skipped, exit 0" {
  big_card
  HARNESS_PYTHON="$BATS_TEST_TMPDIR/no-such-python" run --separate-stderr "$CARD" record-answer \
    "$BATS_TEST_TMPDIR/big.json" --answer postgres --why w --project p --session s
  [ "$status" -eq 0 ]
  [[ "$stderr" == "judgment-card: record skipped ("* ]]
  # the card step runs for real; the append step's interpreter crashes: skipped, not rejected
  real="$JSON_PY"
  printf '#!/bin/sh
case "$3" in append) echo "RuntimeError: boom" >&2; exit 1 ;; esac
exec "%s" "$@"\n' \
    "$real" >"$BATS_TEST_TMPDIR/crash"
  chmod +x "$BATS_TEST_TMPDIR/crash"
  HARNESS_PYTHON="$BATS_TEST_TMPDIR/crash" run --separate-stderr "$CARD" record-answer \
    "$BATS_TEST_TMPDIR/big.json" --answer postgres --why w --project p --session s
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-ledger: append skipped (Python exited 1: RuntimeError: boom)" ]
  [ ! -s "$HARNESS_JUDGMENT_LEDGER" ]
}
