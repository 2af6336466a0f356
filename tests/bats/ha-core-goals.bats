#!/usr/bin/env bats
# Goal documents as users meet them: id errors, the digest, cleanliness, start identity.

load helpers

setup() {
  make_repo
  make_goal
}

json_field() { # json_field <json> <python expression on d>
  "$ROOT/.venv/bin/python" -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

@test "a duplicate AC id is refused naming file and line" {
  printf -- '- AC-2 again\n' >>"$GOAL/SPEC.md"
  run "$HA" start "$GOAL" --request q
  [ "$status" -eq 65 ]
  [ "$output" = "ha: docs/specs/empty-input/SPEC.md:13: duplicate id AC-2 (first at line 8)" ]
  [ ! -e "$GOAL/runs.jsonl" ]
}

@test "a 조건표 row without an id is refused naming PLAN.md and line" {
  sed -i 's/^| EX-1 |/|  |/' "$GOAL/PLAN.md"
  run "$HA" start "$GOAL" --request q
  [ "$status" -eq 65 ]
  [ "$output" = "ha: docs/specs/empty-input/PLAN.md:9: ## 조건표 row without an id" ]
}

@test "the digest is sha256 over path NUL sha256 LF of SPEC.md and linked notes.md" {
  spec="$(sha256sum "$GOAL/SPEC.md" | cut -d' ' -f1)"
  notes="$(sha256sum "$GOAL/notes.md" | cut -d' ' -f1)"
  want="$(printf '%s\0%s\n%s\0%s\n' "$GOAL/SPEC.md" "$spec" "$GOAL/notes.md" "$notes" | sha256sum | cut -d' ' -f1)"
  out="$("$HA" status "$GOAL" --format json)"
  [ "$(json_field "$out" 'd["spec_digest"]["now"]')" = "$want" ]
  run "$HA" status "$GOAL"
  [[ "$output" == *"- goal digest: ${want:0:12}"* ]]
}

@test "moving the goal changes the digest" {
  before="$(json_field "$("$HA" status "$GOAL" --format json)" 'd["spec_digest"]["now"]')"
  git mv "$GOAL" docs/specs/moved
  after="$(json_field "$("$HA" status docs/specs/moved --format json)" 'd["spec_digest"]["now"]')"
  [ "$before" != "$after" ]
}

@test "a dirty tree only warns at start and records tree_clean false" {
  printf 'edit\n' >>src/count.go
  run "$HA" start "$GOAL" --request q
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "ha: warning: worktree has changes outside the goal's documents and run bundle"* ]]
  grep -q '"tree_clean":false' "$GOAL/runs.jsonl"
}

@test "run bundle edits keep the tree clean; code in the goal folder does not" {
  "$HA" start "$GOAL" --request q
  printf 'more\n' >>"$GOAL/REVIEW.md"
  run "$HA" status "$GOAL"
  [[ "$output" == *"- tree clean: yes"* ]]
  printf 'x\n' >"$GOAL/helper.sh"
  run "$HA" status "$GOAL"
  [[ "$output" == *"- tree clean: no"* ]]
}

@test "a copied goal with the same start line has the same start key" {
  "$HA" start "$GOAL" --request q
  want="$(head -1 "$GOAL/runs.jsonl" | tr -d '\n' | sha256sum | cut -d' ' -f1)"
  cp -R "$GOAL" docs/specs/copy
  a="$(json_field "$("$HA" status "$GOAL" --format json)" 'd["start"]["sha256"]')"
  b="$(json_field "$("$HA" status docs/specs/copy --format json)" 'd["start"]["sha256"]')"
  [ "$a" = "$want" ]
  [ "$b" = "$want" ]
}
