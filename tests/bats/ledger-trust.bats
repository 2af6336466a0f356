#!/usr/bin/env bats
# The trust boundary (docs/judgment-ledger.md, "The trust boundary") as users meet it: a
# cloned repository that committed `.claude` or the ledger as a symlink to a file outside it.
# Every entry point that writes skips with one stderr line and exit 0 (Judgment Ledger v1,
# section 'Fail-Open'); nothing outside the repository is written.

bats_require_minimum_version 1.5.0
load helpers

setup() {
  export HOME="$BATS_TEST_TMPDIR/home"
  mkdir -p "$HOME"
  unset HARNESS_JUDGMENT_LEDGER HARNESS_PROJECT_ROOT HARNESS_PYTHON HARNESS_JUDGMENT_RANK \
    HARNESS_MEM_HOME HARNESS_MEM_HOST HARNESS_MEM_PORT HARNESS_MEM_ADMIN_TOKEN JUDGMENT_PROJECT
  OUTSIDE="$BATS_TEST_TMPDIR/outside"
  mkdir -p "$OUTSIDE"
  printf 'export PATH=/usr/bin\n' >"$OUTSIDE/bashrc"
  make_repo
  local origin="$REPO"
  mkdir -p "$origin/.claude/state"
  ln -s "$OUTSIDE/bashrc" "$origin/.claude/state/judgment-ledger.jsonl"
  git -C "$origin" add -A
  git -C "$origin" commit -qm "hostile"
  CLONE="$BATS_TEST_TMPDIR/clone"
  git clone -q "$origin" "$CLONE"
  [ -L "$CLONE/.claude/state/judgment-ledger.jsonl" ]
  CARD_FILE="$ROOT/tests/fixtures/cards/queue.json"
}

untouched() {
  [ "$(cat "$OUTSIDE/bashrc")" = "export PATH=/usr/bin" ]
}

@test "append into a symlinked ledger: one skipped line, exit 0, the file outside untouched" {
  cd "$CLONE"
  run --separate-stderr "$LEDGER" append --project demo --question "secret?" --answer yes --card-ref c
  [ "$status" -eq 0 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: append skipped (refused $CLONE/.claude/state/judgment-ledger.jsonl: .claude/state/judgment-ledger.jsonl in $CLONE is a symbolic link; "* ]]
  untouched
}

@test "record-answer into a symlinked ledger: one skipped line, exit 0, the file outside untouched" {
  cd "$CLONE"
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer postgres --why "fewer services" \
    --project demo --session s1
  [ "$status" -eq 0 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: append skipped (refused "*"is a symbolic link"* ]]
  untouched
}

@test "the capture hook into a symlinked ledger: exit 0, the file outside untouched" {
  cd "$CLONE"
  payload='{"session_id":"s","tool_use_id":"t","cwd":"'"$CLONE"'","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Q?","header":"Q","multiSelect":false,"options":[{"label":"A"},{"label":"B"}]}],"answers":{"Q?":"A"}}}'
  run --separate-stderr env JUDGMENT_CAPTURE=1 CLAUDE_PROJECT_DIR="$CLONE" "$ROOT/scripts/judgment-kit" hook ask-capture <<<"$payload"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"append skipped (refused "*"is a symbolic link"* ]]
  untouched
}

@test "reads of a symlinked ledger exit 1 and name the link" {
  cd "$CLONE"
  run --separate-stderr "$LEDGER" search --project demo --query secret
  [ "$status" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: search: cannot read the ledger "*"is a symbolic link"* ]]
  run --separate-stderr "$LEDGER" prime --project demo
  [ "$status" -eq 0 ]
  [[ "$stderr" == "judgment-ledger: prime: skipped ("*"is a symbolic link"* ]]
}
