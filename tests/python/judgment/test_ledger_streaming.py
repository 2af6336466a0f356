"""The streaming read under search and recall (judgment.ledger.records / candidate_lines)."""
import io
import json

import pytest

from ledger_helpers import rec, write_records

from judgment_toolkit.judgment import ledger


def lines_of(data, needle, chunk_size):
    return list(ledger.candidate_lines(io.BytesIO(data), needle, chunk_size))


@pytest.mark.parametrize("chunk_size", [1, 2, 7, 64, 1 << 20])
def test_candidates_are_whole_lines_with_their_offsets_at_any_chunk_size(chunk_size):
    data = b'{"p":"a"} x\n{"p":"b"}\n\n{"p":"a"} y\n' + b"z" * 100 + b'"a"\n{"p":"a"} no LF'
    got = lines_of(data, b'"a"', chunk_size)
    expected = [(0, b'{"p":"a"} x'), (23, b'{"p":"a"} y'), (35, b"z" * 100 + b'"a"'),
                (139, b'{"p":"a"} no LF')]
    assert got == expected
    for offset, line in got:
        assert data[offset:offset + len(line)] == line


@pytest.mark.parametrize("chunk_size", [3, 1 << 20])
def test_lines_with_escapes_are_always_candidates(chunk_size):
    data = b'{"p":"\\u0061"}\n{"p":"b"}\n{"p":"a\\/"}\n'
    assert [line for _, line in lines_of(data, b'"a"', chunk_size)] == [b'{"p":"\\u0061"}', b'{"p":"a\\/"}']


def test_empty_and_missing_files(tmp_path):
    assert lines_of(b"", b'"a"', 8) == []
    assert list(ledger.records(tmp_path / "missing.jsonl", "demo")) == []


def test_records_filters_exact_project_and_record_shape(tmp_path):
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(1), rec(2, project="demo2"), rec(3)])
    with open(path, "ab") as f:
        f.write(b'{"project":"demo","id":1,"question":"q","answer":"a","decided_at":"t"}\n')
        f.write(b'"demo"\n')
    assert [r["id"] for _, r in ledger.records(path, "demo")] == ["id-1", "id-3"]
    assert [r["id"] for _, r in ledger.records(path, "demo", keep=lambda line: b"3" in line)] == ["id-3"]


def test_memory_does_not_hold_the_file(tmp_path):
    """The reader keeps one chunk and the current line: a ledger far larger than a chunk streams."""
    import tracemalloc
    path = tmp_path / "big.jsonl"
    write_records(path, [rec(n, project=f"p{n % 20}", question="x" * 200) for n in range(40000)])
    assert path.stat().st_size > 8 * ledger.CHUNK
    tracemalloc.start()
    count = sum(1 for _ in ledger.records(path, "p7"))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert count == 2000
    assert peak < 3 * ledger.CHUNK, peak


def test_project_needle_is_the_json_string():
    assert ledger.project_needle('a"b') == b'"a\\"b"'
    assert ledger.project_needle("café") == '"café"'.encode()
    assert json.loads(ledger.project_needle("x\ny")) == "x\ny"
