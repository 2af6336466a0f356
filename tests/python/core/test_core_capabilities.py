"""`ha capabilities`: one compact JSON line, no repository needed."""
import json

from conftest import ha

from ha import capabilities


def test_outside_any_repository(tmp_path):
    r = ha("capabilities", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.endswith("}\n") and r.stdout.count("\n") == 1
    cap = json.loads(r.stdout)
    assert list(cap) == ["schema", "ha_version", "supported_rules", "default_rules", "formats",
                         "features"]
    assert cap["schema"] == "ha-capabilities/v1" and cap["ha_version"] == "0.1.5"
    assert cap["supported_rules"] == ["run-rules/1", "run-rules/2", "run-rules/3", "run-rules/4"]
    assert cap["default_rules"] == "run-rules/3"
    assert list(cap["formats"]) == sorted(cap["formats"])
    assert cap["formats"]["run_record"] == ["run/v1"]
    assert r.stdout == json.dumps(cap, ensure_ascii=False, separators=(",", ":")) + "\n"


def test_history_advertised_exactly_when_it_ships(tmp_path):
    cap = json.loads(ha("capabilities", cwd=tmp_path).stdout)
    if capabilities.history_available():
        assert cap["features"] == ["decision-history/v1"]
        assert cap["formats"]["decision_history"] == ["decision-history/v1"]
    else:
        assert cap["features"] == [] and "decision_history" not in cap["formats"]


def test_arguments_are_usage_errors(tmp_path):
    r = ha("capabilities", "--json", cwd=tmp_path)
    assert r.returncode == 64 and r.stderr.startswith("ha: capabilities: unexpected argument")
