# shellcheck shell=bash
# The one place that chooses the Python interpreter for every entry point:
# HARNESS_PYTHON, else the repository's .venv, else python3 from PATH.
# pylib is put on PYTHONPATH so the scripts work from a plain checkout too.
# Every rule, message and exit code lives in Python: the scripts only find the interpreter and
# exec it, so `scripts/X` and the installed console script `X` run the same function.

HARNESS_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"

harness_python() {
  if [[ -n "${HARNESS_PYTHON:-}" ]]; then
    printf '%s\n' "$HARNESS_PYTHON"
  elif [[ -x "$HARNESS_REPO_ROOT/.venv/bin/python" ]]; then
    printf '%s\n' "$HARNESS_REPO_ROOT/.venv/bin/python"
  else
    printf '%s\n' python3
  fi
}

export PYTHONPATH="$HARNESS_REPO_ROOT/pylib${PYTHONPATH:+:$PYTHONPATH}"

# harness_exec TOOL MISSING_EXIT MODULE ARGS...: exec `python -m MODULE ARGS...`, or, when the
# interpreter is missing, say so on stderr (as TOOL) and exit MISSING_EXIT.
harness_exec() {
  local tool="$1" missing_exit="$2" module="$3" py
  shift 3
  py="$(harness_python)"
  if ! command -v "$py" >/dev/null 2>&1; then
    printf '%s: Python interpreter not found: %s; run bash scripts/setup.sh or set HARNESS_PYTHON\n' "$tool" "$py" >&2
    exit "$missing_exit"
  fi
  exec "$py" -m "$module" "$@"
}
