"""The `judgment-mcp` console script: serves the ledger and history tools (server.py) over
stdio. This module imports nothing from `mcp` until the extra is known to be installed, so the
base install runs it to say how to install the extra (exit NO_EXTRA) instead of a traceback:
on stderr, and, to a connected client, over MCP itself (without_extra.py).
"""
import argparse
import importlib.util
import sys

from judgment_toolkit.judgment.lines import RECORD_MAX_TEXT

NO_EXTRA = 69  # EX_UNAVAILABLE: the optional `mcp` extra is not installed
# As printed, in a clone of the repository (the project is on no package index): pipx's
# --force reinstalls over the install that lacks the extra; pip for a virtualenv.
INSTALL = ("in a clone of the repository, run: pipx install --force '.[mcp]'  "
           "(in a virtualenv: pip install '.[mcp]')")
NO_EXTRA_LINE = f"judgment-mcp: the MCP server needs the optional `mcp` extra; {INSTALL}"

DESCRIPTION = f"""Serve the Judgment Ledger and the decision history over the Model Context \
Protocol (stdio). Start it from an MCP client: its server configuration runs `judgment-mcp` \
(with `--project P` to fix the project), in the folder whose git repository holds the goals.

tools:
  recall_judgments   the recall array of `judgment-ledger recall`
  search_judgments   the records `judgment-ledger search` prints
  record_judgment    append through `judgment-ledger append` (fail-open: a skipped append is a
                     result, not an error)
  prime              the digest `judgment-ledger prime` prints
  history_current, history_list, history_show
                     the decision-history-view/v1 JSON of `ha history GOAL current|list|show`
  history_add        `ha history GOAL add`; returns the decision-receipt/v1

project and ledger: exactly as for the CLI. The ledger is HARNESS_JUDGMENT_LEDGER when set,
else .claude/state/judgment-ledger.jsonl under HARNESS_PROJECT_ROOT, else under the git top
level of the server's working directory (else that directory). The project is the tool's
`project` argument, else --project, else the name the Claude Code hooks give the project
($JUDGMENT_PROJECT, else derived from $CLAUDE_PROJECT_DIR, else from the working directory).
History goals are found from the server's working directory, as `ha` finds them.
A refused call is an MCP tool error carrying the CLI's message and exit code; limits are the
CLI's: a ledger record of at most {RECORD_MAX_TEXT}, the history's documented input
limits, and one argument of a read within the system's command-line limit (128 KiB on
Linux).

exit codes: 0 the client closed the connection; 2 bad arguments; 69 the `mcp` extra is missing
(said on stderr and, to a client, by a server whose one tool says how to install it).
"""


def main(argv=None):
    parser = argparse.ArgumentParser(prog="judgment-mcp", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", help="default project of the ledger tools (a tool's own "
                                          "`project` argument wins; without either, the "
                                          "project is derived as the hooks derive it)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if importlib.util.find_spec("mcp") is None:
        print(NO_EXTRA_LINE, file=sys.stderr, flush=True)
        if not sys.stdin.isatty():  # a client: tell it too, in the protocol
            from judgment_toolkit import version
            from .without_extra import serve as serve_without
            serve_without(NO_EXTRA_LINE, version())
        return NO_EXTRA
    from .server import build
    from .transport import serve
    serve(build(args.project))
    return 0


if __name__ == "__main__":
    sys.exit(main())
