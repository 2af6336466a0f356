"""judgment-kit's command line: `hook NAME` (the Claude Code hooks, judgment_toolkit.claude_hooks)
and `setup-claude` (judgment_toolkit.claude_setup). Apart from claude_kit, whose lookups both
of them import, so that the import graph stays acyclic (tests/python/imports); each branch
imports only what it runs, since a hook pays for every import on every call.
"""
import sys

from judgment_toolkit import claude_kit


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["hook"]:
        from judgment_toolkit import claude_hooks
        return claude_hooks.run(argv[1:])
    if argv[:1] == ["setup-claude"]:
        from judgment_toolkit import claude_setup
        return claude_setup.main(argv[1:])
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(claude_kit.USAGE)
        return 0
    given = f"unknown command: {argv[0]}" if argv else "a command is required"
    sys.stderr.write(f"judgment-kit: {given}; see judgment-kit --help\n")
    return 64


def console_main():
    sys.exit(main())


if __name__ == "__main__":
    console_main()
