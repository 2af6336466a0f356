"""Every tool of judgment-mcp through the official MCP Python SDK's client (ClientSession over
stdio_client), with good and with bad arguments, and every result, error results included,
checked against the `outputSchema` the tool declares (docs/mcp.md, "Tools"). The SDK's client
checks only successful results; a client that checks error results too (the MCP Inspector)
must find them valid, and must find the CLI's message in them."""
import jsonschema
import pytest

from helpers_mcp import GOAL, goal, session, started  # noqa: F401  (fixtures)

# (tool, arguments, refused?): each tool with arguments it takes and arguments it refuses.
CALLS = [
    ("record_judgment", {"question": "Indent with tabs?", "answer": "spaces",
                         "card_ref": "cards/style.md", "id": "rec-1"}, False),
    ("record_judgment", {"question": "", "answer": "a", "card_ref": "c"}, True),
    ("recall_judgments", {"question": "tabs"}, False),
    ("recall_judgments", {"question": "tabs", "project": ""}, True),
    ("recall_judgments", {"question": "tabs", "rank": "bm25"}, True),
    ("search_judgments", {"query": "tabs", "limit": 2}, False),
    ("search_judgments", {"query": "tabs", "limit": 0}, True),
    ("search_judgments", {"query": "tabs", "project": ""}, True),
    ("prime", {}, False),
    ("prime", {"limit": 0}, True),
    ("history_add", {"goal": GOAL, "kind": "결정", "summary": "Reject empty input",
                     "targets": ["AC-1"], "request_id": "req-1"}, False),
    ("history_add", {"goal": GOAL, "kind": "결정", "summary": "x", "supersedes": ["D9"]}, True),
    ("history_current", {"goal": GOAL}, False),
    ("history_current", {"goal": "docs/specs/nowhere"}, True),
    ("history_list", {"goal": GOAL, "limit": 10}, False),
    ("history_list", {"goal": GOAL, "limit": -1}, True),
    ("history_show", {"goal": GOAL, "id": "D1"}, False),
    ("history_show", {"goal": GOAL, "id": "D99"}, True),
]


@pytest.fixture
def results(started):
    tools, results = session([(tool, args) for tool, args, _ in CALLS], cwd=started,
                             ledger=started / "ledger.jsonl", args=["--project", "demo"])
    return {t.name: t for t in tools.tools}, results


def test_every_tool_is_called_good_and_bad():
    from judgment_toolkit.mcpserver.server import TOOLS
    names = {fn.__name__ for fn in TOOLS}
    assert {tool for tool, _, refused in CALLS if not refused} == names
    assert {tool for tool, _, refused in CALLS if refused} == names


def test_every_result_matches_its_tools_output_schema(results):
    tools, results = results
    for (tool, args, refused), result in zip(CALLS, results):
        schema = tools[tool].output_schema
        validator = jsonschema.validators.validator_for(schema)
        validator.check_schema(schema)
        assert result.is_error == refused, (tool, args, result.content)
        assert result.structured_content is not None, (tool, args)
        errors = [e.message for e in validator(schema).iter_errors(result.structured_content)]
        assert errors == [], (tool, args, result.structured_content)


def test_an_error_result_carries_the_message_in_text_and_structure(results):
    _, results = results
    for (tool, args, refused), result in zip(CALLS, results):
        if refused:
            text = result.content[0].text
            assert text and text == result.structured_content["error"], (tool, args)
            assert text.startswith(("judgment-ledger: ", "ha: ")), text
            assert result.structured_content["exit_code"] > 0


def test_a_success_result_of_a_wrapped_tool_is_not_an_error_shape(results):
    """The schemas of recall, search and prime allow one of two shapes; a success is the
    first, never the second."""
    tools, results = results
    for (tool, _, refused), result in zip(CALLS, results):
        if not refused and "anyOf" in tools[tool].output_schema:
            assert set(result.structured_content) == {"result"}, tool
