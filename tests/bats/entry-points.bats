#!/usr/bin/env bats
# The entry points as users install them: called through a symlink on PATH.

load helpers

@test "every entry point works through a symlink in another folder" {
  bin="$BATS_TEST_TMPDIR/bin"
  mkdir -p "$bin"
  ln -s "$HA" "$bin/ha"
  ln -s "$LEDGER" "$bin/judgment-ledger"
  ln -s "$CARD" "$bin/judgment-card"
  run "$bin/ha" capabilities
  [ "$status" -eq 0 ]
  [[ "$output" == '{"schema":"ha-capabilities/v1",'* ]]
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/ledger.jsonl"
  run "$bin/judgment-ledger" append --project p --question q --answer a --card-ref c
  [ "$status" -eq 0 ]
  run "$bin/judgment-ledger" search --project p --query q
  [ "$status" -eq 0 ]
  [[ "$output" == *'"question":"q"'* ]]
  run "$bin/judgment-card" should-issue --reason tradeoff
  [ "$status" -eq 0 ]
  [ "$output" = "ISSUE_CARD" ]
}
