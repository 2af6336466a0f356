#!/usr/bin/env bash
# Installs what the toolkit needs, idempotently.
#
#   bash scripts/setup.sh --runtime   .venv with the project (editable) and its runtime
#                                     dependencies only (pyproject's dependencies): what
#                                     scripts/demo.sh and the entry points need
#   bash scripts/setup.sh             the runtime, then the test set-up: everything the tests
#                                     call (pytest and pipx from the test extra, bats from npm)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"

pip_install() {
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@"
}

# Whether .venv can import each module named: found, not imported (importing mcp alone takes
# seconds, and this check runs before every test run).
has_modules() {
  .venv/bin/python -c 'import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in sys.argv[1:]))' "$@" 2>/dev/null
}

install_runtime() {
  if [[ ! -x .venv/bin/python ]]; then
    python3 -m venv .venv
  fi
  if ! has_modules jsonschema ulid snowballstemmer judgment_toolkit \
     || [[ pyproject.toml -nt .venv/.installed-runtime ]]; then
    pip_install -e .
    touch .venv/.installed-runtime
  fi

  # Bytecode once, so no call pays for compiling the package (PYTHONDONTWRITEBYTECODE may be set).
  .venv/bin/python -m compileall -q pylib >/dev/null
}

# The installed commands of this editable install are the checkout's scripts themselves (links,
# never copies that could go stale) in place of the wheel's launcher pip writes; after every pip.
link_entry_points() {
  local tool
  for tool in judgment-ledger judgment-card; do
    # Only when wrong: the demo runs this set-up while other tests run these commands.
    if [[ "$(readlink ".venv/bin/$tool" || true)" != "../../scripts/$tool.sh" ]]; then
      ln -sfn "../../scripts/$tool.sh" ".venv/bin/$tool"
    fi
  done
}

# The test set-up: one step per tool the tests call. Further test-only tools (a browser for
# the rendering tests, ...) get their own step here, called from install_test_tools.
install_python_test_tools() {
  if ! has_modules pytest xdist pipx pyte mcp \
     || [[ pyproject.toml -nt .venv/.installed-test ]]; then
    pip_install -e '.[test,mcp]'
    touch .venv/.installed-test
  fi
}

# Debian's shellcheck, for the test over scripts/; apt-get runs as root in CI.
install_shellcheck() {
  if ! command -v shellcheck >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq shellcheck >/dev/null
  fi
}

# GNU parallel, which `bats --jobs` needs to run the bats files side by side (scripts/test.sh).
install_parallel() {
  if ! command -v parallel >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq parallel >/dev/null
  fi
}

# The pinned npm tools of tests/node/package.json: bats-core, Claude Code and the MCP Inspector.
install_npm_tools() {
  if [[ ! -x tests/node/node_modules/bats/bin/bats || ! -x tests/node/node_modules/.bin/claude \
        || ! -x tests/node/node_modules/.bin/mcp-inspector \
        || tests/node/package-lock.json -nt tests/node/node_modules/.package-lock.json ]]; then
    npm ci --prefix tests/node --no-audit --no-fund --loglevel=error
  fi
}

# Chromium (Debian's package) and a pinned Mermaid for the rendering tests; after install_bats,
# whose `npm ci` would remove Mermaid's folder under tests/node/node_modules.
install_browser() {
  bash scripts/setup-browser.sh
}

install_test_tools() {
  install_python_test_tools
  install_shellcheck
  install_parallel
  install_npm_tools
  install_browser
}

case "${1:-}" in
  --runtime) install_runtime; link_entry_points ;;
  "") install_runtime; install_test_tools; link_entry_points ;;
  *) printf 'usage: bash scripts/setup.sh [--runtime]\n' >&2; exit 64 ;;
esac
