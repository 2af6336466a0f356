#!/usr/bin/env bash
# judgment-card.sh: judgment-card.v1 decision cards
# (should-issue | validate | record-answer | recall).
#
# Bash only dispatches; every rule lives in pylib/judgment_toolkit/judgment (one Python process per call;
# record-answer appends through judgment-ledger.sh append, as the contract requires).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/py.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/py.sh"  # through symlinks too

usage() {
  cat <<'USAGE'
usage:
  judgment-card.sh should-issue --reason R [--floor-category C]
  judgment-card.sh validate CARD
  judgment-card.sh record-answer CARD --answer OPTION_ID --why TEXT --project P --session S
  judgment-card.sh recall CARD --project P
  judgment-card.sh render CARD|- [--format md|html]
USAGE
}

run_card() {
  local py
  py="$(harness_python_or_fail judgment-card)" || return 1
  "$py" -m judgment_toolkit.judgment.cli card "$@"
}

cmd_should_issue() { run_card should-issue "$@"; }
cmd_validate() { run_card validate "$@"; }
cmd_record_answer() { run_card record-answer "$@"; }
cmd_recall() { run_card recall "$@"; }
cmd_render() { run_card render "$@"; }

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    should-issue) cmd_should_issue "$@" ;;
    validate) cmd_validate "$@" ;;
    record-answer) cmd_record_answer "$@" ;;
    recall) cmd_recall "$@" ;;
    render) cmd_render "$@" ;;
    -h | --help | help) usage ;;
    *)
      printf 'judgment-card: unknown subcommand %s\n' "${cmd:-(none)}" >&2
      usage >&2
      return 1
      ;;
  esac
}

main "$@"
