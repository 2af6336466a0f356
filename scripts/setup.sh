#!/usr/bin/env bash
# Installs everything the toolkit and its tests need, idempotently:
# a .venv with the project (editable) and its test extra, and bats-core from npm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"

if [[ ! -x .venv/bin/python ]]; then
  python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import jsonschema, ulid, pytest' 2>/dev/null \
   || [[ pyproject.toml -nt .venv/.installed ]]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  touch .venv/.installed
fi
if [[ ! -x node_modules/bats/bin/bats ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
