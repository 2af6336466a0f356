"""indexread.Trusted's reverse links (docs/history.md, "The index: every call costs what it
reads"): the walk over the events citing D<a> ends on any slots and lines, even ones no add
wrote (a forged loop is Unusable, never a hang)."""
import os

import pytest

from judgment_toolkit.ha.history.store import index, indexread

SHA = "0" * 64


def _trusted(tmp_path, lines, citers):
    data = b"".join(lines)
    pos, slots = 0, b""
    for line, newest in zip(lines, citers):
        slots += index.SLOT.pack(pos, newest)
        pos += len(line)
    (tmp_path / "index").write_bytes(data)
    (tmp_path / "index.slots").write_bytes(slots)
    state = index.State(len(lines), SHA, (0,) * 5, (0, 0, len(data), 0, 0), (0,) * 5)
    return indexread.Trusted(state, os.open(tmp_path / "index", os.O_RDONLY),
                         os.open(tmp_path / "index.slots", os.O_RDONLY))


def line(seq, builds=(), links=()):
    return (f"E {seq} 0 1 {SHA} r=r{seq} 2 {SHA} t= b={','.join(map(str, builds))} s= "
            f"c={','.join(f'{a}:{p}' for a, p in links)}\n").encode()


def test_the_citers_of_an_event_newest_back_to_oldest(tmp_path):
    t = _trusted(tmp_path, [line(1), line(2, [1], [(1, 0)]), line(3, [1], [(1, 2)])],
                 [3, 0, 0])
    try:
        assert t.citers(1, 3) == [2, 3]
        assert t.citers(1, 2) == [2]             # a pinned range ignores later citers
        assert t.citers(2, 3) == []
    finally:
        t.close()


@pytest.mark.parametrize("end", [3, 2])      # 2: the loop is past a pinned range end
@pytest.mark.parametrize("links3", [[(1, 3)], [(1, 1)], [(1, 7)]])
def test_a_forged_citation_loop_is_unusable_not_a_hang(tmp_path, links3, end):
    t = _trusted(tmp_path, [line(1), line(2, [1], [(1, 0)]), line(3, [1], links3)],
                 [3, 0, 0])
    try:
        with pytest.raises(index.Unusable):
            t.citers(1, end)
    finally:
        t.close()
