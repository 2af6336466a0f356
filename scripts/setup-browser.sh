#!/usr/bin/env bash
# setup-browser.sh: install Debian's `chromium` for the rendered-card browser test
# (tests/python/judgment/test_render_browser.py). Idempotent: does nothing when a chromium
# binary is already on PATH (or named by $CHROMIUM). Needs root (or sudo) and apt-get.
set -euo pipefail

find_chromium() {
  local c
  for c in "${CHROMIUM:-}" chromium chromium-browser; do
    [[ -n "$c" ]] && command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
  done
  return 1
}

if path="$(find_chromium)"; then
  printf 'setup-browser: chromium present (%s)\n' "$path"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  printf 'setup-browser: chromium not found and apt-get is not available; install chromium and set CHROMIUM=/path/to/it\n' >&2
  exit 1
fi

sudo_cmd=()
if [[ "$(id -u)" != 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { printf 'setup-browser: need root or sudo to install chromium\n' >&2; exit 1; }
  sudo_cmd=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null

path="$(find_chromium)" || { printf 'setup-browser: chromium still not found after install\n' >&2; exit 1; }
printf 'setup-browser: installed chromium (%s)\n' "$path"
