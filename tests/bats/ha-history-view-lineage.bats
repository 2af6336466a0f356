#!/usr/bin/env bats
# Lineage as users meet it: linked worktrees that share or diverge from the run record.

load helpers

setup() {
  start_goal "빈 입력을 고쳐 줘"
  WT="$BATS_TEST_TMPDIR/wt"
  git worktree add -q -b side "$WT"
}

@test "a worktree that shares the start and head is the same lineage; its correction applies" {
  "$HA" history "$GOAL" add --kind 원인 --summary "main의 가설" --target AC-1 >/dev/null
  (cd "$WT" && "$HA" history "$GOAL" add --kind 원인 --status 기각 --summary "worktree의 기각" \
     --target AC-1 --supersedes D1 >/dev/null)
  run "$HA" history "$GOAL" current
  [ "$status" -eq 0 ]
  [[ "$output" == *$'\n- D2 · 원인 [기각] · AC-1 · worktree의 기각\n'* ]]
  [[ "$output" != *"- D1 "* ]]
  [[ "$output" != *"other lineage"* ]]
}

@test "a diverged worktree's events are another lineage, counted apart, corrections not applied" {
  "$HA" history "$GOAL" add --kind 원인 --summary "갈라지기 전" --target AC-1 >/dev/null
  "$HA" check "$GOAL" AC-1 >/dev/null
  (cd "$WT" && { "$HA" check "$GOAL" AC-2 >/dev/null || true; } \
     && "$HA" history "$GOAL" add --kind 원인 --summary "다른 계보의 정정" --supersedes D1 >/dev/null)
  run "$HA" history "$GOAL" current
  [ "$status" -eq 0 ]
  [[ "$output" == *"- D1 · 원인 · AC-1 · 갈라지기 전 (corrected in another lineage by D2)"* ]]
  [[ "$output" == *"other lineage: 1 (different 1, unverifiable 0): D2 different"* ]]
  [[ "$output" == *"- D2 (different) corrects D1"* ]]
  run "$HA" history "$GOAL" list
  [[ "$output" == *"- D2 · 원인 · 다른 계보의 정정 (lineage different, corrects D1)"* ]]
}

@test "a since cursor from before the record diverged is stale" {
  "$HA" history "$GOAL" add --kind 관측 --summary "하나" >/dev/null
  cursor="$("$HA" history "$GOAL" current | sed -n 's/^cursor: //p')"
  head -n 1 "$GOAL/runs.jsonl" >"$BATS_TEST_TMPDIR/start" && cp "$BATS_TEST_TMPDIR/start" "$GOAL/runs.jsonl"
  "$HA" check "$GOAL" AC-2 >/dev/null || true
  run "$HA" history "$GOAL" current --since "$cursor"
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: cursor_stale: "* ]]
}
