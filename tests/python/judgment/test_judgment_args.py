"""What is left of the judgment modules' argument helpers (judgment.args): the usage error
names its field, and a field's flag spelling."""
from judgment_toolkit.judgment.args import UsageError, flag_name


def test_usage_error_names_its_field():
    assert str(UsageError("rank", "must be match or relevance")) == "rank: must be match or relevance"
    assert UsageError("rank", "x").field == "rank"
    assert str(UsageError(None, "no field")) == "no field"


def test_flag_name():
    assert flag_name("card_ref") == "--card-ref"
