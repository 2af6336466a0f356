#!/usr/bin/env bash
# judgment-ledger.sh: the Judgment Ledger v1 (append | search | recall).
#
# Bash only dispatches and maps exits; every rule lives in pylib/judgment_toolkit/judgment (one Python process
# per call). append is fail-open: whatever goes wrong short of a rejected record, it exits 0
# after one `append skipped (...)` line, so a judgment flow is never blocked.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/py.sh
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/py.sh"  # through symlinks too

readonly APPEND_REJECTED=65 # judgment.cli's code for a rejected record (see cli.py)

usage() {
  cat <<'USAGE'
usage:
  judgment-ledger.sh append --project P --question Q --answer A --card-ref REF
                            [--rationale TEXT] [--tags t1,t2] [--id ID]
  judgment-ledger.sh search --project P --query TEXT [--limit N]    (N <= 3)
  judgment-ledger.sh recall --project P --question TEXT
  judgment-ledger.sh prime --project P [--limit N]   (Markdown of the N most recent, default 5)
  judgment-ledger.sh verify [--json]                  (is every line a valid v1 record?)
Ledger: $HARNESS_JUDGMENT_LEDGER, else .claude/state/judgment-ledger.jsonl under
$HARNESS_PROJECT_ROOT, the git top level, or the current directory.
USAGE
}

cmd_append() {
  local py rc=0
  py="$(harness_python)"
  if ! command -v "$py" >/dev/null 2>&1; then
    printf 'judgment-ledger: append skipped (Python interpreter not found: %s; run bash scripts/setup.sh)\n' "$py" >&2
    return 0
  fi
  "$py" -m judgment_toolkit.judgment.cli ledger append "$@" || rc=$?
  case "$rc" in
    0) return 0 ;;
    "$APPEND_REJECTED") return 1 ;;
    *)
      printf 'judgment-ledger: append skipped (%s exited with status %s)\n' "$py" "$rc" >&2
      return 0
      ;;
  esac
}

cmd_search() {
  local py
  py="$(harness_python_or_fail judgment-ledger)" || return 1
  "$py" -m judgment_toolkit.judgment.cli ledger search "$@"
}

cmd_recall() {
  local py
  py="$(harness_python_or_fail judgment-ledger)" || return 1
  "$py" -m judgment_toolkit.judgment.cli ledger recall "$@"
}

cmd_prime() {
  local py
  # fail-open like append: a session start must never be blocked by the ledger
  py="$(harness_python)"
  if ! command -v "$py" >/dev/null 2>&1; then
    printf 'judgment-ledger: prime: skipped (Python interpreter not found: %s)\n' "$py" >&2
    return 0
  fi
  "$py" -m judgment_toolkit.judgment.cli ledger prime "$@"
}

cmd_verify() {
  local py
  py="$(harness_python_or_fail judgment-ledger)" || return 1
  "$py" -m judgment_toolkit.judgment.cli ledger verify "$@"
}

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    append) cmd_append "$@" ;;
    search) cmd_search "$@" ;;
    recall) cmd_recall "$@" ;;
    prime) cmd_prime "$@" ;;
    verify) cmd_verify "$@" ;;
    -h | --help | help) usage ;;
    *)
      printf 'judgment-ledger: unknown subcommand %s\n' "${cmd:-(none)}" >&2
      usage >&2
      return 1
      ;;
  esac
}

main "$@"
