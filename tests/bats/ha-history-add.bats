#!/usr/bin/env bats
# `ha history <goal> add` as users call it: the example of decision-history/v1 section 11,
# receipts, replays, refusals, worktrees sharing one history, and the exact error lines.

load helpers
bats_require_minimum_version 1.5.0

setup() {
  start_goal "빈 입력 처리"
  STORE="$(git rev-parse --path-format=absolute --git-common-dir)/ha/history/$(head -n1 "$GOAL/runs.jsonl" | tr -d '\n' | sha256sum | cut -d' ' -f1)"
}

field() { # field <json> <key>
  "$ROOT/.venv/bin/python" -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"
}

@test "the four registrations of the example of decision-history/v1 section 11 give D1..D4 receipts" {
  run "$HA" history "$GOAL" add --kind 원인 --status 가설 --summary "첫 항목이 항상 있다고 가정했다" --target AC-1 --ref run:2 --request-id cause-1
  [ "$status" -eq 0 ]
  sha="$(head -n1 "$STORE/events.jsonl" | tr -d '\n' | sha256sum | cut -d' ' -f1)"
  [ "$output" = "{\"schema\":\"decision-receipt/v1\",\"id\":\"D1\",\"request_id\":\"cause-1\",\"seq\":1,\"sha256\":\"$sha\",\"replayed\":false}" ]
  run "$HA" history "$GOAL" add --kind 관측 --summary "빈 파일에서 오류가 재현된다" --target AC-1 --checked-ref file:src/count.go
  [ "$status" -eq 0 ]
  [ "$(field "$output" id)" = D2 ]
  [[ "$(field "$output" request_id)" == auto-* ]]
  run "$HA" history "$GOAL" add --kind 결정 --summary "빈 입력이면 0을 반환한다" --target T001 --builds-on D1 --builds-on D2
  [ "$(field "$output" id)" = D3 ]
  run "$HA" history "$GOAL" add --kind 원인 --status 기각 --summary "첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다" --target AC-1 --supersedes D1
  [ "$(field "$output" id)" = D4 ]
  [ "$(wc -l <"$STORE/events.jsonl")" -eq 4 ]
  [ "$(ls "$STORE")" = "$(printf 'events.jsonl\nindex\nindex.slots\nindex.state\nlast\nlock')" ]
}

@test "resending the same request replays the original receipt and writes nothing" {
  first="$("$HA" history "$GOAL" add --kind 관측 --summary s --request-id obs-1)"
  before="$(sha256sum "$STORE/events.jsonl" "$STORE/last")"
  run "$HA" history "$GOAL" add --kind 관측 --summary s --request-id obs-1
  [ "$status" -eq 0 ]
  [ "$output" = "${first/\"replayed\":false/\"replayed\":true}" ]
  [ "$(sha256sum "$STORE/events.jsonl" "$STORE/last")" = "$before" ]
  run "$HA" history "$GOAL" add --kind 관측 --summary other --request-id obs-1
  [ "$status" -eq 65 ]
  [ "$output" = "ha: request_conflict: request id 'obs-1' already names D1 with a different decision" ]
}

@test "--input from stdin takes the section 3 document" {
  run "$HA" history "$GOAL" add --input - <<'JSON'
{"request_id": "decide-1", "decision": {"kind": "결정", "summary": "빈 입력이면 0을 반환한다",
 "targets": ["T001"],
 "evidence": [{"type": "external", "ref": "https://example.invalid/review/1", "version": "rev-2", "checked": true}]}}
JSON
  [ "$status" -eq 0 ]
  [ "$(field "$output" request_id)" = decide-1 ]
  grep -q '"version":"rev-2"' "$STORE/events.jsonl"
}

@test "a linked worktree adds to the same history" {
  "$HA" history "$GOAL" add --kind 관측 --summary main >/dev/null
  git worktree add -q -b side "$BATS_TEST_TMPDIR/wt"
  cd "$BATS_TEST_TMPDIR/wt"
  run "$HA" history "$GOAL" add --kind 관측 --summary linked
  [ "$status" -eq 0 ]
  [ "$(field "$output" id)" = D2 ]
  [ "$(wc -l <"$STORE/events.jsonl")" -eq 2 ]
}

@test "exact error lines and exit codes" {
  run "$HA" history "$GOAL" add --kind 관측 --summary x --summary y
  [ "$status" -eq 64 ]
  [ "$output" = "ha: invalid_input: add: --summary given twice" ]
  run "$HA" history "$GOAL" add --kind 결정 --status 반영 --summary x
  [ "$status" -eq 64 ]
  [ "$output" = "ha: invalid_input: kind 결정 takes no status (got '반영')" ]
  run "$HA" history "$GOAL" add --kind 관측 --summary x --target AC-99
  [ "$status" -eq 65 ]
  [ "$output" = "ha: invalid_reference: target AC-99 is not in the documents or PLAN of docs/specs/empty-input" ]
  run "$HA" history "$GOAL" add --kind 관측 --summary x --ref run:9
  [ "$status" -eq 65 ]
  [ "$output" = "ha: invalid_reference: run:9: the run record of docs/specs/empty-input has no line 9" ]
  run "$HA" history "$GOAL" add --kind 관측 --summary x --builds-on D1
  [ "$status" -eq 65 ]
  [ "$output" = "ha: invalid_relation: D1 is this event itself; relations may only name earlier stored events (stored: none)" ]
  "$HA" history "$GOAL" add --kind 관측 --summary x >/dev/null
  "$HA" history "$GOAL" add --kind 관측 --summary y --supersedes D1 >/dev/null
  run "$HA" history "$GOAL" add --kind 관측 --summary z --supersedes D1
  [ "$status" -eq 65 ]
  [ "$output" = "ha: correction_conflict: D1 was last corrected by D2; read D2 and use --supersedes D1@D2" ]
}

@test "a goal that was never started is refused and stays unstarted" {
  mkdir -p docs/specs/other && cp "$GOAL/SPEC.md" docs/specs/other/
  run "$HA" history docs/specs/other add --kind 관측 --summary x
  [ "$status" -eq 65 ]
  [ "$output" = "ha: not_started: docs/specs/other has no valid start record (run \`ha start docs/specs/other\` first)" ]
  [ ! -e docs/specs/other/runs.jsonl ]
}

@test "a symlinked events file is history_unreadable" {
  "$HA" history "$GOAL" add --kind 관측 --summary x >/dev/null
  mv "$STORE/events.jsonl" "$BATS_TEST_TMPDIR/elsewhere"
  ln -s "$BATS_TEST_TMPDIR/elsewhere" "$STORE/events.jsonl"
  run "$HA" history "$GOAL" add --kind 관측 --summary y
  [ "$status" -eq 70 ]
  [ "$output" = "ha: history_unreadable: $STORE/events.jsonl is a symlink or not a regular file" ]
}

@test "a damaged history stops add without repair" {
  "$HA" history "$GOAL" add --kind 관측 --summary x >/dev/null
  printf '{"half' >>"$STORE/events.jsonl"
  before="$(sha256sum "$STORE/events.jsonl")"
  run "$HA" history "$GOAL" add --kind 관측 --summary y
  [ "$status" -eq 65 ]
  [ "$output" = "ha: history_corrupt: $STORE/events.jsonl line 2 is incomplete (no final newline)" ]
  [ "$(sha256sum "$STORE/events.jsonl")" = "$before" ]
}

@test "a write past a file-size limit is cut back and names the event and request" {
  for i in 1 2 3; do "$HA" history "$GOAL" add --kind 관측 --summary "s$i" >/dev/null; done
  before="$(sha256sum "$STORE/events.jsonl")"
  blocks=$(( $(stat -c %s "$STORE/events.jsonl") / 1024 + 1 ))
  run bash -c "ulimit -f $blocks; trap '' XFSZ; exec '$HA' history '$GOAL' add --kind 관측 --summary big --reason $(printf 'r%.0s' $(seq 1200)) --request-id big-1"
  [ "$status" -eq 70 ]
  [[ "$output" == "ha: write_uncertain: D4 (request id big-1) was not stored: "*"File too large; the partial line was removed and nothing was stored: resend the same decision with --request-id big-1 to store it once" ]]
  [ "$(sha256sum "$STORE/events.jsonl")" = "$before" ]
  run "$HA" history "$GOAL" current
  [ "$status" -eq 0 ]
  run "$HA" history "$GOAL" add --kind 관측 --summary big --reason "$(printf 'r%.0s' $(seq 1200))" --request-id big-1
  [ "$status" -eq 0 ]
  [ "$(field "$output" id)" = D4 ]
  [ "$(field "$output" replayed)" = False ]
}

@test "a reference that could not be read is stored and named on stderr; stdout is the receipt" {
  run --separate-stderr "$HA" history "$GOAL" add --kind 관측 --summary x --checked-ref file:src/nope.py
  [ "$status" -eq 0 ]
  [ "$(field "$output" id)" = D1 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$stderr" = "ha: note: file:src/nope.py is stored as missing: no such file in the repository" ]
  grep -q '"evidence":\[{"type":"file","state":"missing"}\]' "$STORE/events.jsonl"
}
