#!/usr/bin/env bats
# ha history views (current, list, show) as users call them: scripts/ha in real repositories.

load helpers

setup() {
  make_repo
  make_goal
  "$HA" start "$GOAL" --request "빈 입력을 고쳐 줘" >/dev/null
  git add -A && git commit -qm start
  "$HA" check "$GOAL" AC-1 >/dev/null
}

seed_example() {
  "$HA" history "$GOAL" add --kind 원인 --status 가설 --summary "첫 항목이 항상 있다고 가정했다" \
    --target AC-1 --ref run:2 --request-id cause-1 >/dev/null
  "$HA" history "$GOAL" add --kind 관측 --summary "빈 파일에서 오류가 재현된다" --target AC-1 \
    --checked-ref file:src/count.go >/dev/null
  "$HA" history "$GOAL" add --kind 결정 --summary "빈 입력이면 0을 반환한다" --target T001 \
    --builds-on D1 --builds-on D2 >/dev/null
  "$HA" history "$GOAL" add --kind 원인 --status 기각 --summary "첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다" \
    --target AC-1 --supersedes D1 >/dev/null
}

json_field() { # json_field <python expression over v> < json
  "$ROOT/.venv/bin/python" -c "import json,sys; v=json.load(sys.stdin); print($1)"
}

@test "no store yet: history: absent, exit 0, nothing created" {
  run "$HA" history "$GOAL"
  [ "$status" -eq 0 ]
  [ "$output" = "history: absent" ]
  [ ! -e .git/ha/history ]
  run "$HA" history "$GOAL" list --format json
  [ "$status" -eq 0 ]
  [ "$output" = '{"schema":"decision-history-view/v1","view":"list","history":"absent","goal":"docs/specs/empty-input"}' ]
}

@test "the example of decision-history/v1 section 11: current" {
  seed_example
  run "$HA" history "$GOAL" current
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "# ha history: docs/specs/empty-input · current" ]
  [[ "$output" == *$'\n- D2 · 관측 · AC-1 · 빈 파일에서 오류가 재현된다\n- D3 · 결정 · T001 · 빈 입력이면 0을 반환한다 (linked grounds D1 corrected by D4)\n- D4 · 원인 [기각] · AC-1 · 첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다\n'* ]]
  [[ "$output" != *"- D1 "* ]]
  [[ "${lines[-1]}" == "cursor: c1."* ]]
}

@test "the example of decision-history/v1 section 11: show D3" {
  seed_example
  run "$HA" history "$GOAL" show D3
  [ "$status" -eq 0 ]
  [[ "$output" == *$'\n- builds_on D1 · 원인 [가설] · 첫 항목이 항상 있다고 가정했다 (lineage same)\n'* ]]
  [[ "$output" == *$'\n- builds_on D2 · 관측 · 빈 파일에서 오류가 재현된다 (lineage same, current)\n'* ]]
  [[ "$output" == *$'\n- markers: linked grounds D1 corrected by D4\n'* ]]
}

@test "list marks current, superseded and corrections" {
  seed_example
  run "$HA" history "$GOAL" list
  [ "$status" -eq 0 ]
  [[ "$output" == *"- D1 · 원인 [가설] · AC-1 · 첫 항목이 항상 있다고 가정했다 (superseded by D4)"* ]]
  [[ "$output" == *"(current, corrects D1)"* ]]
}

@test "show --request-id finds the stored request; unknown ids are 65" {
  seed_example
  run "$HA" history "$GOAL" show --request-id cause-1
  [ "$status" -eq 0 ]
  [[ "$output" == *"## D1 · 원인 [가설] · AC-1 · 첫 항목이 항상 있다고 가정했다"* ]]
  run "$HA" history "$GOAL" show D9
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: unknown_event: "* ]]
}

@test "JSON is one line of decision-history-view/v1 with the same events" {
  seed_example
  run "$HA" history "$GOAL" current --format json
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$(printf '%s' "$output" | json_field 'v["schema"], [e["id"] for e in v["events"]]')" = "decision-history-view/v1 ['D2', 'D3', 'D4']" ]
}

@test "pages: --limit, next cursor, and the walk continues" {
  seed_example
  run "$HA" history "$GOAL" list --limit 3
  [ "$status" -eq 0 ]
  [[ "$output" == *"shown 3 of 4 · truncated"* ]]
  next="$(printf '%s\n' "$output" | sed -n 's/^next: //p')"
  [[ "$next" == p1.* ]]
  run "$HA" history "$GOAL" list --limit 3 --page "$next"
  [ "$status" -eq 0 ]
  [[ "$output" == *"- D4 · "* ]]
  [[ "$output" != *"- D1 · "* ]]
  run "$HA" history "$GOAL" current --page "$next"
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: cursor_mismatch: "* ]]
}

@test "--since shows what was added and the replacements it made" {
  seed_example
  cursor="$("$HA" history "$GOAL" current | sed -n 's/^cursor: //p')"
  "$HA" history "$GOAL" add --kind 결정 --summary "새 결정" --target T001 --supersedes D2 >/dev/null
  run "$HA" history "$GOAL" current --target AC-1 --since "$cursor"
  [ "$status" -eq 0 ]
  [[ "$output" == *"- replacement: D2 → D5"* ]]
  [[ "$output" == *"no current events"* ]]
}

@test "a tampered cursor is refused as cursor_invalid (65)" {
  seed_example
  cursor="$("$HA" history "$GOAL" current | sed -n 's/^cursor: //p')"
  last="${cursor: -1}"
  if [ "$last" = A ]; then other=B; else other=A; fi
  run "$HA" history "$GOAL" current --since "${cursor%?}$other"
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: cursor_invalid: "* ]]
}

@test "usage errors are 64: unknown option, bad format, limit over 200" {
  seed_example
  run "$HA" history "$GOAL" list --bogus
  [ "$status" -eq 64 ]
  [[ "$output" == "ha: invalid_input: "* ]]
  run "$HA" history "$GOAL" current --format xml
  [ "$status" -eq 64 ]
  run "$HA" history "$GOAL" list --limit 201
  [ "$status" -eq 64 ]
  [[ "$output" == "ha: limit_exceeded: "* ]]
}

@test "views on a goal that was never started are not_started (65)" {
  mkdir -p docs/specs/fresh && cp "$FIXTURE_GOAL"/*.md docs/specs/fresh/
  run "$HA" history docs/specs/fresh current
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: not_started: "* ]]
}

@test "the same store and git state print the same bytes, and views write nothing" {
  seed_example
  marker="$BATS_TEST_TMPDIR/marker"
  touch "$marker"
  a="$("$HA" history "$GOAL" list)"
  b="$("$HA" history "$GOAL" list)"
  [ "$a" = "$b" ]
  "$HA" history "$GOAL" show D3 >/dev/null
  "$HA" history "$GOAL" current --format json >/dev/null
  [ -z "$(find . -newer "$marker" -print)" ]
}

@test "a mistyped view or option says what was meant (64)" {
  seed_example
  run "$HA" history "$GOAL" lst
  [ "$status" -eq 64 ]
  [[ "$output" == "ha: invalid_input: history: unknown view 'lst' (did you mean 'list'?); "* ]]
  run "$HA" history "$GOAL" D3
  [[ "$output" == *"(did you mean 'show D3'?)"* ]]
  run "$HA" history "$GOAL" list --limt 5
  [ "$status" -eq 64 ]
  [ "$output" = "ha: invalid_input: history list: unknown option --limt (did you mean '--limit'?)" ]
}

@test "--json and --format json are one request for every view that prints JSON" {
  seed_example
  for view in current list "show D3" graph; do
    a="$("$HA" history "$GOAL" $view --json)"
    b="$("$HA" history "$GOAL" $view --format json)"
    [ -n "$a" ] && [ "$a" = "$b" ]
  done
  [ "$("$HA" history "$GOAL" verify --format json)" = '{"ok":true,"events":4,"first_bad_line":null,"error":null,"message":null}' ]
}

@test "a folder without SPEC.md is named as no goal folder, with how to make one" {
  mkdir -p lib
  run "$HA" history lib list
  [ "$status" -eq 65 ]
  [[ "$output" == "ha: not_started: lib is not a goal folder: it has no SPEC.md and no run record. "*"\`ha new lib\` writes both"* ]]
}
