#!/usr/bin/env bats
# issue 13 entry points as users call them: judgment-ledger.sh prime|verify,
# judgment-card.sh render, ha history <goal> graph|verify.

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

@test "ha history graph and verify on the seed §11 example" {
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
