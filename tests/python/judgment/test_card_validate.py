"""judgment-card.sh validate CARD."""
import json

from ledger_helpers import CARD, card, hermetic_env, write_card


def test_valid_card_exits_0_silently(tmp_path):
    r = card("validate", write_card(tmp_path / "c.json"), env=hermetic_env(tmp_path))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_every_violation_is_listed_by_json_path(tmp_path):
    path = write_card(tmp_path / "c.json", question="", confidence="sure", extra=True,
                      options=[{"id": "a", "label": ""}, {"id": "b", "label": "B", "consequence": "c"}],
                      impact_score=400)
    r = card("validate", path, env=hermetic_env(tmp_path))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.splitlines() == [
        f"judgment-card: {path} is not a valid judgment-card.v1:",
        "  $: Additional properties are not allowed ('extra' was unexpected)",
        "  $.confidence: 'sure' is not one of ['high', 'medium', 'low']",
        "  $.impact_score: 400 is greater than the maximum of 100",
        "  $.options[0]: 'consequence' is a required property",
        "  $.options[0].label: '' should be non-empty",
        "  $.question: '' should be non-empty",
    ]


def test_not_an_object(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("[1, 2]")
    r = card("validate", path, env=hermetic_env(tmp_path))
    assert r.returncode == 1 and "$: [1, 2] is not of type 'object'" in r.stderr


def test_missing_file(tmp_path):
    r = card("validate", tmp_path / "nope.json", env=hermetic_env(tmp_path))
    assert (r.returncode, r.stderr) == (1, f"judgment-card: cannot read {tmp_path}/nope.json: "
                                           "No such file or directory\n")


def test_invalid_json(tmp_path):
    env = hermetic_env(tmp_path)
    for name, raw in [("broken.json", b'{"question": '), ("nan.json", b'{"impact_score": NaN}'),
                      ("latin1.json", b'{"question": "caf\xe9"}'), ("empty.json", b"")]:
        path = tmp_path / name
        path.write_bytes(raw)
        r = card("validate", path, env=env)
        assert r.returncode == 1 and r.stdout == "", name
        assert r.stderr.startswith(f"judgment-card: {path} is not valid JSON: "), r.stderr


def test_a_directory_is_unreadable(tmp_path):
    r = card("validate", tmp_path, env=hermetic_env(tmp_path))
    assert r.returncode == 1 and r.stderr.startswith(f"judgment-card: cannot read {tmp_path}: ")


def test_usage(tmp_path):
    env = hermetic_env(tmp_path)
    r = card("validate", env=env)
    assert r.returncode == 64 and "missing CARD" in r.stderr
    p = write_card(tmp_path / "c.json")
    r = card("validate", p, p, env=env)
    assert r.returncode == 64 and "unexpected argument" in r.stderr


def test_pretty_and_compact_cards_are_the_same_card(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(CARD))
    assert card("validate", path, env=hermetic_env(tmp_path)).returncode == 0
