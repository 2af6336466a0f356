#!/usr/bin/env python3
"""Ranking quality of search/recall in both modes, on the labelled set in bench/eval/.

bench/eval/ledger.jsonl is a ledger (88 decisions of a web shop team, project "storefront", and 4
of another project that must never come back); bench/eval/questions.json holds the questions with
graded relevance (2: the same decision, 1: same narrow subject, unlisted: 0) and the split (odd
question numbers: dev, used for tuning; even numbers: held-out test).

Metrics at the 3-result cap, averaged over the questions that have a relevant decision (grade >= 1):
  precision@3  relevant results among the first 3, divided by 3;
  ideal P@3    the best precision@3 possible: min(relevant decisions, 3) / 3;
  nDCG@3       gain 2^grade - 1, discount log2(rank + 1), divided by the ideal ordering's;
  success@3    at least one relevant result among the first 3;
  reachable    the ideal P@3 counting only the relevant decisions that share a term (judgment.rank)
               with the question, its own or one the lexicon adds: the most the relevance
               ranking could find.
For the questions with no relevant decision, `quiet` is the share that got no result at all.

    .venv/bin/python bench/rank_eval.py [--questions FILE] [--ledger FILE] [--split NAME|all] [--show]

--questions reads another question file of the same format (default bench/eval/questions.json);
the ledger is --ledger when given, else the file's "ledger" key (a path relative to the file)
when it has one, else bench/eval/ledger.jsonl. --split takes any split name the file uses (dev,
test, blind, ...); without it every split of the file is printed, in the order they first appear.
"""
import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pylib"))

from judgment_toolkit.judgment import search  # noqa: E402

EVAL = ROOT / "bench" / "eval"
LEDGER = EVAL / "ledger.jsonl"
CUT = search.MAX_LIMIT


QUESTIONS = EVAL / "questions.json"


def load(path=QUESTIONS, ledger=None):
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if ledger is None and data.get("ledger"):
        ledger = Path(path).parent / data["ledger"]
    data["ledger_path"] = Path(ledger) if ledger else LEDGER
    return data


def splits_of(data):
    return list(dict.fromkeys(q["split"] for q in data["questions"]))


def decisions(project, ledger=LEDGER):
    with open(ledger, encoding="utf-8") as f:
        return {r["id"]: r for r in map(json.loads, f) if r["project"] == project}


def reachable(question, relevant, records):
    """min(relevant decisions sharing a query term with the question, 3) / 3."""
    from judgment_toolkit.judgment import rank
    wanted = set(rank.query_terms(question)[0])  # its own terms and the lexicon's
    share = [i for i in relevant
             if wanted & set(rank.terms(" ".join([records[i]["question"], records[i]["answer"],
                                                   records[i]["rationale"], *records[i]["tags"]])))]
    return min(len(share), CUT) / CUT


def ranked_ids(project, question, mode, ledger=LEDGER):
    return [r["id"] for r in search.search(str(ledger), project, question, CUT, mode=mode)]


def dcg(grades):
    return sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(grades))


def scores(found, relevant):
    """(precision@3, ideal precision@3, nDCG@3, success@3) of one answered question."""
    grades = [relevant.get(i, 0) for i in found[:CUT]]
    hits = sum(1 for g in grades if g > 0)
    ideal = sorted(relevant.values(), reverse=True)[:CUT]
    return (hits / CUT, min(len(relevant), CUT) / CUT, dcg(grades) / dcg(ideal), float(hits > 0))


def evaluate(mode, split, data=None):
    """{"questions", "answerable", "p@3", "ideal p@3", "ndcg@3", "success@3", "reachable p@3",
    "quiet", "runs"}."""
    data = data or load()
    ledger = data.get("ledger_path", LEDGER)
    records = decisions(data["project"], ledger)
    rows, quiet, unanswerable, runs = [], 0, 0, {}
    for q in data["questions"]:
        if split != "all" and q["split"] != split:
            continue
        relevant = {k: v for k, v in q["relevant"].items() if v > 0}
        found = ranked_ids(data["project"], q["question"], mode, ledger)
        runs[q["id"]] = found
        if relevant:
            rows.append(scores(found, relevant) + (reachable(q["question"], relevant, records),))
        else:
            unanswerable += 1
            quiet += not found
    mean = [sum(col) / len(rows) for col in zip(*rows)] if rows else [0.0] * 5
    return {"questions": len(rows) + unanswerable, "answerable": len(rows), "p@3": mean[0],
            "ideal p@3": mean[1], "ndcg@3": mean[2], "success@3": mean[3], "reachable p@3": mean[4],
            "quiet": quiet / unanswerable if unanswerable else 1.0, "runs": runs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", default=str(QUESTIONS), help="question file (JSON)")
    ap.add_argument("--ledger", help="the ledger the questions are about (JSONL)")
    ap.add_argument("--split", help="a split name of the file, or all (default: each split)")
    ap.add_argument("--show", action="store_true", help="print every question's results")
    args = ap.parse_args()
    data = load(args.questions, args.ledger)
    known = splits_of(data)
    if args.split and args.split != "all" and args.split not in known:
        ap.error(f"--split {args.split!r}: {args.questions} has the splits {', '.join(known)}")
    splits = [args.split] if args.split else known
    print("| split | mode | questions (answerable) | P@3 | ideal P@3 | P@3 / ideal | nDCG@3 "
          "| success@3 | quiet on unanswerable | reachable P@3 | P@3 / reachable |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for split in splits:
        for mode in search.MODES:
            r = evaluate(mode, split, data)
            print(f"| {split} | {mode} | {r['questions']} ({r['answerable']}) | {r['p@3']:.3f} "
                  f"| {r['ideal p@3']:.3f} | {r['p@3'] / r['ideal p@3']:.2f} | {r['ndcg@3']:.3f} "
                  f"| {r['success@3']:.3f} | {r['quiet']:.2f} | {r['reachable p@3']:.3f} "
                  f"| {r['p@3'] / r['reachable p@3']:.2f} |")
            if args.show:
                for q in data["questions"]:
                    if q["id"] in r["runs"]:
                        marks = [f"{i}:{q['relevant'].get(i, 0)}" for i in r["runs"][q["id"]]]
                        print(f"    {q['id']} {q['question']!r} -> {' '.join(marks) or '-'} "
                              f"(want {q['relevant']})")


if __name__ == "__main__":
    main()
