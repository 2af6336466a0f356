#!/usr/bin/env bats
# judgment-kit as a user runs it (docs/claude-kit.md): `hook --help` is help, and a hook run by
# full path from a venv that is not on PATH finds the commands installed beside it.

load helpers
bats_require_minimum_version 1.5.0

setup() {
  export HOME="$BATS_TEST_TMPDIR/home"
  mkdir -p "$HOME" "$BATS_TEST_TMPDIR/shop" "$BATS_TEST_TMPDIR/no-plugin"
  VENV_KIT="$ROOT/.venv/bin/judgment-kit"  # the test set-up installs the console scripts there
}

@test "judgment-kit hook --help prints the usage on stdout, exit 0, no error" {
  for kit in "$ROOT/scripts/judgment-kit" "$VENV_KIT"; do
    for flag in --help -h; do
      run --separate-stderr "$kit" hook "$flag"
      [ "$status" -eq 0 ]
      [ -z "$stderr" ]
      [[ "${lines[0]}" == "usage: judgment-kit hook session-start|ask-recall|ask-capture" ]]
    done
  done
  # no interpreter: the Bash layer says so (exit 70), it never claims to have run a hook
  HARNESS_PYTHON="$BATS_TEST_TMPDIR/no-such-python" run --separate-stderr "$ROOT/scripts/judgment-kit" hook --help
  [ "$status" -eq 70 ]
  [[ "$stderr" == "judgment-kit: Python interpreter not found: $BATS_TEST_TMPDIR/no-such-python;"* ]]
}

@test "a hook run by full path from a venv off PATH uses the judgment-ledger beside it" {
  [ -x "$ROOT/.venv/bin/judgment-ledger" ]
  ledger="$BATS_TEST_TMPDIR/ledger.jsonl"
  HARNESS_JUDGMENT_LEDGER="$ledger" "$LEDGER" append --project shop --question 'Queue on Postgres?' \
    --answer yes --card-ref c.json
  # PATH without the venv, an empty HOME, and a plugin folder with no scripts/: only the venv's
  # bin folder holds the commands
  run --separate-stderr env -i PATH=/usr/bin:/bin HOME="$HOME" HARNESS_JUDGMENT_LEDGER="$ledger" \
    CLAUDE_PLUGIN_ROOT="$BATS_TEST_TMPDIR/no-plugin" CLAUDE_PROJECT_DIR="$BATS_TEST_TMPDIR/shop" \
    "$VENV_KIT" hook session-start </dev/null
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "## Recent judgments: shop" ]
  [[ "$output" == *"- Queue on Postgres? → **yes**"* ]]
  [[ "$output" != *"not installed"* ]]
}
