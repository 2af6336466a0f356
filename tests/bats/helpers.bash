# shellcheck shell=bash
# Shared bats helpers: a real repository and goal per test, the real entry points.

ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd -P)"
HA="$ROOT/scripts/ha"
LEDGER="$ROOT/scripts/judgment-ledger.sh"
CARD="$ROOT/scripts/judgment-card.sh"
FIXTURE_GOAL="$ROOT/tests/fixtures/goals/empty-input"

export GIT_AUTHOR_NAME=Test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=Test GIT_COMMITTER_EMAIL=test@example.invalid
export GIT_CONFIG_NOSYSTEM=1

# make_repo: a fresh repository with one commit in $BATS_TEST_TMPDIR/repo; cd into it.
make_repo() {
  REPO="$BATS_TEST_TMPDIR/repo"
  mkdir -p "$REPO/src"
  git -C "$REPO" init -q -b main
  printf 'demo\n' >"$REPO/README.md"
  printf 'package count\n' >"$REPO/src/count.go"
  git -C "$REPO" add -A
  git -C "$REPO" commit -qm initial
  cd "$REPO" || return 1
}

# make_goal: copy the fixture goal to docs/specs/empty-input and commit it.
make_goal() {
  GOAL=docs/specs/empty-input
  mkdir -p "$REPO/docs/specs"
  cp -R "$FIXTURE_GOAL" "$REPO/$GOAL"
  git -C "$REPO" add -A
  git -C "$REPO" commit -qm goal
}

# start_goal: make_repo + make_goal, then `ha start` and `ha check AC-1` (run seq 2) and
# commit the run record, as the example in docs/history-views.md begins. $1: the request quote.
start_goal() {
  make_repo
  make_goal
  "$HA" start "$GOAL" --request "${1:-빈 입력 처리}" >/dev/null
  "$HA" check "$GOAL" AC-1 >/dev/null
  git add -A && git commit -qm "start and check"
}

# json_eval EXPR [FILE]: evaluate the Python expression EXPR with `d` bound to the JSON read
# from FILE (or stdin) and `loads` to json.loads; print a string as is, anything else as
# compact JSON. The test set-up's interpreter (.venv) does it, so the suites need no jq.
JSON_PY="$ROOT/.venv/bin/python"
json_eval() {
  "$JSON_PY" -c '
import json, sys
text = open(sys.argv[2], encoding="utf-8").read() if len(sys.argv) > 2 else sys.stdin.read()
v = eval(sys.argv[1], {"d": json.loads(text), "loads": json.loads})
print(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, separators=(",", ":")))
' "$@"
}
