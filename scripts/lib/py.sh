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
