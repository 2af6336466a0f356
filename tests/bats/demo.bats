#!/usr/bin/env bats
# scripts/demo.sh as a user runs it: piped (no colour), on a real terminal (python's pty module:
# bold command lines) and on a terminal with NO_COLOR set (no colour). Every command it shows is
# shell-quoted: read back by bash, each line gives the words the demo ran.

load helpers
bats_require_minimum_version 1.5.0

DEMO="$ROOT/scripts/demo.sh"
ESC=$'\033'

# on_pty OUT [ENV=VALUE...]: run the demo on a new pseudo-terminal, its output into OUT.
on_pty() {
  local out="$1"; shift
  env "$@" python3 - "$DEMO" "$out" <<'PY'
import os, pty, sys
demo, out = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", demo])
data = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the terminal's other side closed
        break
    if not chunk:
        break
    data += chunk
_, status = os.waitpid(pid, 0)
open(out, "wb").write(data)
sys.exit(os.waitstatus_to_exitcode(status))
PY
}

# words LINE: the words bash reads from one shown command (after "$ "), one per line, NUL-free.
words() {
  local -a w
  eval "w=( ${1#\$ } )"
  printf '%s\n' "${w[@]}"
}

@test "piped: no colour codes, and every shown command reads back as the words it ran" {
  run --separate-stderr bash "$DEMO"
  [ "$status" -eq 0 ]
  [[ "$output" == *"demo finished"* ]]
  [[ "$output" != *"$ESC"* ]]
  [[ "$stderr" != *"$ESC"* ]]
  local shown
  shown="$(grep -c '^\$ ' <<<"$output")"
  [ "$shown" -eq "$(grep -cE '^(run|step) ' "$DEMO")" ]  # every run and step line is shown
  # words with spaces, quotes and Korean come back as one word each
  line="$(grep -- '--why' <<<"$output")"
  [ "$(words "$line" | sed -n 6p)" = "--why" ]
  [ "$(words "$line" | sed -n 7p)" = "empty files are common in CI" ]
  line="$(grep -- '--supersedes D1' <<<"$output")"
  mapfile -t w < <(words "$line")
  [ "${w[0]}" = "$ROOT/scripts/ha" ]
  [ "${w[5]}" = "원인" ] && [ "${w[8]}" = "--summary" ]
  [ "${w[9]}" = "첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다" ]
  [ "${#w[@]}" -eq 14 ]
  line="$(grep -- ' start docs/specs/empty-input' <<<"$output")"
  [ "$(words "$line" | tail -1)" = "빈 입력에서도 개수를 세 주세요" ]
}

@test "a shown command, pasted into a shell, prints what the demo printed after it" {
  bash "$DEMO" >"$BATS_TEST_TMPDIR/demo.out" 2>/dev/null
  cd "$BATS_TEST_TMPDIR"
  for shown in ' should-issue --reason tradeoff' '/scripts/ha capabilities'; do
    line="$(grep -F -- "$shown" demo.out)"
    expected="$(grep -F -A1 -- "$shown" demo.out | tail -1)"
    [ -n "$expected" ]
    run bash -c "${line#\$ }"
    [ "$status" -eq 0 ]
    [ "$output" = "$expected" ]
  done
}

@test "on a terminal: the shown commands are bold" {
  on_pty "$BATS_TEST_TMPDIR/tty.out"
  grep -q "demo finished" "$BATS_TEST_TMPDIR/tty.out"
  grep -qF "${ESC}[1m\$ $ROOT/scripts/ha capabilities${ESC}[0m" "$BATS_TEST_TMPDIR/tty.out"
}

@test "on a terminal with NO_COLOR set: no colour codes at all" {
  on_pty "$BATS_TEST_TMPDIR/tty.out" NO_COLOR=1
  grep -q "demo finished" "$BATS_TEST_TMPDIR/tty.out"
  grep -qF "\$ $ROOT/scripts/ha capabilities" "$BATS_TEST_TMPDIR/tty.out"
  ! grep -qF "$ESC" "$BATS_TEST_TMPDIR/tty.out"
}
