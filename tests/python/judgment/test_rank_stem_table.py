"""The packaged stems of the lexicon's words (templates/lexicon-stems.txt; docs/judgment-ledger.md,
"Cost"): judgment.analysis reads them instead of running Snowball, pure Python at tens of
microseconds a word, on the words of a question and of the records read back that are lexicon
words, in every hook process. The table is the stemmer's own output for exactly the lexicon's
words, so a term is the same read from it or stemmed; counted, never timed. When the lexicon
changes, the first test fails and prints the command that writes it and the lexicon's terms
table again (ledger_helpers.LEXICON_REWRITE).
"""
import json

from judgment_toolkit import packaged
from judgment_toolkit.judgment import analysis, inject, lexicon
from ledger_helpers import LEXICON_REWRITE, fresh_python, write_records


def test_the_table_is_the_stemmer_on_the_lexicon_words():
    written = packaged.text("lexicon", analysis.STEM_TABLE)
    generated = lexicon.generated(packaged.text("lexicon", lexicon.PACKAGED))
    assert written == generated[analysis.STEM_TABLE], (
        f"templates/lexicon-stems.txt is not the lexicon's; write it again: {LEXICON_REWRITE}")
    assert len(analysis._TABLE) > 1000
    assert all(analysis._stem(w) == s for w, s in analysis._TABLE.items())


def test_a_question_stems_none_of_the_lexicon_words(tmp_path):
    """The words of the question and of the records that are lexicon words are read from the
    table (and its groups from the terms table): the words stemmed in the process are only those
    of the records outside the lexicon."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, [{"id": f"r{i}", "project": "shop", "decided_at": "2025-01-01T00:00:00Z",
                          "question": "Which job queue for the new service: Redis or Postgres?",
                          "answer": "Redis", "rationale": "fewer moving parts",
                          "card_ref": "c", "tags": []} for i in range(3)])
    code = ("import json, sys\n"
            "from judgment_toolkit.judgment import analysis, inject, lexicon\n"
            "inject.answers(sys.argv[1], 'shop', 'Which job queue: Redis or Postgres?',"
            " ['Redis', 'Postgres'])\n"
            "print(json.dumps({'stemmed': sorted(analysis._STEMS),"
            " 'groups': len(lexicon.check().parsed)}))\n")
    found = json.loads(fresh_python(tmp_path, code, path))
    assert found["groups"] > 0  # the lexicon fired: its groups were read
    # the records' own words outside the lexicon (the question's are all in it), and the words
    # of a change outside it, read once when a candidate below ACCEPT is read for the option
    # its answer chose (inject.option_of sets them aside)
    stemmed = set(found["stemmed"])
    assert {"fewer", "moving"} <= stemmed  # "new" and "parts" are lexicon words
    assert stemmed - {"fewer", "moving", "parts"} <= set(inject.CHANGE.split())
    assert stemmed.isdisjoint(analysis.stem_table(packaged.text("lexicon", "lexicon.txt")).split())
