# shellcheck shell=bash
# The one place that chooses the Python interpreter for every entry point:
# HARNESS_PYTHON, else the repository's .venv, else python3 from PATH.
# pylib is put on PYTHONPATH so the scripts work from a plain checkout too.

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

# harness_python_or_fail TOOL: print the interpreter, or say on stderr (as TOOL) that it is
# missing and how to get one, and fail.
harness_python_or_fail() {
  local py
  py="$(harness_python)"
  if ! command -v "$py" >/dev/null 2>&1; then
    printf '%s: Python interpreter not found: %s; run bash scripts/setup.sh or set HARNESS_PYTHON\n' "$1" "$py" >&2
    return 1
  fi
  printf '%s\n' "$py"
}
