#!/usr/bin/env bats
# A newcomer's first wrong turns with `ha`, as they type them: the error says what to do next.

bats_require_minimum_version 1.5.0
load helpers

setup() {
  export HOME="$BATS_TEST_TMPDIR/home"
  mkdir -p "$HOME"
  unset HARNESS_PYTHON
}

@test "ha start on a folder that does not exist points at ha new, which makes it" {
  make_repo
  run --separate-stderr "$HA" start docs/specs/x --request 'fix it'
  [ "$status" -eq 64 ]
  [ "$stderr" = "ha: goal 'docs/specs/x': no such folder; make a goal there with \`ha new docs/specs/x\` (its SPEC.md and PLAN.md to fill in)" ]
  run --separate-stderr "$HA" start 'docs/specs/two words' --request 'fix it'
  [[ "$stderr" == *"\`ha new 'docs/specs/two words'\`"* ]]
  # the hint works as printed
  "$HA" new docs/specs/x >/dev/null
  run --separate-stderr "$HA" start docs/specs/x --request 'fix it'
  [ "$status" -eq 0 ]
}

@test "ha history add --kind in English: the kinds with their meanings, and the kind meant" {
  start_goal
  run --separate-stderr "$HA" history "$GOAL" add --kind decision --summary 's'
  [ "$status" -eq 64 ]
  [ "$stderr" = "ha: invalid_input: kind 'decision' must be one of 관측 (observation), 원인 (cause), 결정 (decision), 조치 (action), 검증 (verification), 막힘 (blocked), 재개 (resumed) (did you mean '결정'?)" ]
  run --separate-stderr "$HA" history "$GOAL" add --kind Blocked --summary 's'
  [[ "$stderr" == *"(did you mean '막힘'?)" ]]
  run --separate-stderr "$HA" history "$GOAL" add --kind obsrvation --summary 's'
  [[ "$stderr" == *"(did you mean '관측'?)" ]]
  run --separate-stderr "$HA" history "$GOAL" add --kind 결졍 --summary 's'
  [[ "$stderr" == *"(did you mean '결정'?)" ]]
  run --separate-stderr "$HA" history "$GOAL" add --kind zebra --summary 's'
  [[ "$stderr" == *"재개 (resumed)" ]]
  # nothing was stored by the refusals; the kind suggested is accepted
  run --separate-stderr "$HA" history "$GOAL" add --kind 결정 --summary 's'
  [ "$status" -eq 0 ]
  [[ "$output" == *D1* ]]
}

@test "the hints hold with no interpreter: the Bash layer says so instead" {
  make_repo
  HARNESS_PYTHON="$BATS_TEST_TMPDIR/no-such-python" run --separate-stderr "$HA" start docs/specs/x --request q
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"$BATS_TEST_TMPDIR/no-such-python"* ]]
  [ ! -e docs/specs/x ]
}
