"""Issue 11, test hygiene: the bats suites call nothing that the set-up does not install
(jq in particular: JSON is read with json_eval, on the set-up's own Python)."""
import re
from pathlib import Path

BATS = Path(__file__).resolve().parents[2] / "bats"


def test_no_bats_suite_calls_jq():
    for path in BATS.glob("*.bats"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.search(r"(^|[\s(|$`])jq(\s|$)", line), f"{path.name}:{n}: {line}"
