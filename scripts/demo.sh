#!/usr/bin/env bash
# A short demo of the main job, in a throw-away repository:
#   1. the Judgment Ledger: record a card's answer, search and recall past decisions;
#   2. the decision history: start a goal, run a check, add judgments, read current and show.
# Each command is shown shell-quoted before it runs (copy it into a shell as it is); in bold on
# a terminal, plain when stdout is not one or NO_COLOR is set (tests/bats/demo.bats).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
bash "$root/scripts/setup.sh" --runtime   # the runtime only: no npm, no test tools

work="$(mktemp -d "${TMPDIR:-/tmp}/judgment-demo.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export HARNESS_JUDGMENT_LEDGER="$work/ledger.jsonl"
export HARNESS_MEM_HOME="$work/no-mem"   # harness-mem is not running: record-answer goes on fail-open
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.invalid
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.invalid
ledger="$root/scripts/judgment-ledger.sh" card="$root/scripts/judgment-card.sh" ha="$root/scripts/ha"

# Bold only on a terminal, and never when NO_COLOR is set to anything (its usual convention)
if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
# One word as a POSIX shell reads it back: bare when it is safe, else in single quotes (UTF-8
# text stays readable, unlike printf %q's $'\NNN' escapes in some locales)
quote() {
  if [[ -n "$1" && "$1" =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then printf '%s' "$1"
  else local q="'\\''"; printf "'%s'" "${1//\'/$q}"; fi
}
# Print a command the way it can be copied into a shell and run
step() {
  local line='' word
  for word in "$@"; do line+="${line:+ }$(quote "$word")"; done
  printf '\n%s$ %s%s\n' "$bold" "$line" "$plain"
}
run() { step "$@"; "$@"; }

printf '== Judgment Ledger v1 ==\n'
step export "HARNESS_JUDGMENT_LEDGER=$HARNESS_JUDGMENT_LEDGER" "HARNESS_MEM_HOME=$HARNESS_MEM_HOME"
cat >"$work/card.json" <<'JSON'
{"question": "Should empty input return 0 or raise?",
 "options": [{"id": "zero", "label": "Return 0", "consequence": "callers never see an error"},
             {"id": "raise", "label": "Raise", "consequence": "callers must handle empty files"}],
 "recommendation": "zero", "confidence": "medium", "impact": "counting API",
 "diff_summary": "count() returns 0 for an empty file"}
JSON
run "$card" should-issue --reason tradeoff
run "$card" validate "$work/card.json"
run "$card" record-answer "$work/card.json" --answer zero --why "empty files are common in CI" --project demo --session s-1
run "$ledger" append --project demo --question "Keep the CSV export?" --answer "yes" --card-ref cards/csv.json --tags export,csv
run "$ledger" append --project other --question "Empty input?" --answer "raise" --card-ref cards/x.json
run "$ledger" search --project demo --query "empty input"
run "$ledger" recall --project demo --question "What should empty input return?"
run "$card" recall "$work/card.json" --project demo

printf '\n== decision history (ha history) ==\n'
repo="$work/repo"
mkdir -p "$repo/src" "$repo/docs/specs"
git -C "$repo" init -q -b main
printf 'package count\n' >"$repo/src/count.go"
cp -R "$root/tests/fixtures/goals/empty-input" "$repo/docs/specs/empty-input"
git -C "$repo" add -A && git -C "$repo" commit -qm "goal: empty input"
step cd "$repo"
cd "$repo"
goal=docs/specs/empty-input
run "$ha" capabilities
run "$ha" start "$goal" --request "빈 입력에서도 개수를 세 주세요"
run "$ha" check "$goal" AC-1
run "$ha" history "$goal" add --kind 원인 --status 가설 --summary "첫 항목이 항상 있다고 가정했다" --target AC-1 --ref run:2 --request-id cause-1
run "$ha" history "$goal" add --kind 관측 --summary "빈 파일에서 오류가 재현된다" --target AC-1 --checked-ref file:src/count.go
run "$ha" history "$goal" add --kind 결정 --summary "빈 입력이면 0을 반환한다" --target T001 --builds-on D1 --builds-on D2
run "$ha" history "$goal" add --kind 원인 --status 기각 --summary "첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다" --target AC-1 --supersedes D1
run "$ha" history "$goal" add --kind 원인 --status 가설 --summary "첫 항목이 항상 있다고 가정했다" --target AC-1 --ref run:2 --request-id cause-1
run "$ha" history "$goal" current
run "$ha" history "$goal" show D3
printf '\ndemo finished\n'
