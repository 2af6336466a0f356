"""The MCP tools: each turns its typed parameters into what the matching CLI command takes,
runs it through backend (the same functions as the CLI) and returns its output parsed, as
structured content. A non-zero exit is an MCP tool error (isError) carrying the CLI's stderr
verbatim, error code included; the CLI never changes a file when it refuses.
"""
from __future__ import annotations

import functools
import json
import os
from typing import Annotated, Any, Optional

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from judgment_toolkit import version

from . import backend

INSTRUCTIONS = ("Memory of the human judgments of this project (the Judgment Ledger) and its "
                "hash-chained decision history. Recall before asking the human again; record "
                "an answer the human gave.")
settings = {"project": None}


def _flags(**pairs) -> list[str]:
    argv: list[str] = []
    for name, value in pairs.items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if v is not None:
                argv += [f"--{name.replace('_', '-')}", str(v)]
    return argv


# An error result's structured content, {"exit_code": N, "error": line}, matches the tool's
# declared output schema: a client that checks results against it (the MCP Inspector does, for
# error results too) shows the CLI's message instead of a schema violation. Tools returning an
# object declare any object; the others declare one of the two shapes (docs/mcp.md, "Tools").
ONE_OF_TWO = ConfigDict(json_schema_extra={"anyOf": [{"required": ["result"]},
                                                     {"required": ["exit_code", "error"]}]})


@with_config(ONE_OF_TWO)
class Records(TypedDict, total=False):
    """{"result": the records} or, refused, {"exit_code": N, "error": line}."""
    result: list[dict[str, Any]]
    exit_code: int
    error: str


@with_config(ONE_OF_TWO)
class Digest(TypedDict, total=False):
    """{"result": the Markdown digest} or, refused, {"exit_code": N, "error": line}."""
    result: str
    exit_code: int
    error: str


Project = Annotated[Optional[str], Field(description=(
    "The ledger's project. Default: the server's --project, else the name the hooks give the "
    "Claude Code project: $JUDGMENT_PROJECT, else derived from the project folder "
    "($CLAUDE_PROJECT_DIR, else the server's working directory)."))]


SearchRank = Annotated[Optional[str], Field(description=(
    "The ranking: match (default, the ledger's string match) or relevance (whole words, "
    "stems, Korean <-> English through the lexicon). Default: $HARNESS_JUDGMENT_RANK, else match."))]
RecallRank = Annotated[Optional[str], Field(description=(
    "The ranking: match (default), relevance, or answers: only the decisions that answer the "
    "question (the newest of each topic, as the Claude Code hook recalls them), often none. "
    "Default: $HARNESS_JUDGMENT_RANK (match or relevance), else match."))]


class Refused(Exception):
    """The CLI exited non-zero; becomes an isError result holding its stderr unchanged."""

    def __init__(self, outcome: backend.Outcome):
        super().__init__(outcome.err.strip())
        self.outcome = outcome

    def result(self) -> CallToolResult:
        # Not a ToolError: the SDK would prefix "Error executing tool ..." to the CLI's line.
        text = str(self)
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True,
                              structured_content={"exit_code": self.outcome.code, "error": text})


def _checked(outcome: backend.Outcome) -> backend.Outcome:
    if outcome.code != 0:
        raise Refused(outcome)
    return outcome


def _tool(fn):
    """fn, answering a refusal with the CLI's error as the tool result (same signature, so the
    SDK derives the same input and output schema)."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Refused as refused:
            return refused.result()
    return call


def _project(project):
    """The tool's `project`, else --project, else the project the hooks name
    (judgment.project.project_name, the one rule; docs/claude-kit.md, "The skill and the
    commands") for $CLAUDE_PROJECT_DIR, else for this server's working directory."""
    if project is not None:
        return project
    if settings["project"] is not None:
        return settings["project"]
    from judgment_toolkit.judgment.project import project_name
    return project_name(os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())


UNRANKED = object()  # a read without a ranking mode (prime)
# Not a limit, a route: a read with a longer argument goes through the script, which answers
# it or, past the kernel's limit for one argument (128 KiB on Linux), is refused as a command
# line with it is, so the server takes exactly the reads the CLI takes (docs/mcp.md, "Limits").
IN_PROCESS_ARG_MAX = 32 << 10


def _read(job, argv, values, *, project, rank=UNRANKED, modes=None, limit=None, max_limit=None):
    """The read `judgment-ledger ARGV` as its Python job `job` run in-process with `values`
    (and the ranking mode, unless UNRANKED; one of `modes`, search.MODES when None), when the
    script would hand the job this call;
    else the script itself, so a refusal is the CLI's own usage error. The check is
    conservative: a call it sends to the script needlessly is only slower, never different."""
    from judgment_toolkit.judgment.args import UsageError
    from judgment_toolkit.judgment.search import MODES, rank_mode
    ranked = rank is not UNRANKED
    via_script = (project is None or (ranked and project == "")  # prime takes "" as a project
                  or (limit is not None and not 1 <= limit <= max_limit)
                  or any("\0" in a or len(a) > IN_PROCESS_ARG_MAX for a in argv))
    if ranked and not via_script:
        try:
            values = (*values, rank_mode(rank, modes=modes or MODES))
        except UsageError:
            via_script = True
    return _checked(backend.ledger(argv) if via_script else backend.ledger_job(job, *values))


def recall_judgments(question: str, project: Project = None,
                     rank: RecallRank = None) -> Records:
    """Past human judgments that answer `question` in this project: the recall array of
    `judgment-ledger recall` (best first; empty when nothing matches). Call it before asking
    the human a question they may have answered already. `rank`: match (default), relevance,
    or answers: only the decisions that answer the question (the newest of each), often none."""
    from judgment_toolkit.judgment.search import RECALL_MODES
    project = _project(project)
    o = _read("recall", ["recall", *_flags(project=project, question=question, rank=rank)],
              (project, question), project=project, rank=rank, modes=RECALL_MODES)
    return {"result": json.loads(o.out)}


def search_judgments(query: str, project: Project = None, limit: Optional[int] = None,
                     rank: SearchRank = None) -> Records:
    """Ledger records of this project matching `query` (words; all must match), as
    `judgment-ledger search` prints them, newest first, at most `limit`."""
    from judgment_toolkit.judgment.search import MAX_LIMIT
    project = _project(project)
    o = _read("search", ["search", *_flags(project=project, query=query, limit=limit, rank=rank)],
              (project, query, str(MAX_LIMIT if limit is None else limit)), project=project,
              rank=rank, limit=limit, max_limit=MAX_LIMIT)
    return {"result": [json.loads(line) for line in o.out.splitlines() if line]}


def record_judgment(question: str, answer: str, card_ref: str, rationale: Optional[str] = None,
                    tags: Optional[str] = None, id: Optional[str] = None,
                    project: Project = None) -> dict[str, Any]:
    """Append one human judgment (the human's answer to `question`) to the ledger through
    `judgment-ledger append`; returns {"stored": record}. Fail-open: when the ledger cannot be
    written the result is {"skipped": reason} and nothing is raised. `tags`: comma-separated.
    Give `id` to make a retry idempotent. An invalid record is an error naming the field."""
    fields = {"project": _project(project), "question": question, "answer": answer,
              "card_ref": card_ref, "rationale": rationale, "tags": tags, "id": id}
    # On stdin, so no argv limit applies; as ASCII JSON, so any text the client sent (a lone
    # surrogate included) reaches the job as it was, to be accepted or refused there.
    record = json.dumps({k: v for k, v in fields.items() if v is not None})
    o = _checked(backend.ledger(["append", "--json", "--input", "-"], record.encode("ascii")))
    if o.out.strip():
        return {"stored": json.loads(o.out)}
    return {"skipped": o.err.strip()}


def prime(project: Project = None, limit: Optional[int] = None) -> Digest:
    """The Markdown digest of this project's most recent judgments that `judgment-ledger prime`
    prints at the start of a session (empty when there are none)."""
    from judgment_toolkit.judgment import prime as digest
    project = _project(project)
    o = _read("prime", ["prime", *_flags(project=project, limit=limit)],
              (project, str(digest.DEFAULT_LIMIT if limit is None else limit)), project=project,
              limit=limit, max_limit=digest.MAX_LIMIT)
    return {"result": o.out}


def _view(goal, view, flags) -> dict[str, Any]:
    o = _checked(backend.ha(["history", goal, view, *flags, "--format", "json"]))
    return json.loads(o.out)


def history_current(goal: str, target: Optional[list[str]] = None,
                    keyword: Optional[list[str]] = None, limit: Optional[int] = None,
                    page: Optional[str] = None, since: Optional[str] = None) -> dict[str, Any]:
    """The decisions of `goal` in force now (`ha history GOAL current --format json`, the
    decision-history-view/v1 JSON). Filter by `target` ids and `keyword`s; continue with the
    `page` cursor a previous result gave."""
    return _view(goal, "current", _flags(target=target, keyword=keyword, limit=limit,
                                         page=page, since=since))


def history_list(goal: str, target: Optional[list[str]] = None,
                 keyword: Optional[list[str]] = None, limit: Optional[int] = None,
                 page: Optional[str] = None, since: Optional[str] = None) -> dict[str, Any]:
    """Every decision event of `goal` in order (`ha history GOAL list --format json`,
    decision-history-view/v1), superseded ones included."""
    return _view(goal, "list", _flags(target=target, keyword=keyword, limit=limit,
                                      page=page, since=since))


def history_show(goal: str, id: Optional[str] = None, request_id: Optional[str] = None,
                 limit: Optional[int] = None, page: Optional[str] = None) -> dict[str, Any]:
    """One decision event of `goal` by its id (D1, D2, ...) or by the `request_id` it was added
    with (`ha history GOAL show`, decision-history-view/v1)."""
    return _view(goal, "show", ([id] if id is not None else [])
                 + _flags(request_id=request_id, limit=limit, page=page))


def history_add(goal: str, kind: str, summary: str, status: Optional[str] = None,
                reason: Optional[str] = None, targets: Optional[list[str]] = None,
                refs: Optional[list[str]] = None, checked_refs: Optional[list[str]] = None,
                builds_on: Optional[list[str]] = None, supersedes: Optional[list[str]] = None,
                event_at: Optional[str] = None, request_id: Optional[str] = None) -> dict[str, Any]:
    """Register one decision event in the history of `goal` (`ha history GOAL add`); returns its
    decision-receipt/v1. Give `request_id` so a retry is recognised instead of stored twice."""
    o = _checked(backend.ha(["history", goal, "add",
                             *_flags(kind=kind, summary=summary, status=status, reason=reason,
                                     target=targets, ref=refs, checked_ref=checked_refs,
                                     builds_on=builds_on, supersedes=supersedes,
                                     event_at=event_at, request_id=request_id)]))
    return json.loads(o.out)


TOOLS = (recall_judgments, search_judgments, record_judgment, prime, history_current,
         history_list, history_show, history_add)


def build(project: Optional[str] = None) -> MCPServer:
    settings["project"] = project
    server = MCPServer("judgment-toolkit", instructions=INSTRUCTIONS, version=version())
    for fn in TOOLS:
        server.add_tool(_tool(fn), structured_output=True)
    return server
