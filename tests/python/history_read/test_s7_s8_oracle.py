"""decision-history/v1 sections 7 and 8 against a plain oracle: random histories (lineages, targets, words, builds_on,
supersedes) written as real stores; current, list, --since and page walks computed by the
views must equal what the definitions give when applied naively."""
import json
import random

import pytest

from helpers_read import GOAL, context, runs_lines, sha, start, write_store

from judgment_toolkit.ha.history.views import viewcli

TARGETS = ["AC-1", "AC-2", "EX-1", "T001"]
WORDS = ["buffer", "Empty", "loop", "zero", "경계"]


def build(repo, rnd, n):
    lines = runs_lines(repo)
    heads = {"same": [{"seq": 1, "sha256": sha(lines[0])}, {"seq": 2, "sha256": sha(lines[1])}],
             "different": [{"seq": 2, "sha256": sha(b"other")}],
             "unverifiable": [{"seq": 7, "sha256": sha(b"ahead")}]}
    base = context(repo)
    events, facts = [], []
    for seq in range(1, n + 1):
        lineage = rnd.choices(["same", "different", "unverifiable"], [6, 2, 1])[0]
        d = {"kind": "관측", "summary": " ".join(rnd.sample(WORDS, rnd.randint(1, 2)))}
        if rnd.random() < 0.3:
            d["reason"] = rnd.choice(WORDS).upper()
        targets = rnd.sample(TARGETS, rnd.randint(0, 2))
        if targets:
            d["targets"] = targets
        earlier = list(range(1, seq))
        builds = rnd.sample(earlier, min(len(earlier), rnd.choice([0, 0, 1, 2])))
        sups = rnd.sample(earlier, min(len(earlier), rnd.choice([0, 0, 0, 1, 2])))
        if builds:
            d["builds_on"] = [f"D{b}" for b in builds]
        if sups:
            d["supersedes"] = [{"id": f"D{s}"} for s in sups]
        events.append((d, dict(base, run_head=rnd.choice(heads[lineage]))))
        facts.append({"seq": seq, "lineage": lineage, "targets": targets,
                      "text": (d["summary"].casefold(), d.get("reason", "").casefold()),
                      "builds": builds, "sups": sups})
    write_store(repo, events)
    return facts


def oracle(facts, targets=(), keywords=(), since=0):
    same = {f["seq"] for f in facts if f["lineage"] == "same"}
    corrected = {f["seq"]: [] for f in facts}
    for f in facts:
        if f["seq"] in same:
            for a in f["sups"]:
                corrected[a].append(f["seq"])

    def match(f):
        if targets and not set(targets) & set(f["targets"]):
            return False
        return all(k.casefold() in f["text"][0] or k.casefold() in f["text"][1]
                   for k in keywords)

    by_seq = {f["seq"]: f for f in facts}
    span = [f for f in facts if f["seq"] > since]
    current = [f"D{f['seq']}" for f in span
               if f["seq"] in same and not corrected[f["seq"]] and match(f)]
    listed = [f"D{f['seq']}" for f in span if match(f)]
    grounds = {f"D{f['seq']}": [{"ground": f"D{a}", "corrected_by": [f"D{b}" for b in corrected[a]]}
                                for a in f["builds"] if corrected[a]] for f in facts}
    replacements = [(f"D{a}", f"D{f['seq']}") for f in span if f["seq"] in same
                    for a in f["sups"] if a in same and match(by_seq[a])] if since else []
    other = [f"D{f['seq']}" for f in span if f["seq"] not in same and match(f)]
    return current, listed, grounds, replacements, other


def other_corrections(facts, targets, keywords):
    def match(f):
        return (not targets or set(targets) & set(f["targets"])) and all(
            k.casefold() in f["text"][0] or k.casefold() in f["text"][1] for k in keywords)
    return [{"id": f"D{f['seq']}", "lineage": f["lineage"], "supersedes": [f"D{a}" for a in f["sups"]]}
            for f in facts if f["lineage"] != "same" and f["sups"]
            and (match(f) or any(match(facts[a - 1]) for a in f["sups"]))][:50]


def run_view(repo, *args):
    return json.loads(viewcli.run(GOAL, [*args, "--format", "json"], cwd=str(repo)))


def walk(repo, args, limit):
    v = run_view(repo, *args, "--limit", str(limit))
    events, repl = list(v["events"]), list(v["replacements"])
    pages = 1
    while v["page"]["next"]:
        v = run_view(repo, *args, "--limit", str(limit), "--page", v["page"]["next"])
        events += v["events"]
        repl += v["replacements"]
        pages += 1
    return events, [(r["replaced"], r["by"]) for r in repl], v, pages


@pytest.mark.parametrize("seed", range(6))
def test_views_agree_with_the_definitions(repo, goal, seed):
    rnd = random.Random(seed)
    start(repo)
    facts = build(repo, rnd, rnd.randint(15, 45))
    for _ in range(4):
        targets = rnd.sample(TARGETS, rnd.randint(0, 2))
        keywords = rnd.sample(WORDS, rnd.choice([0, 0, 1]))
        args = [a for t in targets for a in ("--target", t)]
        args += [a for k in keywords for a in ("--keyword", k)]
        current, listed, grounds, _, other = oracle(facts, targets, keywords)
        limit = rnd.randint(1, 7)
        got, _, last, _ = walk(repo, ["current", *args], limit)
        assert [e["id"] for e in got] == current
        assert [o["id"] for o in last["other_lineage"]["events"]] == other[:50]
        assert last["other_corrections"]["events"] == other_corrections(facts, targets, keywords)
        got, _, _, _ = walk(repo, ["list", *args], limit)
        assert [e["id"] for e in got] == listed
        for e in got:
            assert e["grounds_corrected"] == grounds[e["id"]]
            assert e["lineage"] == facts[e["seq"] - 1]["lineage"]
    # corrections per event, and show's successors, for every event
    corr = {f["seq"]: ([], []) for f in facts}
    for f in facts:
        for a in f["sups"]:
            corr[a][0 if f["lineage"] == "same" else 1].append(f"D{f['seq']}")
    listed, _, _, _ = walk(repo, ["list"], 200)
    for e in listed:
        assert (e["superseded_by"], e["other_corrected_by"]) == corr[e["seq"]]
    for f in rnd.sample(facts, 5):
        want = [(f"D{g['seq']}", [r for r, on in (("builds_on", f["seq"] in g["builds"]),
                                                 ("supersedes", f["seq"] in g["sups"])) if on])
                for g in facts if f["seq"] in g["builds"] or f["seq"] in g["sups"]]
        got, v = [], run_view(repo, "show", f"D{f['seq']}", "--limit", "2")
        got += v["successors"]
        while v["page"]["next"]:
            v = run_view(repo, "show", f"D{f['seq']}", "--limit", "2", "--page", v["page"]["next"])
            got += v["successors"]
        assert [(s["id"], s["relations"]) for s in got] == want


@pytest.mark.parametrize("seed", range(4))
def test_since_agrees_with_the_definitions(repo, goal, seed):
    rnd = random.Random(100 + seed)
    start(repo)
    facts = build(repo, rnd, 40)
    # the boundary cursor of the first k events: cut the store to them, take its cursor,
    # then write the same 40 events again (same seed, same lines)
    k = rnd.randint(5, 30)
    write_prefix(repo, k)
    c = run_view(repo, "current")["cursor"]
    assert build(repo, random.Random(100 + seed), 40) == facts
    for _ in range(3):
        targets = rnd.sample(TARGETS, rnd.randint(0, 2))
        args = [a for t in targets for a in ("--target", t)]
        current, listed, _, replacements, _ = oracle(facts, targets, (), since=k)
        limit = rnd.randint(1, 6)
        got, repl, last, _ = walk(repo, ["current", *args, "--since", c], limit)
        assert [e["id"] for e in got] == current
        assert repl == replacements
        assert last["range"] == {"since": k, "end": 40}
        got, repl, _, _ = walk(repo, ["list", *args, "--since", c], limit)
        assert [e["id"] for e in got] == listed and repl == replacements


def write_prefix(repo, k):
    path = repo / ".git" / "ha" / "history"
    store = next(path.iterdir())
    lines = (store / "events.jsonl").read_bytes().split(b"\n")[:k]
    (store / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    (store / "last").write_bytes(json.dumps({"seq": k, "sha256": sha(lines[-1])},
                                            separators=(",", ":")).encode() + b"\n")
