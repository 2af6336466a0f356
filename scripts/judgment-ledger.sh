#!/usr/bin/env bash
# judgment-ledger.sh: the Judgment Ledger v1 (append | search | recall | list | show | prime |
# verify | merge), and the
# installed command `judgment-ledger` (scripts/installed/launcher runs this same file).
#
# This script owns the command line: subcommands, flags, --help, usage errors and their exit
# codes, and the fail-open mapping of append and prime (docs/internals.md, "Two layers"). The
# checked values go to one Python job (judgment_toolkit.judgment.jobs) as positional arguments.
set -euo pipefail

self="$(readlink -f "${BASH_SOURCE[0]}")"  # through symlinks too
here="${self%/*}"  # (no dirname process: every call pays for each one)
# shellcheck source-path=SCRIPTDIR source=lib/py.sh
source "$here/lib/py.sh"
# shellcheck source-path=SCRIPTDIR source=lib/cli.sh
source "$here/lib/cli.sh"

TOOL=judgment-ledger
COMMANDS=(append search recall list show prime verify merge)
MAX_RESULTS=3   # search and recall: the contract's top 3 (judgment.search.MAX_LIMIT)
PRIME_MAX=50    # judgment.prime.MAX_LIMIT
LIST_MAX=100    # judgment.browse.MAX_LIMIT
LIST_LIMIT=20   # judgment.browse.DEFAULT_LIMIT
# judgment.browse.CURSOR: the sort key of a page's last decision
CURSOR_RE='^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z)?_[0-9]{1,18}$'

# usage_error MESSAGE: "judgment-ledger: SUBCOMMAND: MESSAGE", exit 64; append's own is a
# rejected record (exit 1), as the contract names it.
usage_error() {
  if [[ "$SUBCOMMAND" == append ]]; then
    cli_die "$TOOL" "append rejected ($1)" 1
  fi
  cli_die "$TOOL" "$SUBCOMMAND: $1"
}

# parse "SINGLE..." "SWITCHES..." [MAX_POSITIONALS] -- ARGS...: cli_parse, the subcommand's
# --help, and --format json as --json (every subcommand prints JSON, or can).
parse() {
  local single="$1 format" switches="$2 json" max=0
  shift 2
  if [[ "$1" != -- ]]; then max="$1"; shift; fi
  shift
  cli_parse "$single" "$switches" "$max" "$@"
  if ((CLI_WANTS_HELP)); then cli_help "$TOOL $SUBCOMMAND"; exit 0; fi
  cli_json
}

# whole_number VALUE MAX: VALUE is a plain decimal from 1 to MAX.
whole_number() {
  [[ "$1" =~ ^[0-9]{1,18}$ ]] && ((10#$1 >= 1 && 10#$1 <= $2))
}

cmd_append() {
  parse "project question answer card_ref rationale tags id input" "" -- "$@"
  local pairs=() field
  if [[ -v "ARG[input]" ]]; then
    [[ "${ARG[input]}" == - ]] || usage_error "input: must be - (one JSON record on stdin), not '${ARG[input]}'"
    ((${#ARG[@]} == 1 + ${ARG[json]:-0})) || usage_error "input: --input - takes the record from stdin; give no field flags with it"
    pairs=(-)
  else
    for field in project question answer card_ref rationale tags id; do
      if [[ -v "ARG[$field]" ]]; then pairs+=("$field" "${ARG[$field]}"); fi
    done
  fi
  py_guarded "$TOOL: append skipped" append "${ARG[json]:-0}" "${pairs[@]}"
}

# read_args TEXT_FIELD: search's and recall's flags, checked.
read_args() {
  local single="project $1 rank"
  [[ "$1" == query ]] && single+=" limit"
  parse "$single" "" -- "${@:2}"
  cli_require project "$1"
  cli_nonempty project
  if [[ -v "ARG[limit]" ]] && ! whole_number "${ARG[limit]}" "$MAX_RESULTS"; then
    usage_error "limit: must be a whole number from 1 to $MAX_RESULTS (at most $MAX_RESULTS results), not '${ARG[limit]}'"
  fi
}

cmd_search() {
  read_args query "$@"
  local mode
  mode="$(cli_rank_mode)"
  py_exec "$TOOL" search "${ARG[project]}" "${ARG[query]}" "${ARG[limit]:-$MAX_RESULTS}" "$mode"
}

cmd_recall() {
  read_args question "$@"
  local mode
  mode="$(cli_recall_mode)"
  py_exec "$TOOL" recall "${ARG[project]}" "${ARG[question]}" "$mode"
}

cmd_list() {
  parse "project limit after" "" -- "$@"
  cli_require project
  local limit="${ARG[limit]:-$LIST_LIMIT}"
  whole_number "$limit" "$LIST_MAX" || usage_error "limit: must be a whole number from 1 to $LIST_MAX, not '$limit'"
  if [[ -v "ARG[after]" && ! "${ARG[after]}" =~ $CURSOR_RE ]]; then
    usage_error "after: not a cursor: '${ARG[after]}'; give the one the previous page printed (its \"next\" with --json)"
  fi
  py_exec "$TOOL" list "${ARG[project]}" "$((10#$limit))" "${ARG[after]:-}" "${ARG[json]:-0}"
}

cmd_show() {
  parse "project" "" 1 -- "$@"
  ((${#POS[@]})) || usage_error "missing ID (the decision's id, as list prints it)"
  cli_require project
  [[ -n "${POS[0]}" ]] || usage_error "ID must not be empty"
  py_exec "$TOOL" show "${POS[0]}" "${ARG[project]}" "${ARG[json]:-0}"
}

cmd_prime() {
  parse "project limit" "" -- "$@"
  cli_require project
  local limit="${ARG[limit]:-5}"
  whole_number "$limit" "$PRIME_MAX" || usage_error "limit: must be a whole number from 1 to $PRIME_MAX, not '$limit'"
  py_guarded "$TOOL: prime: skipped" prime "${ARG[project]}" "$((10#$limit))" "${ARG[json]:-0}"
}

cmd_verify() {
  parse "" "" -- "$@"
  py_exec "$TOOL" verify "${ARG[json]:-0}"
}

# merge BASE OURS THEIRS: git's merge driver for a shared ledger (git passes %O %A %B; see
# docs/team-memory.md, "What the merge does"); the result replaces OURS.
cmd_merge() {
  cli_parse "" "" 3 "$@"
  if ((CLI_WANTS_HELP)); then cli_help "$TOOL $SUBCOMMAND"; exit 0; fi
  ((${#POS[@]} == 3)) || usage_error "needs BASE OURS THEIRS (git's %O %A %B), got ${#POS[@]} argument(s)"
  local file
  for file in "${POS[@]}"; do
    [[ -f "$file" ]] || usage_error "not a file: '$file'"
  done
  py_exec "$TOOL" merge "${POS[@]}"
}

SUBCOMMAND="${1:-}"
case "$SUBCOMMAND" in
  -h|--help|help) cli_help "$TOOL" ;;
  --version) printf '%s %s\n' "$TOOL" "$(cli_version)" ;;
  append|search|recall|list|show|prime|verify|merge) shift; "cmd_$SUBCOMMAND" "$@" ;;
  "") printf '%s: unknown subcommand (none)\n' "$TOOL" >&2; cli_help "$TOOL" >&2; exit "$CLI_USAGE" ;;
  *) cli_die "$TOOL" "unknown subcommand $SUBCOMMAND$(cli_did_you_mean "$SUBCOMMAND" "${COMMANDS[@]}"); see $TOOL --help" ;;
esac
