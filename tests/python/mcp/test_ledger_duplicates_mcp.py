"""The MCP server's reads count a record that a merge left on two lines once
(docs/judgment-ledger.md, "Duplicates and order"): it reads through the same functions as the
CLI, and this holds them to it through a real server and client."""
import json

from helpers_mcp import session, structured


def line(n, answer="a"):
    return json.dumps({"id": f"id-{n}", "project": "demo", "decided_at": f"2026-01-0{n}T00:00:00Z",
                       "question": f"queue choice {n}", "answer": answer, "rationale": "",
                       "card_ref": "c", "tags": []}, separators=(",", ":"))


def test_search_recall_and_prime_count_a_twice_written_record_once(repo):
    ledger = repo / "ledger.jsonl"
    ledger.write_text("\n".join([line(1), line(2), line(3), line(3), line(2), line(3, "other")])
                      + "\n")
    calls = [("search_judgments", {"query": "queue"}),
             ("recall_judgments", {"question": "queue choice"}),
             ("prime", {"limit": 10})]
    _, (found, recalled, primed) = session(calls, cwd=repo, ledger=ledger,
                                           args=["--project", "demo"])
    assert [r["id"] for r in structured(found)] == ["id-3", "id-2", "id-1"]
    assert structured(found)[0]["answer"] == "a"
    assert sorted(i["mem_id"] for i in structured(recalled)) == \
        [f"judgment-ledger:id-{n}" for n in (1, 2, 3)]
    text = primed.content[0].text
    assert text.count("id `id-3`") == 1 and text.count("id `id-2`") == 1
