"""judgment-kit's command line: `hook NAME` (the Claude Code hooks, judgment_toolkit.claude.hooks),
`setup-claude` (judgment_toolkit.claude.setup), `share` (judgment_toolkit.claude.share),
`heal` (judgment_toolkit.judgment.heal, which share's git hooks run) and `project` (the
ledger's project name, kit). Apart from kit, whose lookups both
of them import, so that the import graph stays acyclic (tests/python/imports); each branch
imports only what it runs, since a hook pays for every import on every call.
"""
import sys

from judgment_toolkit.claude import kit


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["hook"]:
        from judgment_toolkit.claude import hooks
        return hooks.run(argv[1:])
    if argv[:1] == ["setup-claude"]:
        from judgment_toolkit.claude import setup
        return setup.main(argv[1:])
    if argv[:1] == ["share"]:
        from judgment_toolkit.claude import share
        return share.main(argv[1:])
    if argv[:1] == ["heal"]:
        if argv[1:2] in (["-h"], ["--help"]):
            sys.stdout.write(kit.USAGE)
            return 0
        from judgment_toolkit.judgment import heal
        return heal.main(argv[1:], sys.stderr)
    if argv[:1] == ["project"]:
        return kit.print_project(argv[1:])
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(kit.USAGE)
        return 0
    given = f"unknown command: {argv[0]}" if argv else "a command is required"
    sys.stderr.write(f"judgment-kit: {given}; see judgment-kit --help\n")
    return 64


def console_main():
    code = main()
    if sys.argv[1:2] == ["hook"]:
        _end_hook(code)
    sys.exit(code)


def _end_hook(code):
    """A hook's process ends as soon as what it wrote is flushed: Claude Code waits for the
    process, and the interpreter's own teardown (freeing every module and what the recall
    built) costs about 5 ms, more than a tenth of the recall's budget. Nothing is left to
    close (the hooks close their files), and no atexit handler is the kit's. Where a flush
    fails, the usual exit reports it."""
    import os
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        return
    os._exit(code)


if __name__ == "__main__":
    console_main()
