#!/usr/bin/env bash
# setup-browser.sh: what the browser tests need, idempotent (run after scripts/setup.sh):
#   - Debian's `chromium` (apt-get; root or sudo), unless a chromium is on PATH or $CHROMIUM
#     names one: tests/python/judgment/test_card_render_browser.py renders decision cards in it;
#   - Mermaid, a pinned version from npm under tests/node/node_modules/.kit (ignored by git; the
#     `npm ci` of setup.sh, which runs only when bats is missing, removes it: run this after setup.sh):
#     tests/python/history_read/test_graph_mermaid.py renders `ha history <goal> graph` with it.
set -euo pipefail

readonly MERMAID_VERSION=12.3.0
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)"
readonly ROOT KIT="$ROOT/tests/node/node_modules/.kit"

find_chromium() {
  local c
  for c in "${CHROMIUM:-}" chromium chromium-browser; do
    if [[ -n "$c" ]] && command -v "$c" >/dev/null 2>&1; then
      command -v "$c"
      return 0
    fi
  done
  return 1
}

install_chromium() {
  local sudo_cmd=()
  if ! command -v apt-get >/dev/null 2>&1; then
    printf 'setup-browser: chromium not found and apt-get is not available; install chromium and set CHROMIUM=/path/to/it\n' >&2
    return 1
  fi
  if [[ "$(id -u)" != 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      printf 'setup-browser: need root or sudo to install chromium\n' >&2
      return 1
    fi
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
}

install_mermaid() {
  if ! command -v npm >/dev/null 2>&1; then
    printf 'setup-browser: npm is needed to install mermaid\n' >&2
    return 1
  fi
  npm install --prefix "$KIT" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "mermaid@$MERMAID_VERSION" >/dev/null
}

main() {
  local path
  if path="$(find_chromium)"; then
    printf 'setup-browser: chromium present (%s)\n' "$path"
  else
    install_chromium
    path="$(find_chromium)" || { printf 'setup-browser: chromium not found after the install\n' >&2; return 1; }
    printf 'setup-browser: installed chromium (%s)\n' "$path"
  fi
  if grep -qs "\"version\": \"$MERMAID_VERSION\"" "$KIT/node_modules/mermaid/package.json"; then
    printf 'setup-browser: mermaid %s present\n' "$MERMAID_VERSION"
  else
    install_mermaid
    printf 'setup-browser: installed mermaid %s\n' "$MERMAID_VERSION"
  fi
}

main "$@"
