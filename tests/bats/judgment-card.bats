#!/usr/bin/env bats
# scripts/judgment-card.sh as a user (or a hook) calls it.

bats_require_minimum_version 1.5.0
load helpers

setup() {
  export HOME="$BATS_TEST_TMPDIR/home"
  mkdir -p "$HOME"
  unset HARNESS_PROJECT_ROOT HARNESS_PYTHON HARNESS_JUDGMENT_RANK HARNESS_MEM_HOME HARNESS_MEM_HOST HARNESS_MEM_PORT \
    HARNESS_MEM_ADMIN_TOKEN HARNESS_MEM_PLATFORM
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/ledger.jsonl"
  CARD_FILE="$BATS_TEST_TMPDIR/card.json"
  cat >"$CARD_FILE" <<'JSON'
{
  "question": "Use Redis or Postgres for the job queue?",
  "options": [
    {"id": "redis", "label": "Redis", "consequence": "one more service to run"},
    {"id": "postgres", "label": "Postgres", "consequence": "no new service; SKIP LOCKED"}
  ],
  "recommendation": "postgres",
  "confidence": "medium",
  "impact": "queue latency and operations load",
  "diff_summary": "adds a jobs table and a worker loop"
}
JSON
}

teardown() {
  if [[ -n "${SERVER_PID:-}" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
}

start_server() { # start_server [STATUS]: a real http.server capturing the POST
  SERVER_DIR="$BATS_TEST_TMPDIR/server"
  mkdir -p "$SERVER_DIR"
  python3 "$BATS_TEST_DIRNAME/judgment_mem_server.py" "$SERVER_DIR" "${1:-200}" &
  SERVER_PID=$!
  for _ in $(seq 1 100); do [[ -s "$SERVER_DIR/port" ]] && break; sleep 0.05; done
  export HARNESS_MEM_HOST=127.0.0.1 HARNESS_MEM_PORT
  HARNESS_MEM_PORT="$(cat "$SERVER_DIR/port")"
  export HARNESS_MEM_HOME="$BATS_TEST_TMPDIR/mem"
}

captured() { json_eval "$1" "$SERVER_DIR/request.json"; }
body() { json_eval "(lambda b: $1)(loads(d['body']))" "$SERVER_DIR/request.json"; }

@test "validate: a valid card exits 0" {
  run "$CARD" validate "$CARD_FILE"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
}

@test "validate: an invalid card lists every violation by JSON path" {
  json_eval '{**{k: v for k, v in d.items() if k != "impact"}, "confidence": "sure", "options": d["options"][:1], "extra": 1}' "$CARD_FILE" >"$BATS_TEST_TMPDIR/bad.json"
  run "$CARD" validate "$BATS_TEST_TMPDIR/bad.json"
  [ "$status" -eq 1 ]
  [ "${lines[0]}" = "judgment-card: $BATS_TEST_TMPDIR/bad.json is not a valid judgment-card.v1:" ]
  [ "${lines[1]}" = "  \$: 'impact' is a required property" ]
  [ "${lines[2]}" = "  \$: Additional properties are not allowed ('extra' was unexpected)" ]
  [ "${lines[3]}" = "  \$.confidence: 'sure' is not one of ['high', 'medium', 'low']" ]
  [[ "${lines[4]}" == "  \$.options: "*"is too short" ]]
  [ "${#lines[@]}" -eq 5 ]
}

@test "validate: a missing file or invalid JSON exits 1 with that reason" {
  run "$CARD" validate "$BATS_TEST_TMPDIR/nope.json"
  [ "$status" -eq 1 ]
  [ "$output" = "judgment-card: cannot read $BATS_TEST_TMPDIR/nope.json: No such file or directory" ]
  printf '{"question": ' >"$BATS_TEST_TMPDIR/broken.json"
  run "$CARD" validate "$BATS_TEST_TMPDIR/broken.json"
  [ "$status" -eq 1 ]
  [[ "$output" == "judgment-card: $BATS_TEST_TMPDIR/broken.json is not valid JSON: Expecting value"* ]]
}

@test "should-issue: a floor category is a hard stop" {
  run "$CARD" should-issue --reason tradeoff --floor-category security
  [ "$status" -eq 2 ]
  [ "$output" = "HARD_STOP: floor (security)" ]
}

@test "should-issue: the three reasons issue a card, others do not" {
  for reason in dod-ambiguous scope-exceeded tradeoff; do
    run "$CARD" should-issue --reason "$reason"
    [ "$status" -eq 0 ]
    [ "$output" = ISSUE_CARD ]
  done
  run "$CARD" should-issue --reason style
  [ "$status" -eq 1 ]
  [ "$output" = "NO_CARD: reason not in enum" ]
}

@test "record-answer posts the checkpoint to harness-mem, checked field by field, then appends" {
  start_server 200
  export HARNESS_MEM_ADMIN_TOKEN=t0ken HARNESS_MEM_PLATFORM=bats
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer postgres --why "fewer services" \
    --project demo --session sess-42
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(captured 'd["path"]')" = /v1/checkpoints/record ]
  [ "$(captured 'd["headers"]["Authorization"]')" = "Bearer t0ken" ]
  [ "$(captured 'd["headers"]["Content-Type"]')" = application/json ]
  [ "$(body '",".join(b)')" = "session_id,title,content,platform,project,tags" ]
  [ "$(body 'b["session_id"]')" = sess-42 ]
  [ "$(body 'b["title"]')" = "judgment: Use Redis or Postgres for the job queue?" ]
  [ "$(body 'b["platform"]')" = bats ]
  [ "$(body 'b["project"]')" = demo ]
  [ "$(body 'b["tags"]')" = '["judgment-card"]' ]
  [ "$(body 'loads(b["content"])["answer"]')" = postgres ]
  [ "$(body 'loads(b["content"])["why"]')" = "fewer services" ]
  [ "$(body 'loads(b["content"])["card"]["question"]')" = "Use Redis or Postgres for the job queue?" ]
  [ "$(body "loads(b['content'])['card'] == loads(open('$CARD_FILE').read())")" = true ]
  [ "$(json_eval '[d[k] for k in ("project", "question", "answer", "rationale", "card_ref", "tags")]' "$HARNESS_JUDGMENT_LEDGER")" = \
    "[\"demo\",\"Use Redis or Postgres for the job queue?\",\"postgres\",\"fewer services\",\"$CARD_FILE\",[\"judgment-card\"]]" ]
}

@test "record-answer: an unreachable harness-mem is skipped and the ledger still gets the answer" {
  start_server 200
  kill "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer redis --why w --project demo --session s
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-card: record skipped (unreachable)" ]
  [ "$(json_eval 'd["answer"]' "$HARNESS_JUDGMENT_LEDGER")" = redis ]
}

@test "record-answer: a non-2xx answer is skipped the same way" {
  start_server 503
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer redis --why w --project demo --session s
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-card: record skipped (unreachable)" ]
  [ -s "$SERVER_DIR/request.json" ]
  [ "$(json_eval 'd["answer"]' "$HARNESS_JUDGMENT_LEDGER")" = redis ]
}

@test "record-answer: not configured means no request, only the ledger" {
  start_server 200
  unset HARNESS_MEM_HOME
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer redis --why w --project demo --session s
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ ! -e "$SERVER_DIR/request.json" ]
  mkdir "$HOME/.claude-mem"
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer redis --why w --project demo --session s
  [ -s "$SERVER_DIR/request.json" ]
  [ "$(wc -l <"$HARNESS_JUDGMENT_LEDGER")" -eq 2 ]
}

@test "record-answer: the answer must be one of the option ids" {
  run "$CARD" record-answer "$CARD_FILE" --answer mysql --why w --project demo --session s
  [ "$status" -eq 1 ]
  [ "$output" = "judgment-card: record-answer: --answer 'mysql' is not an option of $CARD_FILE (valid: redis, postgres)" ]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "record-answer: an invalid card is refused" {
  json_eval '{k: v for k, v in d.items() if k != "options"}' "$CARD_FILE" >"$BATS_TEST_TMPDIR/bad.json"
  run "$CARD" record-answer "$BATS_TEST_TMPDIR/bad.json" --answer redis --why w --project demo --session s
  [ "$status" -eq 1 ]
  [[ "$output" == *"\$: 'options' is a required property"* ]]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "record-answer: the ledger append is fail-open" {
  : >"$BATS_TEST_TMPDIR/blocker"
  HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/blocker/l.jsonl" run --separate-stderr \
    "$CARD" record-answer "$CARD_FILE" --answer redis --why w --project demo --session s
  [ "$status" -eq 0 ]
  [[ "$stderr" == "judgment-ledger: append skipped ("* ]]
}

@test "recall fills similar_past_decisions (max 3) from this project's ledger and still validates" {
  for i in 1 2 3 4; do
    "$LEDGER" append --project demo --question "Use Redis or Postgres for the job queue? ($i)" \
      --answer postgres --card-ref c --id "d$i"
  done
  "$LEDGER" append --project other --question "Use Redis or Postgres for the job queue?" --answer redis --card-ref c
  run --separate-stderr "$CARD" recall "$CARD_FILE" --project demo
  [ "$status" -eq 0 ]
  [ "$(json_eval 'len(d["similar_past_decisions"])' <<<"$output")" -eq 3 ]
  [ "$(json_eval '",".join(sorted({i["decision"] for i in d["similar_past_decisions"]}))' <<<"$output")" = postgres ]
  [[ "${lines[1]}" == '  "question": "Use Redis or Postgres for the job queue?",' ]]
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/merged.json"
  run "$CARD" validate "$BATS_TEST_TMPDIR/merged.json"
  [ "$status" -eq 0 ]
}

@test "recall --rank relevance fills similar_past_decisions with the decisions that share words" {
  "$LEDGER" append --project demo --question "Postgres job queue: SKIP LOCKED or advisory locks?" \
    --answer "skip locked" --card-ref c1 --id locks
  "$LEDGER" append --project demo --question "Which eviction policy for the session store?" \
    --answer lru --card-ref c2 --id eviction
  run "$CARD" recall "$CARD_FILE" --project demo --rank relevance
  [ "$status" -eq 0 ]
  [ "$(json_eval '" ".join(i["mem_id"] for i in d["similar_past_decisions"])' <<<"$output")" = "judgment-ledger:locks" ]
  HARNESS_JUDGMENT_RANK=relevance run "$CARD" recall "$CARD_FILE" --project demo
  [ "$(json_eval 'len(d["similar_past_decisions"])' <<<"$output")" -eq 1 ]
  run "$CARD" recall "$CARD_FILE" --project demo
  [ "$(json_eval 'd["similar_past_decisions"][0]["mem_id"]' <<<"$output")" = "judgment-ledger:eviction" ]
}

@test "recall gives an empty array when nothing matches" {
  run "$CARD" recall "$CARD_FILE" --project nobody
  [ "$status" -eq 0 ]
  [ "$(json_eval 'd["similar_past_decisions"]' <<<"$output")" = "[]" ]
}

@test "unknown subcommand" {
  run "$CARD" frobnicate
  [ "$status" -eq 64 ]
  [[ "$output" == *"unknown subcommand frobnicate"* ]]
}

@test "record-answer and recall take --json and --format json alike; render's --format stays md|html" {
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer redis --why w --project demo --session s --format json
  [ "$status" -eq 0 ]
  [[ "$output" == '{"ledger":{"id":"'*'"harness_mem":"'*'"}' ]]
  run --separate-stderr "$CARD" record-answer "$CARD_FILE" --answer redis --why w --project demo --session s --json
  [[ "$output" == '{"ledger":{"id":"'*'"harness_mem":"'*'"}' ]]
  run --separate-stderr "$CARD" recall "$CARD_FILE" --project demo
  plain="$output"
  run --separate-stderr "$CARD" recall "$CARD_FILE" --project demo --format json
  [ "$status" -eq 0 ]
  [ "$output" = "$plain" ]
  run --separate-stderr "$CARD" recall "$CARD_FILE" --project demo --json
  [ "$output" = "$plain" ]
  run --separate-stderr "$CARD" recall "$CARD_FILE" --project demo --format yaml
  [ "$status" -eq 64 ]
  [ "$stderr" = "judgment-card: recall: format: must be json (the same as --json), not 'yaml'" ]
  run --separate-stderr "$CARD" render "$CARD_FILE" --format json
  [ "$status" -eq 64 ]
  [ "$stderr" = "judgment-card: render: format: must be md or html, not 'json'" ]
}
