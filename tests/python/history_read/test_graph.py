"""`ha history <goal> graph [--format md]`: Mermaid flowchart source drawn from the
list view (decision-history/v1 section 6 relations, section 7 current/superseded, section 8 filters and errors)."""
import json
import re

from conftest import ha
from helpers_read import (GOAL, example, fails, md, note, start,  # noqa: F401 (fixture)
                          store_dir, tree_snapshot)

EXAMPLE = """\
flowchart BT
  %% ha history graph: docs/specs/empty-input · 4 events · builds_on: solid arrow, supersedes: dotted red arrow
  D1["D1 · 원인 #91;가설#93;<br/>첫 항목이 항상 있다고 가정했다<br/>superseded by D4"]
  D2["D2 · 관측<br/>빈 파일에서 오류가 재현된다"]
  D3["D3 · 결정<br/>빈 입력이면 0을 반환한다"]
  D4["D4 · 원인 #91;기각#93;<br/>첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다"]
  D3 -->|builds_on| D1
  D3 -->|builds_on| D2
  D4 -.->|supersedes| D1
  classDef current fill:#eef6ee,stroke:#3b7d4a,color:#1d2430
  classDef superseded fill:#f1f1f1,stroke:#999999,stroke-dasharray:5 4,color:#6b6b6b
  classDef other fill:#fff6e0,stroke:#c99a2e,color:#1d2430
  class D2,D3,D4 current
  class D1 superseded
  linkStyle 2 stroke:#b03a2e,stroke-width:2px
"""
NODE = re.compile(r'^  (D[1-9][0-9]*)\["((?:[^"\[\]<>`|]|<br/>)*)"\]$')



def test_seed_example_graph(example):
    before = tree_snapshot(example)
    assert md(example, "graph") == EXAMPLE
    assert tree_snapshot(example) == before  # a view changes nothing


def test_md_wraps_in_a_mermaid_fence(example):
    out = md(example, "graph", "--format", "md")
    assert out == "```mermaid\n" + EXAMPLE + "```\n"
    assert md(example, "graph", "--format=mermaid") == EXAMPLE


def test_filters_keep_the_list_selection_and_count_undrawn_relations(example):
    out = md(example, "graph", "--target", "T001")
    nodes = [m.group(1) for m in map(NODE.match, out.splitlines()) if m]
    assert nodes == ["D3"]
    assert "  %% 2 relations to events outside the filters or range are not drawn" in out
    out = md(example, "graph", "--keyword", "원인이다", "--keyword", "버퍼")
    assert [m.group(1) for m in map(NODE.match, out.splitlines()) if m] == ["D4"]


def test_since_draws_only_new_events(example):
    cur = json.loads(ha("history", GOAL, "list", "--format", "json", cwd=example).stdout)["cursor"]
    note(example, "새 관측", "--builds-on", "D3")
    out = md(example, "graph", "--since", cur)
    assert [m.group(1) for m in map(NODE.match, out.splitlines()) if m] == ["D5"]


def test_hostile_summaries_cannot_break_out_of_their_label(repo, goal):
    start(repo)
    hostile = ['x"] --> D9["evil', "<img src=x onerror=alert(1)> & <script>", "%% comment; end",
               "``` flowchart LR A-->B", "a|b [c] {d} (e) #35; \\n back`tick"]
    for text in hostile:
        note(repo, text)
    out = md(repo, "graph")
    body = [l for l in out.splitlines() if l.startswith("  D") and "[" in l]
    assert len(body) == len(hostile)
    for line in body:
        m = NODE.match(line)
        assert m, line
    assert "-->" not in "".join(body) and "<img" not in out and "<script" not in out
    fenced = md(repo, "graph", "--format", "md")
    assert fenced.count("```") == 2  # a summary cannot close the fence
    assert '#34;#93; --#62; D9#91;#34;evil' in body[0]
    assert "#60;img src=x onerror=alert#40;1#41;#62; #38; #60;script#62;" in body[1]
    assert "#37;#37; comment#59; end" in body[2]
    assert "#35;35#59; #92;#8288;n back#96;tick" in body[4]  # not a line break for Mermaid


def test_long_summaries_are_shortened(repo, goal):
    start(repo)
    note(repo, "가" * 300)
    line = [l for l in md(repo, "graph").splitlines() if l.startswith("  D1[")][0]
    assert "가" * 47 + "…" in line and "가" * 48 not in line


def test_same_errors_as_the_other_views(repo, goal):
    start(repo)
    assert md(repo, "graph") == "history: absent\n"
    assert not store_dir(repo).exists()
    note(repo, "one")
    assert fails(repo, "graph", "--format", "yaml") == (64, "invalid_input")
    assert fails(repo, "graph", "--page", "p1.x") == (64, "invalid_input")
    assert fails(repo, "graph", "--limit", "5") == (64, "invalid_input")
    assert fails(repo, "graph", "--bogus") == (64, "invalid_input")
    r = ha("history", GOAL, "graph", "--bogus", cwd=repo)
    assert r.stderr == "ha: invalid_input: history graph: unknown option --bogus\n"
    assert fails(repo, "graph", "--since", "c1.nope") == (65, "cursor_invalid")
    events = store_dir(repo) / "events.jsonl"
    events.write_bytes(events.read_bytes().replace(b"one", b"two"))
    assert fails(repo, "graph") == (65, "history_corrupt")
    assert fails(repo, "list") == (65, "history_corrupt")


def test_not_started(repo, goal):
    assert fails(repo, "graph") == (65, "not_started")
