#!/usr/bin/env python3
"""Quality of recall for automatic injection (judgment.inject.answers) on labelled questions.

Reads a question file in the format of bench/eval/inject/dev.json (each question names its
project, text, option labels, and its relevant decisions: 2 = answers it, 1 = an earlier decision
on the same question; "newest" names the decision that must lead on a reversal) or of
bench/eval/questions.json (one project for the file, no options; 1 = a related decision).

What a question injects is every decision the rule returns, its "earlier" ones included, in the
order the hook shows them. Figures, per split and per kind:
  precision  relevant (grade >= 1) injected decisions / injected decisions, over all questions;
  success    answerable questions with a relevant decision injected / answerable questions;
  silence    unanswerable questions with nothing injected / unanswerable questions;
  nDCG@3     of the injected list (gain 2^grade - 1), over the answerable questions;
  leads      reversal questions whose first decision is the newest one ("newest") / those;
  per q      decisions injected per question;
and, for a file whose answerable questions name the option their leader's answer is (`chosen`),
where the hook puts the first decision shown when that is a leader: on that option, on another
one, or under the question; and for the reversed questions (those naming their `newest`), where
the rule leaves the newest decision (reversal_outcomes: leading, shown after another, shown as
an earlier decision, or not shown while an earlier one is or is not, among the candidates or
not).
"rule" is judgment.inject.answers; "top 3" is the relevance ranking's first 3 results for the
question and its option labels, all injected (what the hook did before the rule).

    .venv/bin/python bench/inject_eval.py [--questions FILE ...] [--split NAME] [--show]
"""
import argparse
import functools
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pylib"))

from judgment_toolkit.judgment import inject, rank  # noqa: E402

DEFAULT = [ROOT / "bench" / "eval" / "inject" / "dev.json", ROOT / "bench" / "eval" / "questions.json"]


def load(path):
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    ledger = Path(path).parent / data.get("ledger", "ledger.jsonl")
    for q in data["questions"]:
        q.setdefault("project", data.get("project"))
        q["labels"] = [o["label"] if isinstance(o, dict) else o for o in q.get("options", [])]
    return ledger, data["questions"]


@functools.lru_cache(maxsize=None)
def _answers(ledger, project, question, labels, header):
    explain = {}
    return inject.answers(ledger, project, question, labels, header=header,
                          explain=explain), explain


def _answered(ledger, q):
    """(inject.answers, its explain) for question q, computed once a process: the rows, the
    placement, the reversals and the paths read the same answers."""
    return _answers(str(ledger), q["project"], q["question"], tuple(q["labels"]),
                    q.get("header", ""))


def answered(ledger, q):
    """inject.answers for question q (_answered)."""
    return _answered(ledger, q)[0]


def explained(ledger, q):
    """The `explain` of inject.answers for question q: id -> the test that let it in."""
    return _answered(ledger, q)[1]


def rule(ledger, q):
    out = []
    for a in answered(ledger, q):
        out.append(a["record"]["id"])
        out.extend(r["id"] for r in a["earlier"])
    return out


def top3(ledger, q):
    text = " ".join([q["question"], *q["labels"]])
    return [r["id"] for r in rank.search_records(str(ledger), q["project"], text, 3)]


METHODS = {"top 3": top3, "rule": rule}


def dcg(grades):
    return sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(grades))


def figures(rows):
    """rows: [(question, injected ids)] -> {name: value or None}."""
    injected = relevant = answerable = found = unanswerable = quiet = 0
    ndcg = []
    reversals = leads = 0
    for q, ids in rows:
        rel = {k: v for k, v in q["relevant"].items() if v > 0}
        injected += len(ids)
        relevant += sum(1 for i in ids if i in rel)
        if rel:
            answerable += 1
            found += any(i in rel for i in ids)
            ideal = dcg(sorted(rel.values(), reverse=True)[:3])
            ndcg.append(dcg([rel.get(i, 0) for i in ids[:3]]) / ideal)
        else:
            unanswerable += 1
            quiet += not ids
        if q.get("newest"):
            reversals += 1
            leads += bool(ids) and ids[0] == q["newest"]
    return {"questions": len(rows), "answerable": answerable,
            "precision": relevant / injected if injected else None,
            "success": found / answerable if answerable else None,
            "silence": quiet / unanswerable if unanswerable else None,
            "ndcg@3": sum(ndcg) / len(ndcg) if ndcg else None,
            "leads": f"{leads}/{reversals}" if reversals else "-",
            "per q": injected / len(rows) if rows else 0.0}


def placement(ledger, questions):
    """Where the hook puts the first decision it shows (docs/claude-kit.md, "What the person
    sees"), for the questions whose `chosen` option is labelled (the option the leader's answer
    is) and whose first decision shown is a leader (grade 2): {"on the chosen option": n, "on
    another option": n, "under the question": n}."""
    from judgment_toolkit.claude import annotate
    out = {"on the chosen option": 0, "on another option": 0, "under the question": 0}
    for q in questions:
        if not q.get("chosen"):
            continue
        found = answered(ledger, q)
        if not found or q["relevant"].get(found[0]["record"]["id"]) != 2:
            continue
        hits, _ = annotate.placed(found[0], q["labels"], inject.option_of)
        where = ("under the question" if not hits else "on the chosen option"
                 if hits == [q["chosen"]] else "on another option")
        out[where] += 1
    return out


OUTCOMES = ("the newest leads", "the newest shown, not first", "the newest shown as an earlier decision",
            "an earlier one shown alone, the newest a candidate",
            "an earlier one shown alone, the newest no candidate",
            "neither shown, the newest a candidate", "neither shown, the newest no candidate")


def reversal_outcomes(ledger, questions):
    """Where the rule leaves the newest decision of each reversed question (one naming its
    `newest`): {outcome: n} over OUTCOMES, in that order. "A candidate" is one of the records
    the rule weighed (inject.judge), whether or not it was accepted."""
    out = dict.fromkeys(OUTCOMES, 0)
    for q in questions:
        newest = q.get("newest")
        if not newest:
            continue
        found = answered(ledger, q)
        leaders = [a["record"]["id"] for a in found]
        earlier = [r["id"] for a in found for r in a["earlier"]]
        if leaders[:1] == [newest]:
            out[OUTCOMES[0]] += 1
        elif newest in leaders:
            out[OUTCOMES[1]] += 1
        elif newest in earlier:
            out[OUTCOMES[2]] += 1
        else:
            weighed = {rec["id"] for _, rec in inject.judge(
                str(ledger), q["project"], q["question"], q["labels"], header=q.get("header", ""))}
            older = {rid for rid, grade in q["relevant"].items() if grade == 1}
            shown = bool(older & set(leaders + earlier))
            out[OUTCOMES[(3 if shown else 5) + (newest not in weighed)]] += 1
    return out


def paths(ledger, questions):
    """{the test that let a decision in (inject.ADMITTED, or "joined: " and inject.JOINED):
    [shown, wrong]} over the decisions the rule shows, each counted once a question; wrong is
    a decision of grade 0 for that question."""
    out = {}
    for q in questions:
        for rid, why in explained(ledger, q).items():
            counts = out.setdefault(why, [0, 0])
            counts[0] += 1
            counts[1] += q["relevant"].get(rid, 0) == 0
    return dict(sorted(out.items(), key=lambda item: -item[1][0]))


def cell(v):
    return "-" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", nargs="+", default=[str(p) for p in DEFAULT if p.exists()])
    ap.add_argument("--split", help="only this split (dev, test, blind, ...)")
    ap.add_argument("--kinds", action="store_true", help="a row per kind of question too")
    ap.add_argument("--show", action="store_true", help="every question's injected decisions")
    ap.add_argument("--paths", action="store_true",
                    help="how many decisions each test of the rule let in, and how many wrong")
    args = ap.parse_args()
    print("| file | split | kind | method | questions (answerable) | precision | success "
          "| silence | nDCG@3 | newest leads | injected per question |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in args.questions:
        ledger, questions = load(path)
        full = Path(path).resolve()
        name = full.relative_to(ROOT) if full.is_relative_to(ROOT) else path
        splits = [args.split] if args.split else list(dict.fromkeys(q["split"] for q in questions))
        for split in splits:
            chosen = [q for q in questions if q["split"] == split]
            runs = {m: [(q, f(ledger, q)) for q in chosen] for m, f in METHODS.items()}
            groups = [("all", None)]
            if args.kinds:
                groups += [(k, k) for k in dict.fromkeys(q.get("kind", "-") for q in chosen)]
            for kind, only in groups:
                for method, rows in runs.items():
                    rows = [r for r in rows if only is None or r[0].get("kind", "-") == only]
                    f = figures(rows)
                    print(f"| {name} | {split} | {kind} | {method} | {f['questions']} ({f['answerable']}) "
                          f"| {cell(f['precision'])} | {cell(f['success'])} | {cell(f['silence'])} "
                          f"| {cell(f['ndcg@3'])} | {f['leads']} | {f['per q']:.2f} |")
            if any(q.get("chosen") for q in chosen):
                placed = placement(ledger, chosen)
                print(f"    {name} {split}: where the first decision shown goes, when it leads and"
                      f" the option it chose is labelled: "
                      + ", ".join(f"{where} {n}" for where, n in placed.items()))
            if any(q.get("newest") for q in chosen):
                outcomes = reversal_outcomes(ledger, chosen)
                print(f"    {name} {split}: the newest decision of each reversed question: "
                      + ", ".join(f"{where} {n}" for where, n in outcomes.items()))
            if args.paths:
                print(f"    {name} {split}: the decisions shown by the test that let them in"
                      f" (shown, wrong): " + ", ".join(
                          f"{why} {n} ({wrong})" for why, (n, wrong) in paths(ledger, chosen).items()))
            if args.show:
                for q, ids in runs["rule"]:
                    marks = " ".join(f"{i}:{q['relevant'].get(i, 0)}" for i in ids) or "-"
                    print(f"    {q['id']} [{q.get('kind', '-')}] {q['question'][:70]!r} -> {marks} "
                          f"(want {q['relevant']})")


if __name__ == "__main__":
    main()
