"""judgment-ledger list / show and prime --json (judgment.browse, judgment.prime): newest
first, a page at a time with a cursor, only the asking project's records (Judgment Ledger v1,
section 'Project Scope'), and memory bounded by the page."""
import json
import subprocess

import pytest

from ledger_helpers import LEDGER_SH, hermetic_env, ledger, rec, write_records

from judgment_toolkit.judgment import browse


@pytest.fixture
def shop(tmp_path):
    """25 decisions of shop (two at the same time), 5 of blog between them."""
    path = tmp_path / "l.jsonl"
    recs = []
    for n in range(25):
        recs.append(rec(n, project="shop", decided_at=f"2026-02-{1 + n // 2:02d}T00:00:00Z"))
        if n % 5 == 0:
            recs.append(rec(100 + n, project="blog", decided_at=f"2026-03-{1 + n:02d}T00:00:00Z"))
    write_records(path, recs)
    return path


def env_for(tmp_path, path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)


def test_pages_walk_every_decision_once_newest_first(tmp_path, shop):
    env = env_for(tmp_path, shop)
    seen, after = [], None
    while True:
        args = ["list", "--project", "shop", "--limit", "7", "--json"]
        r = ledger(*args, *(["--after", after] if after else []), env=env)
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)
        assert doc["project"] == "shop" and len(doc["decisions"]) <= 7
        seen += [d["id"] for d in doc["decisions"]]
        after = doc["next"]
        if after is None:
            break
        assert f"--after {after}" in r.stderr
    # same time: the later line first
    assert seen == [f"id-{n}" for n in range(24, -1, -1)]


def test_list_text_is_one_line_each_and_says_the_next_page(tmp_path, shop):
    r = ledger("list", "--project", "shop", "--limit", "2", env=env_for(tmp_path, shop))
    assert r.stdout.splitlines() == ["2026-02-13T00:00:00Z  id-24  question 24 → a",
                                     "2026-02-12T00:00:00Z  id-23  question 23 → a"]
    cursor = browse.cursor_of(("2026-02-12T00:00:00.000000", shop.read_bytes().index(b'{"id":"id-23"')))
    assert r.stderr == ("judgment-ledger: list: next page: judgment-ledger list --project shop "
                        f"--limit 2 --after {cursor}\n")


def test_list_reads_only_the_asking_project(tmp_path, shop):
    """Judgment Ledger v1, section 'Project Scope': blog's records never show in shop's list,
    and a project with no records lists nothing (said on stderr)."""
    env = env_for(tmp_path, shop)
    r = ledger("list", "--project", "blog", "--json", env=env)
    assert [d["id"] for d in json.loads(r.stdout)["decisions"]] == [f"id-{100 + n}" for n in (20, 15, 10, 5, 0)]
    assert all(d["project"] == "blog" for d in json.loads(r.stdout)["decisions"])
    r = ledger("list", "--project", "sho", env=env)
    assert (r.returncode, r.stdout) == (0, "")
    assert r.stderr == f"judgment-ledger: list: no decision of project 'sho' in {shop}\n"


def test_show_one_decision_of_the_project_only(tmp_path, shop):
    env = env_for(tmp_path, shop)
    r = ledger("show", "id-3", "--project", "shop", env=env)
    assert r.returncode == 0
    assert r.stdout.splitlines()[:3] == ["id: id-3", "project: shop", "decided_at: 2026-02-02T00:00:00Z"]
    r = ledger("show", "id-3", "--project", "shop", "--format", "json", env=env)
    assert json.loads(r.stdout) == rec(3, project="shop", decided_at="2026-02-02T00:00:00Z")
    r = ledger("show", "id-105", "--project", "shop", env=env)  # blog's id
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (f"judgment-ledger: show: no decision 'id-105' in project 'shop' ({shop}); "
                        "judgment-ledger list --project shop lists its ids\n")


def test_show_finds_an_id_spelled_with_escapes(tmp_path):
    path = tmp_path / "l.jsonl"
    path.write_bytes(b'{"id":"\\u0069d-1","project":"demo","decided_at":"2026-01-01T00:00:00Z",'
                     b'"question":"q","answer":"a","rationale":"","card_ref":"c","tags":[]}\n')
    r = ledger("show", "id-1", "--project", "demo", "--json", env=env_for(tmp_path, path))
    assert r.returncode == 0 and json.loads(r.stdout)["id"] == "id-1"


def test_prime_json_is_the_markdown_content(tmp_path, shop):
    env = env_for(tmp_path, shop)
    md = ledger("prime", "--project", "shop", "--limit", "3", env=env).stdout
    r = ledger("prime", "--project", "shop", "--limit", "3", "--json", env=env)
    doc = json.loads(r.stdout)
    assert doc["project"] == "shop" and doc["recall"] in md
    assert [d["id"] for d in doc["decisions"]] == ["id-24", "id-23", "id-22"]
    for d in doc["decisions"]:
        assert f"- {d['question']} → **{d['answer']}** ({d['decided_at']}, id `{d['id']}`)" in md
    assert json.loads(ledger("prime", "--project", "none", "--json", env=env).stdout)["decisions"] == []


def test_a_page_holds_limit_plus_one_records(tmp_path):
    """Memory is bounded by the page, not the project: a page of 5 over 20k records of one
    project allocates far less than those records."""
    import tracemalloc
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(n, question="x" * 300) for n in range(20000)])
    tracemalloc.start()
    found, more = browse.page(path, "demo", 5, None)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(found) == 5 and more
    assert peak < 3 << 20, peak  # 20k records of 400 bytes as dicts would be far over 10 MB


@pytest.mark.parametrize("args, message", [
    (["list"], "list: project: missing --project"),
    (["list", "--project", "p", "--limit", "101"], "list: limit: must be a whole number from 1 to 100, not '101'"),
    (["list", "--project", "p", "--after", "x_1"], "list: after: not a cursor: 'x_1'"),
    (["list", "--project", "p", "--limt", "2"], "list: --limt: unknown flag (did you mean '--limit'?)"),
    (["show", "--project", "p"], "show: missing ID"),
    (["show", "i", "j", "--project", "p"], "show: unexpected argument 'j'"),
    (["show", "i"], "show: project: missing --project"),
    (["prime", "--project", "p", "--format", "md"], "prime: format: must be json (the same as --json), not 'md'"),
    (["sohw"], "unknown subcommand sohw (did you mean 'show'?)"),
])
def test_usage_errors_exit_64_naming_the_flag(tmp_path, args, message):
    r = ledger(*args, env=env_for(tmp_path, tmp_path / "l.jsonl"))
    assert r.returncode == 64 and r.stdout == ""
    assert r.stderr.startswith("judgment-ledger: " + message), r.stderr


@pytest.mark.parametrize("args", [
    ["append", "--project", "p", "--question", "q", "--answer", "a", "--card-ref", "c"],
    ["verify"], ["list", "--project", "p"], ["show", "id-1", "--project", "p"],
    ["prime", "--project", "p"], ["search", "--project", "p", "--query", "q"],
    ["recall", "--project", "p", "--question", "q"],
])
def test_json_and_format_json_are_the_same(tmp_path, args):
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(1, project="p", question="q")])
    env = env_for(tmp_path, path)
    a = ledger(*args, "--json", env=env)
    write_records(path, [rec(1, project="p", question="q")])
    b = ledger(*args, "--format", "json", env=env)
    assert (a.returncode, a.stderr) == (b.returncode, b.stderr)
    if args[0] == "append":  # a new id and time each: compare the shape
        assert json.loads(a.stdout).keys() == json.loads(b.stdout).keys()
    else:
        assert a.stdout == b.stdout and a.stdout.strip()
        json.loads(a.stdout.splitlines()[0])


def test_help_says_the_json_spelling_once(tmp_path):
    for sub in ("list", "show", "prime", "verify", "append"):
        r = subprocess.run([str(LEDGER_SH), sub, "--help"], capture_output=True, text=True)
        assert r.stdout.count("--json and --format json are the same") == 1, sub


@pytest.mark.parametrize("key", [("2026-02-12T00:00:00.000000", 438), ("", 7)])
def test_a_cursor_names_its_sort_key(key):
    """An unparseable decided_at sorts oldest (time key ""): its cursor is just the offset."""
    text = browse.cursor_of(key)
    assert browse.parse_cursor(text) == key
    assert text in ("2026-02-12T00:00:00.000000Z_438", "_7")
    with pytest.raises(ValueError):
        browse.parse_cursor(text + "x")


def test_the_usage_exit_rule_is_one_fact_said_where_it_applies():
    """Judgment Ledger v1, section 'Fail-Open': append's rejected record is exit 1; every other
    usage error is 64. One help file says it (usage-exits.txt); judgment-ledger --help and
    append --help print it, and no help text says otherwise."""
    from ledger_helpers import ROOT
    help_dir = ROOT / "scripts" / "lib" / "help"
    texts = {p.name: p.read_text(encoding="utf-8") for p in help_dir.glob("*.txt")}
    assert [n for n, t in texts.items() if "usage errors: exit 64" in t] == ["usage-exits.txt"]
    assert not [n for n, t in texts.items() if "where the other subcommands exit 64" in t]
    for args, shown in ((["--help"], True), (["append", "--help"], True), (["search", "--help"], False)):
        out = subprocess.run([str(LEDGER_SH), *args], capture_output=True, text=True).stdout
        assert ("usage errors: exit 64, except append's" in out) is shown, args
