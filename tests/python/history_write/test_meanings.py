"""Every kind and status token has its English meaning in one table (ha/history/meanings.py),
shown by `add --help` and docs/history.md; the stored tokens stay the contract's
(decision-history/v1, section 4 '사건': the kinds and their claim statuses)."""
import os
import subprocess

from conftest import GIT_ENV, ROOT, SCRIPTS

from judgment_toolkit.ha.history import meanings, model


def test_one_meaning_for_every_token_and_no_other():
    assert list(meanings.KIND_MEANINGS) == list(model.KINDS)
    statuses = [s for group in model.KINDS.values() for s in group]
    assert sorted(meanings.STATUS_MEANINGS) == sorted(statuses)
    assert meanings.word("관측") == "observation" and meanings.word("기각") == "rejected"


def test_add_help_gives_each_kind_and_status_its_meaning(tmp_path):
    r = subprocess.run([str(SCRIPTS / "ha"), "history", "g", "add", "--help"], cwd=tmp_path,
                       env=dict(os.environ, **GIT_ENV), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and r.stderr == ""
    for kind, meaning in meanings.KIND_MEANINGS.items():
        assert f"  {kind}  {meaning}\n" in r.stdout
    for status, word in meanings.STATUS_MEANINGS.items():
        assert f"{status} {word}" in r.stdout


def test_the_docs_give_the_same_meanings():
    doc = (ROOT / "docs" / "history.md").read_text(encoding="utf-8")
    for token in [*meanings.KIND_MEANINGS, *meanings.STATUS_MEANINGS]:
        assert f"`{token}` {meanings.word(token)}" in doc, token
