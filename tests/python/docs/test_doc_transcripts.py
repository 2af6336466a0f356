"""Docs that cannot drift: every command example with output in README.md and
docs/*.md is run and its output compared; see transcripts.py for the format, the sandbox,
what is normalised and how to mark a block illustrative. `DOC_TRANSCRIPTS=update` rewrites
the documented outputs that differ with what the commands print now."""
import os

import pytest

import transcripts


def test_the_matcher_and_the_parser():
    assert transcripts.matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert transcripts.matches(["a", "...", "d"], ["a", "d"])
    assert not transcripts.matches(["a", "...", "d"], ["a", "b"])
    assert not transcripts.matches(["a"], ["a", "b"])
    text = ("x\n<!-- doc-test: run touch f -->\n```\n$ echo 1 \\\n  2\n1 2\n\n$ false\n[exit 1]\n"
            "```\n<!-- doc-test: skip needs a network -->\n```console\n$ curl x\n```\n"
            "```json\n$ not a transcript\n```\n")
    first, second = transcripts.parse(text)
    assert first.setup == ["touch f"] and second.skip == "needs a network"
    one, two = first.commands
    assert (one.text, one.expected, one.exit) == ("echo 1 \n  2", ["1 2"], None)
    assert (two.text, two.expected, two.exit) == ("false", [], 1)
    assert transcripts.normalise(['{"at":"2026-12-02T15:41:09Z","h":"' + "ab" * 32 + '"}']) \
        == ['{"at":"<TIME>","h":"<HEX>"}']


@pytest.mark.parametrize("doc", transcripts.documents(),
                         ids=lambda p: str(p.relative_to(transcripts.ROOT)))
def test_documented_transcripts_match(doc, tmp_path):
    update = os.environ.get("DOC_TRANSCRIPTS") == "update"
    failures = transcripts.run_document(doc, tmp_path, update=update)
    assert not failures, "\n\n".join(failures)
