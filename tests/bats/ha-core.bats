#!/usr/bin/env bats
# The ha core as users call it: scripts/ha in real repositories.

load helpers

setup() {
  make_repo
  make_goal
}

@test "capabilities prints one compact JSON line outside any repository" {
  cd "$BATS_TEST_TMPDIR"
  run "$HA" capabilities
  [ "$status" -eq 0 ]
  [[ "$output" == '{"schema":"ha-capabilities/v1","ha_version":"0.1.5","supported_rules":["run-rules/1","run-rules/2","run-rules/3","run-rules/4"],"default_rules":"run-rules/3","formats":{'* ]]
}

@test "start writes the start line and prints the exact success line" {
  head="$(git rev-parse HEAD)"
  run "$HA" start "$GOAL" --request "빈 입력을 고쳐 줘"
  [ "$status" -eq 0 ]
  [ "$output" = "started: seq 1, base ${head:0:12}, rules run-rules/3" ]
  [ "$(wc -l <"$GOAL/runs.jsonl")" -eq 1 ]
  grep -q '"quote":"빈 입력을 고쳐 줘"' "$GOAL/runs.jsonl"
  grep -q "\"base_commit\":\"$head\"" "$GOAL/runs.jsonl"
}

@test "start twice is refused with 65 and changes nothing" {
  "$HA" start "$GOAL" --request q
  before="$(cat "$GOAL/runs.jsonl")"
  run "$HA" start "$GOAL" --request again
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: already started: "* ]]
  [ "$(cat "$GOAL/runs.jsonl")" = "$before" ]
}

@test "start without --request is a usage error (64)" {
  run "$HA" start "$GOAL"
  [ "$status" -eq 64 ]
  [[ "$output" == "ha: start: --request QUOTE is required"* ]]
}

@test "start with unknown rules exits 66" {
  run "$HA" start "$GOAL" --request q --rules run-rules/8
  [ "$status" -eq 66 ]
}

@test "check before start is refused (65)" {
  run "$HA" check "$GOAL"
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: not started:"* ]]
}

@test "check runs the declared rows: pass, fail, exit 1, logs in the git dir" {
  "$HA" start "$GOAL" --request q
  run "$HA" check "$GOAL"
  [ "$status" -eq 1 ]
  [ "${lines[0]}" = "AC-1 check pass (seq 2)" ]
  [ "${lines[1]}" = "AC-2 check fail (seq 3, exit 1, log .git/ha/runs/docs%2Fspecs%2Fempty-input/3.log)" ]
  [ -f ".git/ha/runs/docs%2Fspecs%2Fempty-input/2.log" ]
  run "$HA" check "$GOAL" AC-1
  [ "$status" -eq 0 ]
  [ "$output" = "AC-1 check pass (seq 4)" ]
}

@test "check of a manual row says it is not runnable" {
  "$HA" start "$GOAL" --request q
  run "$HA" check "$GOAL" EX-1
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: EX-1: a manual row"*"cannot run it" ]]
}

@test "status md shows head, rules, digest and ids" {
  "$HA" start "$GOAL" --request q
  "$HA" check "$GOAL" AC-1
  run "$HA" status "$GOAL"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "# ha status: docs/specs/empty-input" ]
  [[ "$output" == *"- rules: run-rules/3"* ]]
  [[ "$output" == *"- record head: seq 2 ("* ]]
  [[ "$output" == *"- criteria: AC-1, AC-2 (선택)"* ]]
  [[ "$output" == *"- chain: intact (2 verified lines)"* ]]
}

@test "status json is one line and deterministic" {
  "$HA" start "$GOAL" --request q
  a="$("$HA" status "$GOAL" --format json)"
  b="$("$HA" status "$GOAL" --format json)"
  [ "$a" = "$b" ]
  [[ "$a" == '{"schema":"ha-status/v1","goal":"docs/specs/empty-input","started":true,'* ]]
}

@test "a broken chain refuses appends (65) and status reports it" {
  "$HA" start "$GOAL" --request q
  printf '{"not":"a run line"}\n' >>"$GOAL/runs.jsonl"
  run "$HA" check "$GOAL" AC-1
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: record_integrity: docs/specs/empty-input/runs.jsonl:2: unknown schema null"* ]]
  run "$HA" status "$GOAL"
  [ "$status" -eq 0 ]
  [[ "$output" == *"- chain: broken: docs/specs/empty-input/runs.jsonl:2: "* ]]
}

@test "goal argument errors exit 64" {
  run "$HA" status .
  [ "$status" -eq 64 ]
  [ "$output" = "ha: goal '.': the repository root cannot be a goal" ]
  run "$HA" status missing/goal
  [ "$status" -eq 64 ]
  cd "$BATS_TEST_TMPDIR"
  run "$HA" status x
  [ "$status" -eq 64 ]
  [ "$output" = "ha: not inside a git repository" ]
}

@test "a linked worktree uses its own git dir for lock and logs" {
  git worktree add -q -b side "$BATS_TEST_TMPDIR/wt"
  cd "$BATS_TEST_TMPDIR/wt"
  run "$HA" start "$GOAL" --request q
  [ "$status" -eq 0 ]
  run "$HA" check "$GOAL" AC-1
  [ "$status" -eq 0 ]
  [ -f "$REPO/.git/worktrees/wt/ha/lock" ]
  [ -f "$REPO/.git/worktrees/wt/ha/runs/docs%2Fspecs%2Fempty-input/2.log" ]
  [ ! -e "$REPO/$GOAL/runs.jsonl" ]
}

@test "parallel checks leave one intact chain" {
  "$HA" start "$GOAL" --request q
  for _ in 1 2 3 4 5 6; do "$HA" check "$GOAL" AC-1 >/dev/null & done
  wait
  [ "$(wc -l <"$GOAL/runs.jsonl")" -eq 7 ]
  run "$HA" status "$GOAL"
  [[ "$output" == *"- chain: intact (7 verified lines)"* ]]
}

@test "unknown command and no command are usage errors (64)" {
  run "$HA" nope
  [ "$status" -eq 64 ]
  run "$HA"
  [ "$status" -eq 64 ]
}
