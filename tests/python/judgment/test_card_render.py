"""judgment-card.sh render CARD|- [--format md|html]: Markdown and the static page."""
import json
import re

from ledger_helpers import CARD, CARD_SH, hermetic_env, run, write_card


def card(*args, env, input=None):
    return run(CARD_SH, *args, env=env, input=input)

FULL = dict(CARD, impact_score=70, similar_past_decisions=[
    {"summary": "Cache sessions in Redis?", "decision": "no", "outcome": "one less service",
     "decided_at": "2026-11-20T10:00:00Z", "mem_id": "judgment-ledger:1b2c"}])
HOSTILE = dict(CARD, question="Ship <script>document.title='pwned'</script> now?",
               recommendation='<img src=x onerror="document.title=\'pwned\'">',
               diff_summary="a & b <b>bold</b> \"quoted\" 'single'")


def test_markdown_has_every_part(tmp_path):
    r = card("render", write_card(tmp_path / "c.json", FULL), env=hermetic_env(tmp_path))
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.splitlines() == [
        "# Decision: Use Redis or Postgres for the job queue?", "",
        "**Recommendation:** postgres (confidence: medium)", "",
        "## Options", "",
        "- `redis` **Redis**: one more service to run",
        "- `postgres` **Postgres** (recommended): no new service; SKIP LOCKED", "",
        "## Impact", "", "queue latency and operations load", "", "impact_score: 70/100", "",
        "## Diff summary", "", "adds a jobs table and a worker loop", "",
        "## Similar past decisions", "",
        "- 2026-11-20T10:00:00Z · Cache sessions in Redis? → **no** (one less service) · "
        "`judgment-ledger:1b2c`"]


def test_markdown_without_score_or_past_and_with_escaped_markup(tmp_path):
    r = card("render", write_card(tmp_path / "c.json", HOSTILE), env=hermetic_env(tmp_path))
    assert r.returncode == 0
    assert "impact_score" not in r.stdout and "- none recalled" in r.stdout
    assert "\\<script>" in r.stdout and "<script" not in r.stdout.replace("\\<script", "")


def test_stdin_and_html(tmp_path):
    r = card("render", "-", "--format", "html", env=hermetic_env(tmp_path),
             input=json.dumps(HOSTILE))
    assert r.returncode == 0, r.stderr
    page = r.stdout
    assert page.startswith("<!DOCTYPE html>")
    # self-contained: no script, no URL to load, no external reference of any kind
    assert not re.search(r"(?i)<script|\bsrc\s*=|\bhref\s*=|url\(|@import|https?:|//", page
                         .replace("&lt;script", "").replace("src=x", ""))
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=&quot;document.title=&#x27;pwned&#x27;&quot;&gt;" in page
    assert "a &amp; b &lt;b&gt;bold&lt;/b&gt; &quot;quoted&quot;" in page


def test_history_citations_are_listed(tmp_path):
    cited = dict(CARD, impact="see ha-history:docs/specs/queue#D2 and ha-history:docs/specs/queue#D2",
                 diff_summary="builds on ha-history:other/goal#D11.")
    path = write_card(tmp_path / "c.json", cited)
    md = card("render", path, env=hermetic_env(tmp_path)).stdout
    assert md.split("## History events cited\n\n")[1].splitlines() == [
        "- docs/specs/queue D2: `ha history docs/specs/queue show D2`",
        "- other/goal D11: `ha history other/goal show D11`"]
    page = card("render", path, "--format", "html", env=hermetic_env(tmp_path)).stdout
    assert "ha history docs/specs/queue show D2" in page


def test_invalid_card_exits_1_with_the_validation_error(tmp_path):
    path = write_card(tmp_path / "c.json", confidence="sure")
    for fmt in ("md", "html"):
        r = card("render", path, "--format", fmt, env=hermetic_env(tmp_path))
        assert (r.returncode, r.stdout) == (1, "")
        assert r.stderr.splitlines() == [f"judgment-card: {path} is not a valid judgment-card.v1:",
                                         "  $.confidence: 'sure' is not one of ['high', 'medium', 'low']"]
    r = card("render", "-", env=hermetic_env(tmp_path), input="{not json")
    assert r.returncode == 1 and r.stderr.startswith("judgment-card: stdin is not valid JSON")


def test_usage_errors(tmp_path):
    env = hermetic_env(tmp_path)
    path = write_card(tmp_path / "c.json")
    assert card("render", env=env).stderr == \
        "judgment-card: render: missing CARD (a judgment-card.v1 JSON file, or - for stdin)\n"
    r = card("render", path, "--format", "pdf", env=env)
    assert (r.returncode, r.stderr) == (64, "judgment-card: render: format: must be md or html, "
                                            "not 'pdf'\n")
    assert card("render", env=env).returncode == 64
