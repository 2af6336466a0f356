# shellcheck shell=bash
# The one place that chooses the Python interpreter for every entry point and runs it:
# HARNESS_PYTHON, else the repository's .venv, else python3 from PATH. An installed command
# (scripts/installed/launcher) sets HARNESS_PYTHON to its environment's interpreter.
# pylib is put on PYTHONPATH when this is a checkout, so the scripts work from a plain clone.

# The folder above scripts/: the entry points source this file by its resolved absolute path
# ("$here/lib/py.sh", $here from readlink -f), so it is that path without "/scripts/lib/py.sh",
# found without the `$(cd ... && pwd -P)` subshell, a fork every hook and command would pay;
# the subshell only for a path of another shape.
HARNESS_REPO_ROOT="${BASH_SOURCE[0]%/*/lib/py.sh}"
if [[ "$HARNESS_REPO_ROOT" == "${BASH_SOURCE[0]}" || "$HARNESS_REPO_ROOT" != /* \
      || "$HARNESS_REPO_ROOT" == */. || "$HARNESS_REPO_ROOT" == */.. ]]; then
  HARNESS_REPO_ROOT="$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd -P)"
fi
PY_JOBS=judgment_toolkit.judgment.jobs
PY_REJECTED=97  # judgment_toolkit.judgment.exits.CHILD_REJECTED: "the caller got it wrong"

# harness_choose: the interpreter in HARNESS_PY. Set, not printed: the entry points call it
# without a $(...) subshell, a fork that every hook and command would pay.
harness_choose() {
  if [[ -n "${HARNESS_PYTHON:-}" ]]; then
    HARNESS_PY="$HARNESS_PYTHON"
  elif [[ -x "$HARNESS_REPO_ROOT/.venv/bin/python" ]]; then
    HARNESS_PY="$HARNESS_REPO_ROOT/.venv/bin/python"
  else
    HARNESS_PY=python3
  fi
}

harness_python() {
  harness_choose
  printf '%s\n' "$HARNESS_PY"
}

if [[ -d "$HARNESS_REPO_ROOT/pylib/judgment_toolkit" ]]; then
  export PYTHONPATH="$HARNESS_REPO_ROOT/pylib${PYTHONPATH:+:$PYTHONPATH}"
fi

# py_chosen TOOL: the interpreter in HARNESS_PY (harness_choose), or "TOOL: Python
# interpreter not found" on stderr and status 1.
py_chosen() {
  harness_choose
  if ! command -v "$HARNESS_PY" >/dev/null 2>&1; then
    printf '%s: Python interpreter not found: %s; run bash scripts/setup.sh or set HARNESS_PYTHON\n' "$1" "$HARNESS_PY" >&2
    return 1
  fi
}

# harness_exec TOOL MISSING_EXIT MODULE ARGS...: exec `python -m MODULE ARGS...` (scripts/ha,
# whose command line is Python's), or, with no interpreter, say so and exit MISSING_EXIT.
harness_exec() {
  py_chosen "$1" || exit "$2"
  shift 2
  exec "$HARNESS_PY" -m "$@"
}

# py_exec TOOL JOB ARGS...: replace this shell with the job (the reads: their exit codes are
# the documented ones as they are); no interpreter is exit 1.
py_exec() {
  harness_exec "$1" 1 "$PY_JOBS" "${@:2}"
}

# py_guarded LABEL JOB ARGS...: run the job as a child and map every outcome, for the steps
# that must never block a judgment flow (Judgment Ledger v1, section 'Fail-Open'). The
# child's stdout passes through; its stderr is held and passed on when the job ended as it
# means to (0, or PY_REJECTED: status 1). Any other end (no interpreter, an import error, an
# uncaught exception, a signal, a broken installation) is one `LABEL (reason)` line on
# stderr and status 0, the reason being the job's last stderr line or the signal.
py_guarded() {
  local label="$1" py err rc=0 last
  shift
  harness_choose
  py="$HARNESS_PY"
  if ! command -v "$py" >/dev/null 2>&1; then
    printf '%s (Python interpreter not found: %s; run bash scripts/setup.sh)\n' "$label" "$py" >&2
    return 0
  fi
  { err="$("$py" -m "$PY_JOBS" "$@" 2>&1 1>&3 3>&-)" || rc=$?; } 3>&1
  if ((rc == 0 || rc == PY_REJECTED)); then
    if [[ -n "$err" ]]; then printf '%s\n' "$err" >&2; fi
    ((rc == 0)) || return 1
    return 0
  fi
  if ((rc > 128)); then
    last="killed by signal $(kill -l "$((rc - 128))" 2>/dev/null || echo "$((rc - 128))")"
  else
    last="${err%$'\n'}"; last="${last##*$'\n'}"
    last="Python exited $rc${last:+: $last}"
  fi
  printf '%s (%s)\n' "$label" "$last" >&2
  return 0
}
