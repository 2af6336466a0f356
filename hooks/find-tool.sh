# Sourced by the hooks. Hooks run with the PATH Claude Code was started with, which often lacks
# ~/.local/bin (where pipx installs), so the lookup order is: PATH, ~/.local/bin, then the
# plugin's own checkout (scripts/<name>.sh next to this folder). Prints the path found.
jt_find() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return 0; fi
  if [ -n "${HOME:-}" ] && [ -x "$HOME/.local/bin/$1" ]; then printf '%s\n' "$HOME/.local/bin/$1"; return 0; fi
  jt_root=${CLAUDE_PLUGIN_ROOT:-$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)}
  if [ -n "$jt_root" ] && [ -x "$jt_root/scripts/$2" ]; then printf '%s\n' "$jt_root/scripts/$2"; return 0; fi
  return 1
}

JT_INSTALL_HINT='judgment-toolkit: judgment-ledger not found on PATH, in ~/.local/bin or in the plugin folder; install it with: pipx install <path or URL of judgment-toolkit> (docs/claude-kit.md, "Install").'
