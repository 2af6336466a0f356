"""The strict flag parser shared by both command lines (judgment.args)."""
import pytest

from judgment_toolkit.judgment.args import UsageError, flag_name, parse, require


def test_parse_forms():
    assert parse(["--a", "1", "--b-c=2"], ("a", "b_c")) == ([], {"a": "1", "b_c": "2"})
    assert parse(["x", "--a", "--a-looking"], ("a",), positionals=1) == (["x"], {"a": "--a-looking"})
    assert parse(["--a="], ("a",)) == ([], {"a": ""})


@pytest.mark.parametrize("argv,message", [
    (["--z", "1"], "--z: unknown flag"),
    (["--a", "1", "--a=2"], "a: --a given more than once"),
    (["--a"], "a: --a needs a value"),
    (["x"], "unexpected argument 'x'"),
])
def test_errors(argv, message):
    with pytest.raises(UsageError) as e:
        parse(argv, ("a",))
    assert str(e.value) == message


def test_require_and_flag_name():
    assert flag_name("card_ref") == "--card-ref"
    with pytest.raises(UsageError, match="card_ref: missing --card-ref"):
        require({}, "card_ref")
