#!/usr/bin/env bats
# scripts/judgment-ledger.sh as a user (or a hook) calls it.

bats_require_minimum_version 1.5.0
load helpers

setup() {
  export HOME="$BATS_TEST_TMPDIR/home"
  mkdir -p "$HOME"
  unset HARNESS_PROJECT_ROOT HARNESS_PYTHON HARNESS_JUDGMENT_RANK
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/state/ledger.jsonl"
}

add() { # add PROJECT QUESTION [more flags...]
  local project="$1" question="$2"
  shift 2
  "$LEDGER" append --project "$project" --question "$question" --answer yes --card-ref cards/c.json "$@"
}

@test "append writes one compact JSON line with every field in schema order" {
  run "$LEDGER" append --project demo --question "Use Postgres?" --answer yes \
    --card-ref cards/c.json --rationale "fewer services" --tags "infra, queue,," --id rec-1
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  run json_eval '",".join(d)' "$HARNESS_JUDGMENT_LEDGER"
  [ "$output" = "id,project,decided_at,question,answer,rationale,card_ref,tags" ]
  line="$(cat "$HARNESS_JUDGMENT_LEDGER")"
  [[ "$line" == '{"id":"rec-1","project":"demo","decided_at":"'*'","question":"Use Postgres?","answer":"yes","rationale":"fewer services","card_ref":"cards/c.json","tags":["infra","queue"]}' ]]
  [[ "$(json_eval 'd["decided_at"]' "$HARNESS_JUDGMENT_LEDGER")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$ ]]
}

@test "append keeps UTF-8 unescaped and defaults id, rationale and tags" {
  run add demo "日本語の質問?"
  [ "$status" -eq 0 ]
  grep -q '"question":"日本語の質問?"' "$HARNESS_JUDGMENT_LEDGER"
  [[ "$(json_eval 'd["id"]' "$HARNESS_JUDGMENT_LEDGER")" =~ ^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$ ]]
  [ "$(json_eval '[d["rationale"], d["tags"]]' "$HARNESS_JUDGMENT_LEDGER")" = '["",[]]' ]
}

@test "append rejects a missing flag, an unknown flag and a repeated flag, writing nothing" {
  run "$LEDGER" append --project demo --question q --answer a
  [ "$status" -eq 1 ]
  [ "$output" = "judgment-ledger: append rejected (card_ref: missing --card-ref)" ]
  run add demo q --colour red
  [ "$status" -eq 1 ]
  [ "$output" = "judgment-ledger: append rejected (--colour: unknown flag)" ]
  run add demo q --project again
  [ "$status" -eq 1 ]
  [ "$output" = "judgment-ledger: append rejected (project: --project given more than once)" ]
  run add demo ""
  [ "$status" -eq 1 ]
  [ "$output" = "judgment-ledger: append rejected (question: must not be empty)" ]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "append is fail-open on an unwritable path (a file where a folder should be)" {
  : >"$BATS_TEST_TMPDIR/blocker"
  HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/blocker/sub/ledger.jsonl" run --separate-stderr add demo q
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: append skipped (cannot create directory $BATS_TEST_TMPDIR/blocker/sub: Not a directory)" ]]
}

@test "append is fail-open when the ledger is a device (/dev/full), never silent" {
  HARNESS_JUDGMENT_LEDGER=/dev/full run --separate-stderr add demo q
  [ "$status" -eq 0 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: append skipped (/dev/full is not a regular file (a character device))" ]]
}

@test "a FIFO as the ledger: append skips, search and recall warn; nothing waits for a writer" {
  mkfifo "$BATS_TEST_TMPDIR/fifo"
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/fifo"
  run --separate-stderr timeout 60 "$LEDGER" append --project demo --question q --answer a --card-ref c
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-ledger: append skipped ($HARNESS_JUDGMENT_LEDGER is not a regular file (a FIFO))" ]
  run --separate-stderr timeout 60 "$LEDGER" search --project demo --query q
  [ "$status" -eq 1 ] && [ -z "$output" ]
  [ "$stderr" = "judgment-ledger: search: cannot read the ledger $HARNESS_JUDGMENT_LEDGER: not a regular file (a FIFO)" ]
  run --separate-stderr timeout 60 "$LEDGER" recall --project demo --question q
  [ "$status" -eq 1 ] && [ -z "$output" ]
  [[ "$stderr" == *"recall: cannot read the ledger"*"not a regular file (a FIFO)" ]]
}

@test "append is fail-open when the lock is held for more than 2 s" {
  python3 -c 'import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR|os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX); open(sys.argv[2],"w").close(); time.sleep(5)' \
    "$BATS_TEST_TMPDIR/locked.jsonl" "$BATS_TEST_TMPDIR/ready" &
  holder=$!
  while [ ! -e "$BATS_TEST_TMPDIR/ready" ]; do sleep 0.05; done
  HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/locked.jsonl" run --separate-stderr add demo q
  kill "$holder"
  wait "$holder" || true
  [ "$status" -eq 0 ]
  [ "$stderr" = "judgment-ledger: append skipped (lock on $BATS_TEST_TMPDIR/locked.jsonl not obtained within 2 s)" ]
  [ ! -s "$BATS_TEST_TMPDIR/locked.jsonl" ]
}

@test "append defaults to .claude/state/judgment-ledger.jsonl at the git top level" {
  unset HARNESS_JUDGMENT_LEDGER
  make_repo
  cd src
  run add demo "from a subfolder"
  [ "$status" -eq 0 ]
  [ "$(json_eval 'd["question"]' "$REPO/.claude/state/judgment-ledger.jsonl")" = "from a subfolder" ]
  HARNESS_PROJECT_ROOT="$BATS_TEST_TMPDIR/elsewhere" run add demo "root wins"
  [ "$(json_eval 'd["question"]' "$BATS_TEST_TMPDIR/elsewhere/.claude/state/judgment-ledger.jsonl")" = "root wins" ]
}

@test "parallel appends never lose or tear a line" {
  for i in $(seq 1 12); do add demo "parallel $i" & done
  wait
  [ "$(wc -l <"$HARNESS_JUDGMENT_LEDGER")" -eq 12 ]
  [ "$(grep -c '^{' "$HARNESS_JUDGMENT_LEDGER")" -eq 12 ]
}

@test "search is project-scoped: another project's records never come back" {
  add alpha "Which database for alpha?"
  add beta "Which database for beta?"
  add alpha-2 "Which database for alpha-2?"
  run "$LEDGER" search --project alpha --query database
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$(json_eval 'd["project"]' <<<"$output")" = alpha ]
  run "$LEDGER" search --project gamma --query database
  [ "$status" -eq 0 ]
  [ -z "$output" ]
}

@test "search returns at most 3, best first, one compact record per line" {
  for i in 1 2 3 4 5; do add demo "cache question $i"; done
  add demo "how to cache the build" --rationale "cache the build once"
  run "$LEDGER" search --project demo --query "cache the build"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 3 ]
  [ "$(json_eval 'd["question"]' <<<"${lines[0]}")" = "how to cache the build" ]
  [[ "${lines[1]}" == '{"id":"'* ]]
  run "$LEDGER" search --project demo --query cache --limit 9  # never silently fewer
  [ "$status" -eq 64 ]
  [ "$output" = "judgment-ledger: search: limit: must be a whole number from 1 to 3 (at most 3 results), not '9'" ]
  run "$LEDGER" search --project demo --query cache --limit 1
  [ "${#lines[@]}" -eq 1 ]
}

@test "search with an empty query lists the newest first; no match prints nothing" {
  add demo "first"
  add demo "second"
  run "$LEDGER" search --project demo --query ""
  [ "$(json_eval 'd["question"]' <<<"${lines[0]}")" = second ]
  run "$LEDGER" search --project demo --query "zebra"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
}

@test "search skips lines that are not valid JSON" {
  add demo "good record"
  printf '{"project":"demo","question":"good but torn\nnot json at all "demo" good\n' >>"$HARNESS_JUDGMENT_LEDGER"
  add demo "another good record"
  run "$LEDGER" search --project demo --query good
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
}

@test "recall prints a JSON array of at most 3 similar past decisions" {
  for i in 1 2 3 4; do add demo "Pick the queue $i" --id "q$i"; done
  add demo "Pick the queue 5" --id q5 --rationale "ops load"
  run "$LEDGER" recall --project demo --question "pick the queue"
  [ "$status" -eq 0 ]
  [ "$(json_eval 'len(d)' <<<"$output")" -eq 3 ]
  [ "$(json_eval 'list(d[0])' <<<"$output")" = '["summary","decision","outcome","decided_at","mem_id"]' ]
  [ "$(json_eval 'd[0]["mem_id"]' <<<"$output")" = "judgment-ledger:q5" ]
  [ "$(json_eval 'd[0]["outcome"]' <<<"$output")" = "ops load" ]
  [ "$(json_eval 'd[1]["outcome"]' <<<"$output")" = "recorded" ]
  run "$LEDGER" recall --project other --question "pick the queue"
  [ "$output" = "[]" ]
}

@test "search --rank relevance: whole words, stems, best first; match stays the default" {
  add demo "Export the report nightly?" --id export
  add demo "Plan the downtime for the upgrade" --id downtime
  add demo "Cache the product pages at the edge?" --id cache
  run "$LEDGER" search --project demo --query "caching pages?" --rank relevance
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$(json_eval 'd["id"]' <<<"$output")" = cache ]
  run "$LEDGER" search --project demo --query "port or downtime?" --rank relevance
  [ "$(json_eval 'd["id"]' <<<"$output")" = downtime ]
  run "$LEDGER" search --project demo --query "port or downtime?"
  [ "${#lines[@]}" -eq 2 ] # match: "port" is inside "export" and "report"
  [ "$(json_eval 'd["id"]' <<<"${lines[0]}")" = export ]
}

@test "HARNESS_JUDGMENT_RANK=relevance opts a hook in; the flag wins; a bad value is a usage error" {
  add demo "Use Redis or Postgres for the job queue?" --id queue
  add demo "Export orders for accounting" --id export
  HARNESS_JUDGMENT_RANK=relevance run "$LEDGER" recall --project demo --question "Which job queue: Redis or Postgres?"
  [ "$status" -eq 0 ]
  [ "$(json_eval '" ".join(i["mem_id"] for i in d)' <<<"$output")" = "judgment-ledger:queue" ]
  HARNESS_JUDGMENT_RANK=relevance run "$LEDGER" recall --project demo --question "Which job queue: Redis or Postgres?" --rank match
  [ "$(json_eval 'len(d)' <<<"$output")" -eq 2 ] # match: "or" is inside "orders" and "for"
  HARNESS_JUDGMENT_RANK=bm25 run --separate-stderr "$LEDGER" search --project demo --query queue
  [ "$status" -eq 64 ]
  [ -z "$output" ]
  [ "$stderr" = "judgment-ledger: search: rank: HARNESS_JUDGMENT_RANK must be match or relevance, not 'bm25'" ]
  run --separate-stderr "$LEDGER" recall --project demo --question q --rank fuzzy
  [ "$status" -eq 64 ]
  [ "$stderr" = "judgment-ledger: recall: rank: must be match, relevance or answers, not 'fuzzy'" ]
}

@test "recall --rank answers: only the decision that answers, the newest of a reversal; nothing for an unrelated question" {
  # docs/judgment-ledger.md, "judgment-ledger.sh recall": the hook's recall (Recall for automatic injection)
  mkdir -p "${HARNESS_JUDGMENT_LEDGER%/*}"
  local q day id answer
  while IFS='|' read -r day id answer q; do  # decisions of a year, as append writes them
    printf '{"id":"%s","project":"demo","decided_at":"2025-%sT10:00:00Z","question":"%s","answer":"%s","rationale":"","card_ref":"c","tags":[]}\n' \
      "$id" "$day" "$q" "$answer" >>"$HARNESS_JUDGMENT_LEDGER"
  done <<'DECISIONS'
01-10|old|redis|Use Redis or Postgres for the job queue?
02-11|logs|30 days|How long do we retain application logs?
03-12|pages|cursor|Offset or cursor pagination for list endpoints?
09-13|new|postgres|Move the job queue from Redis to Postgres?
DECISIONS
  run --separate-stderr "$LEDGER" recall --project demo --question "Which job queue: Redis or Postgres?" --rank answers
  [ "$status" -eq 0 ] && [ -z "$stderr" ]
  [ "$(json_eval '" ".join(i["mem_id"] for i in d)' <<<"$output")" = "judgment-ledger:new" ]
  run --separate-stderr "$LEDGER" recall --project demo --question "Which CSS framework for the marketing site?" --rank answers
  [ "$status" -eq 0 ] && [ "$output" = "[]" ]
  run "$LEDGER" recall --project demo --question "Which CSS framework for the marketing site?"
  [ "$output" != "[]" ] # the string match still finds "for the"
}

@test "relevance: a Korean question finds an English decision; HARNESS_JUDGMENT_LEXICON adds a team's words" {
  add demo "Run schema migrations automatically during deploy?" --id migrate
  add demo "Print the article number on the packing slip?" --id slip
  run "$LEDGER" recall --project demo --question "배포할 때 데이터베이스 마이그레이션을 돌려도 되나요?" --rank relevance
  [ "$status" -eq 0 ]
  [ "$(json_eval '" ".join(i["mem_id"] for i in d)' <<<"$output")" = "judgment-ledger:migrate" ]
  run "$LEDGER" search --project demo --query "SKU" --rank relevance
  [ -z "$output" ]
  printf '# our words\nsku, article number\n' >"$BATS_TEST_TMPDIR/team.txt"
  HARNESS_JUDGMENT_LEXICON="$BATS_TEST_TMPDIR/team.txt" run "$LEDGER" search --project demo --query "SKU" --rank relevance
  [ "$(json_eval 'd["id"]' <<<"$output")" = slip ]
  printf 'sku\n' >"$BATS_TEST_TMPDIR/bad.txt"
  HARNESS_JUDGMENT_LEXICON="$BATS_TEST_TMPDIR/bad.txt" run --separate-stderr "$LEDGER" search --project demo --query "SKU" --rank relevance
  [ "$status" -eq 64 ]
  [ -z "$output" ]
  [ "$stderr" = "judgment-ledger: search: lexicon: HARNESS_JUDGMENT_LEXICON: $BATS_TEST_TMPDIR/bad.txt: line 1: a group needs at least two entries separated by commas" ]
}

@test "recall cuts a long question to 117 characters plus ..." {
  long="$(printf 'q%.0s' $(seq 1 130))"
  add demo "$long"
  run "$LEDGER" recall --project demo --question "$long"
  [ "$(json_eval 'd[0]["summary"]' <<<"$output")" = "${long:0:117}..." ]
}

@test "unknown subcommand and help" {
  run "$LEDGER" frobnicate
  [ "$status" -eq 64 ]
  [[ "$output" == *"unknown subcommand frobnicate"* ]]
  run "$LEDGER" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"append --project P"* ]]
}

@test "without the dependencies append is skipped and search says how to install" {
  python3 -m venv --without-pip "$BATS_TEST_TMPDIR/bare"
  export HARNESS_PYTHON="$BATS_TEST_TMPDIR/bare/bin/python"
  run --separate-stderr add demo q
  [ "$status" -eq 0 ]
  [[ "$stderr" == "judgment-ledger: append skipped (missing Python dependencies: jsonschema, python-ulid in "* ]]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
  run --separate-stderr "$LEDGER" search --project demo --query q
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"run bash scripts/setup.sh"* ]]
}

@test "fail-open: a crashing, a signalled and a missing interpreter each give one append skipped line, exit 0" {
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/l.jsonl"
  crash="$BATS_TEST_TMPDIR/crash-python"
  printf '#!/bin/sh\necho "Traceback (most recent call last):" >&2\necho "RuntimeError: boom" >&2\nexit 1\n' >"$crash"
  killed="$BATS_TEST_TMPDIR/killed-python"
  printf '#!/bin/sh\nkill -KILL $$\n' >"$killed"
  chmod +x "$crash" "$killed"
  HARNESS_PYTHON="$crash" run "$LEDGER" append --project p --question q --answer a --card-ref c
  [ "$status" -eq 0 ]
  [ "$output" = "judgment-ledger: append skipped (Python exited 1: RuntimeError: boom)" ]
  HARNESS_PYTHON="$killed" run "$LEDGER" append --project p --question q --answer a --card-ref c
  [ "$status" -eq 0 ]
  [ "$output" = "judgment-ledger: append skipped (killed by signal KILL)" ]
  HARNESS_PYTHON="$BATS_TEST_TMPDIR/none" run "$LEDGER" append --project p --question q --answer a --card-ref c
  [ "$status" -eq 0 ]
  [[ "$output" == "judgment-ledger: append skipped (Python interpreter not found: "* ]]
  HARNESS_PYTHON="$crash" run "$LEDGER" append --project p --nope x
  [ "$status" -eq 1 ]  # a usage error is the caller's: rejected, answered by Bash alone
  [ "$output" = "judgment-ledger: append rejected (--nope: unknown flag)" ]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "append --input - stores a 200 KiB question once, byte-exact, as record-answer sends it" {
  export HARNESS_JUDGMENT_LEDGER="$BATS_TEST_TMPDIR/l.jsonl"
  q="$(head -c 204800 /dev/zero | tr '\0' 'x')"
  printf '{"project":"p","question":"%s","answer":"a","card_ref":"c"}' "$q" | "$LEDGER" append --input -
  [ "$(wc -l <"$HARNESS_JUDGMENT_LEDGER")" -eq 1 ]
  printf '"question":"%s","answer":"a"' "$q" >"$BATS_TEST_TMPDIR/pattern"
  [ "$(grep -c -F -f "$BATS_TEST_TMPDIR/pattern" "$HARNESS_JUDGMENT_LEDGER")" -eq 1 ]
}

@test "shellcheck: every script is clean" {
  command -v shellcheck || skip "shellcheck not installed (bash scripts/setup.sh installs it)"
  run shellcheck -x "$ROOT"/scripts/*.sh "$ROOT"/scripts/lib/*.sh "$ROOT/scripts/ha" "$ROOT/scripts/installed/judgment-ledger"
  [ "$status" -eq 0 ]
}

@test "append refuses a record over the 4 MiB cap (exit 1, naming the cap) and writes nothing" {
  big="$BATS_TEST_TMPDIR/big.json"
  python3 -c 'import json,sys; json.dump({"project":"demo","question":"q"*(5<<20),"answer":"a","card_ref":"c"}, open(sys.argv[1],"w"))' "$big"
  run --separate-stderr "$LEDGER" append --input - < "$big"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: append rejected (record: "*" over the record cap of 4 MiB; "* ]]
  [ ! -e "$HARNESS_JUDGMENT_LEDGER" ]
}

@test "a line over the cap is skipped by search and named by verify" {
  add demo "Which queue first?"
  python3 -c 'import sys; open(sys.argv[1],"a").write("{\"project\":\"demo\",\"question\":\"queue " + "x"*(5<<20) + "\"}\n")' "$HARNESS_JUDGMENT_LEDGER"
  add demo "Which queue now?"
  run --separate-stderr "$LEDGER" search --project demo --query queue
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
  run --separate-stderr "$LEDGER" verify
  [ "$status" -eq 1 ]
  [[ "$output" == "line 2: 524"????" bytes, longer than the record cap of 4 MiB"* ]]
}

@test "verify on a path with no ledger says so, with how the path was chosen (exit 1)" {
  run --separate-stderr "$LEDGER" verify
  [ "$status" -eq 1 ]
  [ "$stderr" = "judgment-ledger: verify: no ledger at $HARNESS_JUDGMENT_LEDGER (chosen from \$HARNESS_JUDGMENT_LEDGER; see judgment-ledger verify --help); the first append creates it" ]
  run --separate-stderr "$LEDGER" verify --json
  [ "$status" -eq 1 ]
  [ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["ok"], d["missing"])' <<<"$output")" = "False True" ]
}

@test "list pages newest first and says the next page; show one decision; both of the project only" {
  for n in 1 2 3; do add shop "Question $n?" --id "shop-$n"; done
  add blog "Blog question?" --id blog-1
  run --separate-stderr "$LEDGER" list --project shop --limit 2
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
  [[ "${lines[0]}" == *"  shop-3  Question 3? → yes" ]]
  [[ "${lines[1]}" == *"  shop-2  Question 2? → yes" ]]
  [[ "$stderr" == "judgment-ledger: list: next page: judgment-ledger list --project shop --limit 2 --after "*Z_* ]]
  next="${stderr##* --after }"
  run --separate-stderr "$LEDGER" list --project shop --limit 2 --after "$next"
  [ "$status" -eq 0 ]
  [[ "$output" == *"  shop-1  Question 1? → yes" ]]
  [ -z "$stderr" ]
  run --separate-stderr "$LEDGER" show shop-2 --project shop --format json
  [ "$status" -eq 0 ]
  [[ "$output" == '{"id":"shop-2","project":"shop",'* ]]
  run --separate-stderr "$LEDGER" show blog-1 --project shop
  [ "$status" -eq 1 ]
  [[ "$stderr" == "judgment-ledger: show: no decision 'blog-1' in project 'shop' "* ]]
}

@test "list and show: usage errors exit 64 with the flag named; did-you-mean for a subcommand" {
  run --separate-stderr "$LEDGER" list --project shop --limit 0
  [ "$status" -eq 64 ]
  [ "$stderr" = "judgment-ledger: list: limit: must be a whole number from 1 to 100, not '0'" ]
  run --separate-stderr "$LEDGER" show --project shop
  [ "$status" -eq 64 ]
  [[ "$stderr" == "judgment-ledger: show: missing ID"* ]]
  run --separate-stderr "$LEDGER" lst
  [ "$status" -eq 64 ]
  [ "$stderr" = "judgment-ledger: unknown subcommand lst (did you mean 'list'?); see judgment-ledger --help" ]
  run "$LEDGER" show --help
  [ "$status" -eq 0 ]
  [[ "$output" == "usage: judgment-ledger show ID --project P [--json]"* ]]
}

@test "prime --json and --format json give the digest's content" {
  add shop "Keep the nightly export?" --id e-1
  run --separate-stderr "$LEDGER" prime --project shop --format json
  [ "$status" -eq 0 ]
  [[ "$output" == '{"project":"shop","decisions":[{"question":"Keep the nightly export?","answer":"yes","decided_at":"'*'","id":"e-1"}],"recall":"judgment-ledger recall --project shop --question TEXT"}' ]]
}

@test "merge: git runs it as the ledger's merge driver; both sides' records, no markers" {
  export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@x GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@x
  unset HARNESS_JUDGMENT_LEDGER
  repo="$BATS_TEST_TMPDIR/shop"
  git init -q -b main "$repo"
  cd "$repo"
  git config merge.judgment-ledger.driver "'$LEDGER' merge %O %A %B"
  echo '.claude/state/judgment-ledger.jsonl merge=judgment-ledger' > .git/info/attributes
  add shop "Which queue?"
  git add -A && git commit -qm base
  git checkout -qb other
  add shop "Which cache?"
  git commit -qam other
  git checkout -q main
  add shop "Which logger?"
  git commit -qam main
  run git merge -q --no-edit other
  [ "$status" -eq 0 ]
  ! grep -q '^<<<<<<<' .claude/state/judgment-ledger.jsonl
  [ "$(wc -l < .claude/state/judgment-ledger.jsonl)" -eq 3 ]
  run "$LEDGER" verify
  [ "$status" -eq 0 ]
  [[ "$output" == "ok: 3 records in "* ]]
}
