# shellcheck shell=bash
# The command-line rules of judgment-ledger and judgment-card, in Bash so that help, usage
# errors and their exit codes need no Python at all (docs/internals.md, "Two layers").
#
# Flags are `--name value` or `--name=value` (the next argument is always the value, even when
# it starts with `-`); every flag may be given once; -h/--help wherever a flag may stand prints
# the usage; unknown flags (with a did-you-mean) and stray arguments are usage errors.
# Messages name the field (the flag without `--`, `-` spelled `_`), as the Python modules do.

CLI_HELP_DIR="${BASH_SOURCE[0]%/*}/help"  # sourced by an absolute path
# shellcheck disable=SC2034  # read by the scripts that source this file
CLI_WANTS_HELP=0  # set by cli_parse when -h/--help stood where a flag may
CLI_USAGE=64  # a usage error, wherever it is not append's rejected record (1)

# cli_die TOOL TEXT [CODE]: "TOOL: TEXT" on stderr, exit CODE (default: usage).
cli_die() {
  printf '%s: %s\n' "$1" "$2" >&2
  exit "${3:-$CLI_USAGE}"
}

# cli_help COMMAND: the --help text of "judgment-ledger append", "judgment-card", ...: the
# synopsis, then the facts shared by several commands, each kept in one file (where the
# ledger lives, the two JSON spellings, the usage exit rule), then the exit codes.
cli_help() {
  local text
  text="$(<"$CLI_HELP_DIR/${1// /-}.txt")"
  printf '%s\n' "${text%%exit codes:*}" | sed '$d'
  case "$1" in
    "judgment-ledger merge") ;;  # git's driver: it reads the files it is given, prints no JSON
    judgment-ledger*|"judgment-card record-answer"|"judgment-card recall")
      cat "$CLI_HELP_DIR/ledger-where.txt" ;;
  esac
  case "$1" in
    "judgment-ledger merge") ;;
    "judgment-ledger "*|"judgment-card record-answer"|"judgment-card recall")
      cat "$CLI_HELP_DIR/json.txt" ;;
  esac
  case "$1" in
    judgment-ledger|"judgment-ledger append") cat "$CLI_HELP_DIR/usage-exits.txt" ;;
  esac
  printf 'exit codes:%s\n' "${text#*exit codes:}"
}

# cli_version: the package version, from pyproject.toml in a checkout or the installed
# distribution's METADATA next to the package (one place: pyproject's `version`).
cli_version() {
  local root meta
  root="$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd -P)"
  if [[ -f "$root/pyproject.toml" ]]; then
    sed -n 's/^version = "\(.*\)"$/\1/p' "$root/pyproject.toml" | head -n 1
    return
  fi
  for meta in "$root"/../judgment_toolkit-*.dist-info/METADATA; do
    if [[ -f "$meta" ]]; then
      sed -n 's/^Version: //p' "$meta" | head -n 1
      return
    fi
  done
  printf 'unknown\n'
}

# cli_suggest WORD CHOICE...: print the one choice WORD is a likely typo of (edit distance,
# neighbours swapped count 1; at most 1 for words of up to 4 characters, 2 beyond; no tie), as
# judgment_toolkit.cliargs.suggest decides (tests/python/cli/test_suggest.py compares them).
cli_suggest() {
  local word="$1" choice best="" tie=0 d limit best_d bare
  shift
  ((${#word} > 0 && ${#word} <= 64)) || return 0
  bare="$word"
  while [[ "$bare" == -* ]]; do bare="${bare#-}"; done
  limit=2; ((${#bare} <= 4)) && limit=1
  best_d=$((limit + 1))
  for choice in "$@"; do
    d="$(_cli_distance "$word" "$choice" "$limit")"
    if ((d < best_d)); then best="$choice"; best_d=$d; tie=0
    elif ((d == best_d)); then tie=1
    fi
  done
  if ((tie == 0)) && [[ -n "$best" && "$best" != "$word" ]]; then
    printf '%s\n' "$best"
  fi
}

# cli_did_you_mean WORD CHOICE...: " (did you mean 'X'?)" or nothing (cliargs.did_you_mean).
cli_did_you_mean() {
  local hit
  hit="$(cli_suggest "$@")"
  if [[ -n "$hit" ]]; then printf " (did you mean '%s'?)" "$hit"; fi
}

# Optimal-string-alignment distance of $1 and $2, or limit + 1 once it must exceed $3.
_cli_distance() {
  local a="$1" b="$2" limit="$3" i j cost v row_min
  local -a prev2=() prev=() cur=()
  if (( ${#a} - ${#b} > limit || ${#b} - ${#a} > limit )); then echo $((limit + 1)); return; fi
  for ((j = 0; j <= ${#b}; j++)); do prev[j]=$j; done
  for ((i = 1; i <= ${#a}; i++)); do
    cur=("$i"); row_min=$i
    for ((j = 1; j <= ${#b}; j++)); do
      cost=1; [[ "${a:i-1:1}" == "${b:j-1:1}" ]] && cost=0
      v=$((prev[j] + 1))
      ((cur[j - 1] + 1 < v)) && v=$((cur[j - 1] + 1))
      ((prev[j - 1] + cost < v)) && v=$((prev[j - 1] + cost))
      if ((i > 1 && j > 1)) && [[ "${a:i-1:1}" == "${b:j-2:1}" && "${a:i-2:1}" == "${b:j-1:1}" ]] \
         && ((prev2[j - 2] + 1 < v)); then
        v=$((prev2[j - 2] + 1))
      fi
      cur[j]=$v
      ((v < row_min)) && row_min=$v
    done
    if ((row_min > limit)); then echo $((limit + 1)); return; fi
    prev2=("${prev[@]}"); prev=("${cur[@]}")
  done
  v=${prev[${#b}]}
  ((v > limit)) && v=$((limit + 1))
  echo "$v"
}

# cli_parse "SINGLE..." "SWITCHES..." MAX_POSITIONALS ARGS...: split ARGS into ARG[field]
# (a switch given is ARG[field]=1) and POS; on a usage error call `usage_error MESSAGE` (each
# command line defines it: its prefix and exit code); on -h/--help set CLI_WANTS_HELP=1.
# Field names are flag names without `--`, `-` spelled `_`.
cli_parse() {
  local single=" $1 " switches=" $2 " max="$3" arg name value field known=() f
  shift 3
  declare -gA ARG=()
  declare -ga POS=()
  CLI_WANTS_HELP=0
  for f in ${single//_/-} ${switches//_/-}; do known+=("--$f"); done
  while (($#)); do
    arg="$1"; shift
    # shellcheck disable=SC2034  # read by the scripts that source this file
    if [[ "$arg" == -h || "$arg" == --help ]]; then CLI_WANTS_HELP=1; return 0; fi
    if [[ "$arg" != --?* ]]; then
      if ((${#POS[@]} >= max)); then usage_error "unexpected argument '$arg'"; fi
      POS+=("$arg"); continue
    fi
    name="${arg%%=*}"; field="${name#--}"; field="${field//-/_}"
    if [[ "$switches" == *" $field "* && "$name" == "${name//_/}" ]]; then
      [[ "$arg" == *=* ]] && usage_error "$name: unknown flag$(cli_did_you_mean "$name" "${known[@]}")"
      ARG[$field]=1; continue
    fi
    if [[ "$single" != *" $field "* || "$name" != "${name//_/}" ]]; then
      usage_error "$name: unknown flag$(cli_did_you_mean "$name" "${known[@]}")"
    fi
    [[ -v "ARG[$field]" ]] && usage_error "$field: $name given more than once"
    if [[ "$arg" == *=* ]]; then
      value="${arg#*=}"
    else
      (($#)) || usage_error "$field: $name needs a value"
      value="$1"; shift
    fi
    ARG[$field]="$value"
  done
}

# cli_json: `--format json` is `--json` (scripts/lib/help/json.txt, the one place that says
# so); any other --format is a usage error. Leaves ARG[json]=1 when JSON is asked for, and no
# ARG[format].
cli_json() {
  if [[ -v "ARG[format]" ]]; then
    [[ "${ARG[format]}" == json ]] || usage_error "format: must be json (the same as --json), not '${ARG[format]}'"
    ARG[json]=1
    unset 'ARG[format]'
  fi
}

# cli_require FIELD...: a usage error for the first field not given.
cli_require() {
  local field
  for field in "$@"; do
    [[ -v "ARG[$field]" ]] || usage_error "$field: missing --${field//_/-}"
  done
}

# cli_nonempty FIELD...: a usage error for a given field whose value is empty.
cli_nonempty() {
  local field
  for field in "$@"; do
    if [[ -v "ARG[$field]" && -z "${ARG[$field]}" ]]; then usage_error "$field: must not be empty"; fi
  done
}

CLI_RANK_MODES=(match relevance)            # judgment.search.MODES
CLI_RECALL_MODES=(match relevance answers)  # judgment.search.RECALL_MODES: a recall's --rank

# cli_rank_mode [MODE...]: the --rank value, one of MODE... (default CLI_RANK_MODES), else
# $HARNESS_JUDGMENT_RANK when set and not empty (one of CLI_RANK_MODES), else match.
cli_rank_mode() {
  local mode
  if (($# == 0)); then set -- "${CLI_RANK_MODES[@]}"; fi
  if [[ -v "ARG[rank]" ]]; then
    mode="${ARG[rank]}"
    cli_one_of "$mode" "$@" || usage_error "rank: must be $(cli_either "$@"), not '$mode'"
  else
    mode="${HARNESS_JUDGMENT_RANK:-match}"
    cli_one_of "$mode" "${CLI_RANK_MODES[@]}" \
      || usage_error "rank: HARNESS_JUDGMENT_RANK must be $(cli_either "${CLI_RANK_MODES[@]}"), not '$mode'"
  fi
  printf '%s\n' "$mode"
}

# cli_recall_mode: cli_rank_mode for a recall, whose --rank takes answers too.
cli_recall_mode() {
  cli_rank_mode "${CLI_RECALL_MODES[@]}"
}

# cli_one_of WORD CHOICE...: whether WORD is one of the CHOICEs.
cli_one_of() {
  local word="$1" choice
  shift
  for choice; do [[ "$word" == "$choice" ]] && return 0; done
  return 1
}

# cli_either CHOICE...: the choices as a sentence says them ("a, b or c"), as
# judgment.search._either does.
cli_either() {
  local text="$1"
  shift
  while (($# > 1)); do text+=", $1"; shift; done
  if (($#)); then text+=" or $1"; fi
  printf '%s' "$text"
}
