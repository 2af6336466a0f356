#!/usr/bin/env bash
# judgment-card.sh: judgment-card.v1 decision cards (should-issue | validate | record-answer |
# recall | render), and the installed command `judgment-card` (scripts/installed/launcher runs
# this same file).
#
# This script owns the command line (docs/internals.md, "Two layers"); should-issue is argument
# logic only and is answered here, with no Python. record-answer posts the harness-mem
# checkpoint and then records through `judgment-ledger.sh append --input -`, as Judgment Ledger
# v1 ("Wiring") names it; both steps are fail-open.
set -euo pipefail

self="$(readlink -f "${BASH_SOURCE[0]}")"  # through symlinks too
here="${self%/*}"  # (no dirname process: every call pays for each one)
# shellcheck source-path=SCRIPTDIR source=lib/py.sh
source "$here/lib/py.sh"
# shellcheck source-path=SCRIPTDIR source=lib/cli.sh
source "$here/lib/cli.sh"

TOOL=judgment-card
COMMANDS=(should-issue validate record-answer recall render)
ISSUE_REASONS=" dod-ambiguous scope-exceeded tradeoff "

usage_error() {
  cli_die "$TOOL" "$SUBCOMMAND: $1"
}

# parse "SINGLE..." "SWITCHES..." MAX_POSITIONALS ARGS...: cli_parse, and the --help.
parse() {
  cli_parse "$1" "$2" "$3" "${@:4}"
  if ((CLI_WANTS_HELP)); then cli_help "$TOOL $SUBCOMMAND"; exit 0; fi
}

# card_args "SINGLE..." "SWITCHES..." ARGS...: one CARD positional and the flags, each required
# flag given and not empty (the optional ones are listed after a `|`).
card_args() {
  local required="${1%%|*}" optional=""
  [[ "$1" == *"|"* ]] && optional="${1#*|}"
  parse "$required $optional" "$2" 1 "${@:3}"
  ((${#POS[@]})) || usage_error "missing CARD (path of a judgment-card.v1 JSON file)"
  # shellcheck disable=SC2086  # the field lists are words
  cli_require $required
  cli_nonempty project session answer
}

cmd_should_issue() {
  parse "reason floor_category" "" 0 "$@"
  if [[ -n "${ARG[floor_category]:-}" ]]; then
    printf 'HARD_STOP: floor (%s)\n' "${ARG[floor_category]}"
    exit 2
  fi
  cli_require reason
  if [[ "$ISSUE_REASONS" == *" ${ARG[reason]} "* && "${ARG[reason]}" != *" "* ]]; then
    printf 'ISSUE_CARD\n'
    exit 0
  fi
  printf 'NO_CARD: reason not in enum\n'
  exit 1
}

cmd_validate() {
  card_args "" "" "$@"
  py_exec "$TOOL" card-validate "${POS[0]}"
}

cmd_record_answer() {
  card_args "answer why project session|format" "json" "$@"
  cli_json
  local out outcome doc rec="" rc=0
  # Step 1: the card and answer checked (an invalid one exits 1), the checkpoint posted.
  out="$(py_guarded "$TOOL: record skipped" card-answer "${POS[0]}" "${ARG[answer]}" "${ARG[why]}" \
        "${ARG[project]}" "${ARG[session]}")" || rc=$?
  ((rc == 0)) || exit 1
  [[ "$out" == *$'\n'* ]] || exit 0  # the step could not run (its `record skipped` line is said)
  outcome="${out%%$'\n'*}"
  doc="${out#*$'\n'}"
  # Step 2: the ledger, through the ledger's own entry point. It is fail-open (a failure is
  # exit 0 and one `append skipped` line); its exit 1 is a record the ledger rejects (a
  # question over the record cap, say), which Judgment Ledger v1, section 'Fail-Open', keeps an
  # error of the caller's: exit 1 here too, its `append rejected` line said.
  local appended=0
  rec="$(printf '%s\n' "$doc" | "$here/judgment-ledger.sh" append --input - --json)" || appended=$?
  if [[ -v "ARG[json]" ]]; then
    printf '{"ledger":%s,"harness_mem":"%s"}\n' "${rec:-null}" "$outcome"
  fi
  ((appended != 1)) || exit 1
}

cmd_recall() {
  card_args "project|rank format" "json" "$@"
  cli_json  # it prints JSON either way
  local mode
  mode="$(cli_recall_mode)"
  py_exec "$TOOL" card-recall "${POS[0]}" "${ARG[project]}" "$mode"
}

cmd_render() {
  parse "format" "" 1 "$@"
  ((${#POS[@]})) || usage_error "missing CARD (a judgment-card.v1 JSON file, or - for stdin)"
  local fmt="${ARG[format]:-md}"
  [[ "$fmt" == md || "$fmt" == html ]] || usage_error "format: must be md or html, not '$fmt'"
  py_exec "$TOOL" card-render "${POS[0]}" "$fmt"
}

SUBCOMMAND="${1:-}"
case "$SUBCOMMAND" in
  -h|--help|help) cli_help "$TOOL" ;;
  --version) printf '%s %s\n' "$TOOL" "$(cli_version)" ;;
  should-issue|validate|record-answer|recall|render) shift; "cmd_${SUBCOMMAND//-/_}" "$@" ;;
  "") printf '%s: unknown subcommand (none)\n' "$TOOL" >&2; cli_help "$TOOL" >&2; exit "$CLI_USAGE" ;;
  *) cli_die "$TOOL" "unknown subcommand $SUBCOMMAND$(cli_did_you_mean "$SUBCOMMAND" "${COMMANDS[@]}"); see $TOOL --help" ;;
esac
