#!/usr/bin/env bats
# The entry points the Claude Code kit names, as users call them: judgment-ledger.sh prime|verify,
# judgment-card.sh render, ha history <goal> graph|verify; and the hooks' commands and
# scripts/judgment-kit as Claude Code and a user run them, with a missing or crashing interpreter.

load helpers
bats_require_minimum_version 1.5.0

card_json() {
  cat >"$1" <<'JSON'
{"question": "Use Redis or Postgres for the job queue?",
 "options": [{"id": "redis", "label": "Redis", "consequence": "one more service"},
             {"id": "postgres", "label": "Postgres", "consequence": "no new service"}],
 "recommendation": "postgres", "confidence": "medium", "impact": "queue latency <b>high</b>",
 "impact_score": 40, "diff_summary": "adds a jobs table"}
JSON
}

@test "prime: newest first, this project only; nothing without a ledger" {
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/l.jsonl"
  run "$LEDGER" prime --project shop
  [ "$status" -eq 0 ] && [ -z "$output" ]
  "$LEDGER" append --project shop --question 'First?' --answer a --card-ref c
  "$LEDGER" append --project other --question 'Secret?' --answer s --card-ref c
  "$LEDGER" append --project shop --question 'Second?' --answer b --card-ref c
  run "$LEDGER" prime --project shop --limit 1
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "## Recent judgments: shop" ]
  [[ "${lines[2]}" == "- Second? → **b** ("* ]]
  [ "${#lines[@]}" -eq 3 ]
  run "$LEDGER" prime --project shop
  [[ "$output" == *"First?"* && "$output" != *"Secret?"* ]]
}

@test "prime is fail-open: a FIFO ledger is one warning, exit 0, no wait" {
  mkfifo "$BATS_TEST_TMPDIR/fifo"
  HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/fifo" run --separate-stderr "$LEDGER" prime --project shop
  [ "$status" -eq 0 ] && [ -z "$output" ]
  [ "$stderr" = "judgment-ledger: prime: skipped (cannot read $BATS_TEST_TMPDIR/fifo: not a regular file (a FIFO))" ]
}

@test "prime through a symlink named like the console script" {
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  ln -s "$LEDGER" "$BATS_TEST_TMPDIR/bin/judgment-ledger"
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/l.jsonl"
  "$LEDGER" append --project shop --question 'Q?' --answer yes --card-ref c
  PATH="$BATS_TEST_TMPDIR/bin:$PATH" run judgment-ledger prime --project shop
  [ "$status" -eq 0 ] && [[ "$output" == *"- Q? → **yes**"* ]]
}

@test "verify: ok, then every bad line named with exit 1; --json" {
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/l.jsonl"
  "$LEDGER" append --project shop --question 'Q?' --answer yes --card-ref c
  run "$LEDGER" verify
  [ "$status" -eq 0 ] && [ "$output" = "ok: 1 record in $HARNESS_JUDGMENT_LEDGER" ]
  printf '{"id":1}\nnot json\n' >>"$HARNESS_JUDGMENT_LEDGER"
  run --separate-stderr "$LEDGER" verify
  [ "$status" -eq 1 ]
  [[ "${lines[0]}" == "line 2: \$: 'answer' is a required property;"* ]]
  [[ "${lines[1]}" == "line 3: not JSON ("* ]]
  [ "$stderr" = "judgment-ledger: verify: 1 valid record, 2 bad lines in $HARNESS_JUDGMENT_LEDGER" ]
  run "$LEDGER" verify --json
  [ "$status" -eq 1 ]
  [[ "$output" == '{"ok":false,"records":1,"bad":[{"line":2,'* ]]
}

@test "render: Markdown, HTML from stdin, invalid card exit 1" {
  card_json "$BATS_TEST_TMPDIR/card.json"
  run "$CARD" render "$BATS_TEST_TMPDIR/card.json"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "# Decision: Use Redis or Postgres for the job queue?" ]
  [[ "$output" == *"queue latency \<b>high\</b>"* ]]
  run bash -c "'$CARD' render - --format html < '$BATS_TEST_TMPDIR/card.json'"
  [ "$status" -eq 0 ]
  [[ "$output" == *"queue latency &lt;b&gt;high&lt;/b&gt;"* && "$output" != *"<script"* ]]
  printf '{"question": "q"}' >"$BATS_TEST_TMPDIR/bad.json"
  run --separate-stderr "$CARD" render "$BATS_TEST_TMPDIR/bad.json" --format html
  [ "$status" -eq 1 ] && [ -z "$output" ]
  [[ "$stderr" == *"is not a valid judgment-card.v1:"* ]]
}

@test "ha history graph and verify on the example goal" {
  start_goal
  "$HA" history "$GOAL" add --kind 원인 --status 가설 --summary "첫 항목이 항상 있다고 가정했다" --target AC-1 >/dev/null
  "$HA" history "$GOAL" add --kind 결정 --summary "빈 입력이면 0을 반환한다" --target T001 --builds-on D1 >/dev/null
  "$HA" history "$GOAL" add --kind 원인 --status 기각 --summary "버퍼 경계가 원인이다" --supersedes D1 >/dev/null
  run "$HA" history "$GOAL" graph --format md
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = '```mermaid' ] && [ "${lines[1]}" = "flowchart BT" ]
  [[ "$output" == *"  D2 -->|builds_on| D1"* && "$output" == *"  D3 -.->|supersedes| D1"* ]]
  [[ "$output" == *"  class D1 superseded"* ]]
  run "$HA" history "$GOAL" verify
  [ "$status" -eq 0 ] && [[ "$output" == "ok: 3 events, chain intact ("* ]]
  events=$(ls .git/ha/history/*/events.jsonl)
  sed -i 's/버퍼/BUFFER/' "$events"
  run "$HA" history "$GOAL" verify --json
  [ "$status" -eq 65 ]
  [[ "${lines[0]}" == '{"ok":false,"events":2,"first_bad_line":3,"error":"history_corrupt","message":"'* ]]
  run "$HA" history "$GOAL" graph
  [ "$status" -eq 65 ]
}

# hook_command EVENT: the command plugin/hooks/hooks.json gives EVENT, as Claude Code runs it.
hook_command() {
  json_eval "d['hooks']['$1'][0]['hooks'][0]['command']" "$ROOT/plugin/hooks/hooks.json"
}

# run_hook EVENT [VAR=VALUE...]: that command under `env -i` with the minimal PATH, an
# AskUserQuestion payload (answered) on stdin, and the plugin folder being this checkout.
run_hook() {
  local event="$1" cmd
  shift
  cmd="$(hook_command "$event")"
  mkdir -p "$BATS_TEST_TMPDIR/home" "$BATS_TEST_TMPDIR/shop"
  printf '%s' '{"session_id":"s","tool_use_id":"t","cwd":"'"$BATS_TEST_TMPDIR/shop"'","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Redis or Postgres?","header":"Q","options":[{"label":"Redis"},{"label":"Postgres"}]}]},"tool_response":{"answers":{"Redis or Postgres?":"Redis"}}}' >"$BATS_TEST_TMPDIR/payload.json"
  run --separate-stderr env -i PATH=/usr/bin:/bin HOME="$BATS_TEST_TMPDIR/home" \
    CLAUDE_PLUGIN_ROOT="$ROOT/plugin" CLAUDE_PROJECT_DIR="$BATS_TEST_TMPDIR/shop" "$@" \
    sh -c "$cmd" <"$BATS_TEST_TMPDIR/payload.json"
}

@test "hooks: a missing, a crashing and a killed interpreter each end in the one install line, exit 0" {
  crash="$BATS_TEST_TMPDIR/crash-python"
  printf '#!/bin/sh\necho "Traceback (most recent call last):" >&2\necho "RuntimeError: boom" >&2\nexit 1\n' >"$crash"
  killed="$BATS_TEST_TMPDIR/killed-python"
  printf '#!/bin/sh\nkill -KILL $$\n' >"$killed"
  chmod +x "$crash" "$killed"
  for py in "$BATS_TEST_TMPDIR/none" "$crash" "$killed"; do
    for event in SessionStart PreToolUse PostToolUse; do
      run_hook "$event" HARNESS_PYTHON="$py" JUDGMENT_CAPTURE=1
      [ "$status" -eq 0 ]
      [ "${#lines[@]}" -eq 1 ] && [[ "$output" == "judgment-toolkit: "*"pipx install ." ]]
    done
  done
}

@test "hooks: with capture off the PostToolUse hook starts no interpreter at all" {
  crash="$BATS_TEST_TMPDIR/crash-python"
  printf '#!/bin/sh\necho started >>"%s"\nexit 1\n' "$BATS_TEST_TMPDIR/started" >"$crash"
  chmod +x "$crash"
  for switch in JUDGMENT_CAPTURE=0 JUDGMENT_CAPTURE= NOTHING=1; do
    run_hook PostToolUse HARNESS_PYTHON="$crash" "$switch"
    [ "$status" -eq 0 ] && [ -z "$output" ] && [ -z "$stderr" ]
  done
  [ ! -e "$BATS_TEST_TMPDIR/started" ]
  run_hook PostToolUse HARNESS_PYTHON="$crash" JUDGMENT_CAPTURE=1
  [ "$status" -eq 0 ] && [ "$(cat "$BATS_TEST_TMPDIR/started")" = started ]
}

@test "judgment-kit: usage errors are exit 64 with what to do; --help is exit 0" {
  run --separate-stderr "$ROOT/scripts/judgment-kit"
  [ "$status" -eq 64 ] && [ "$stderr" = "judgment-kit: a command is required; see judgment-kit --help" ]
  run --separate-stderr "$ROOT/scripts/judgment-kit" nope
  [ "$status" -eq 64 ] && [ "$stderr" = "judgment-kit: unknown command: nope; see judgment-kit --help" ]
  run --separate-stderr "$ROOT/scripts/judgment-kit" setup-claude --check --remove
  [ "$status" -eq 64 ]
  [ "$stderr" = "judgment-kit: setup-claude: --check and --remove exclude each other; see judgment-kit --help" ]
  run "$ROOT/scripts/judgment-kit" --help
  [ "$status" -eq 0 ] && [[ "${lines[0]}" == "usage: judgment-kit hook "* ]]
}
