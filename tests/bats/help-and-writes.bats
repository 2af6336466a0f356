#!/usr/bin/env bats
# The help and the writes as a user meets them: --help everywhere (stdout, exit 0, before any goal lookup),
# usage errors 64 where no answer shares the code, --json on writes, idempotent --id.

load helpers
bats_require_minimum_version 1.5.0

setup() {
  cd "$BATS_TEST_TMPDIR" || return 1   # not a repository
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/ledger.jsonl" HOME="$BATS_TEST_TMPDIR"
}

@test "every command and subcommand answers --help and -h on stdout with exit 0" {
  for cmd in "$LEDGER" "$LEDGER append" "$LEDGER search" "$LEDGER recall" \
             "$CARD" "$CARD should-issue" "$CARD validate" "$CARD record-answer" "$CARD recall" \
             "$HA" "$HA capabilities" "$HA start" "$HA check" "$HA status" "$HA history" \
             "$HA history g add" "$HA history g" "$HA history g current" "$HA history g list" \
             "$HA history g show"; do
    for flag in --help -h; do
      run --separate-stderr $cmd "$flag"
      [ "$status" -eq 0 ] || { echo "$cmd $flag: $status $stderr"; return 1; }
      [ -z "$stderr" ]
      [[ "${lines[0]}" == "usage: "* ]]
      [[ "$output" == *"exit codes"* ]]
    done
  done
}

@test "should-issue: a usage error is 64, never NO_CARD's 1" {
  run --separate-stderr "$CARD" should-issue
  [ "$status" -eq 64 ]
  [ "$stderr" = "judgment-card: should-issue: reason: missing --reason" ]
  run "$CARD" should-issue --reason style
  [ "$status" -eq 1 ] && [ "$output" = "NO_CARD: reason not in enum" ]
}

@test "append --json prints the stored line; --id retries are idempotent" {
  run --separate-stderr "$LEDGER" append --project p --question q --answer a --card-ref c --id d-1 --json
  [ "$status" -eq 0 ] && [ -z "$stderr" ]
  [ "$output" = "$(cat "$HARNESS_JUDGMENT_LEDGER")" ]
  first="$output"
  run --separate-stderr "$LEDGER" append --project p --question q --answer a --card-ref c --id d-1 --json
  [ "$status" -eq 0 ] && [ "$output" = "$first" ]
  run --separate-stderr "$LEDGER" append --project p --question q --answer b --card-ref c --id d-1
  [ "$status" -eq 1 ] && [ -z "$output" ]
  [ "$stderr" = "judgment-ledger: append rejected (id: 'd-1' is already in the ledger with other content; nothing was written)" ]
  [ "$(grep -c . "$HARNESS_JUDGMENT_LEDGER")" -eq 1 ]
}

@test "record-answer --json: the ledger record and the harness-mem outcome" {
  printf '%s' '{"question":"Q?","options":[{"id":"x","label":"X","consequence":"c"},{"id":"y","label":"Y","consequence":"c"}],"recommendation":"x","confidence":"low","impact":"i","diff_summary":"d"}' >card.json
  run --separate-stderr "$CARD" record-answer card.json --answer y --why w --project p --session s --json
  [ "$status" -eq 0 ] && [ -z "$stderr" ]
  [ "$(json_eval 'd["harness_mem"]' <<<"$output")" = not_configured ]
  [ "$(json_eval 'd["ledger"]' <<<"$output")" = "$(cat "$HARNESS_JUDGMENT_LEDGER")" ]
}
