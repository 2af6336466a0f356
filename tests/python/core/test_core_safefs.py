"""safefs: no-follow reads, regular-file and link checks, bounded reads, appends."""
import os

import pytest

from judgment_toolkit.ha import safefs


def test_read_regular_and_limit(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"abcdef")
    assert safefs.read_file(str(p)) == b"abcdef"
    assert safefs.read_file(str(p), limit=6) == b"abcdef"
    with pytest.raises(safefs.FsError) as exc:
        safefs.read_file(str(p), limit=5)
    assert exc.value.state == "too_large"


def test_missing_symlink_folder_hardlink(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"x")
    (tmp_path / "link").symlink_to(p)
    os.link(p, tmp_path / "hard")
    cases = {"missing": tmp_path / "nope", "not_regular": tmp_path / "link"}
    for state, path in cases.items():
        with pytest.raises(safefs.FsError) as exc:
            safefs.read_file(str(path))
        assert exc.value.state == state
    with pytest.raises(safefs.FsError) as exc:
        safefs.read_file(str(tmp_path))
    assert exc.value.state == "not_regular"
    assert safefs.read_file(str(tmp_path / "hard")) == b"x"        # allowed unless asked
    with pytest.raises(safefs.FsError) as exc:
        safefs.read_file(str(tmp_path / "hard"), single_link=True)
    assert exc.value.state == "not_regular" and "2 hard links" in exc.value.detail
    with pytest.raises(safefs.FsError) as exc:
        safefs.read_file(str(tmp_path / "nope" / "deeper"))
    assert exc.value.state == "missing"


def test_kind(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "l").symlink_to(tmp_path / "f")
    assert [safefs.kind(str(tmp_path / n)) for n in ("f", "l", "nope")] == ["file", "symlink", "missing"]
    assert safefs.kind(str(tmp_path)) == "dir"


def test_ensure_dir_refuses_symlinked_components(tmp_path):
    safefs.ensure_dir(str(tmp_path / "a" / "b" / "c"))
    assert (tmp_path / "a" / "b" / "c").is_dir()
    (tmp_path / "real").mkdir()
    (tmp_path / "sl").symlink_to(tmp_path / "real")
    with pytest.raises(safefs.FsError):
        safefs.ensure_dir(str(tmp_path / "sl" / "x"))
    assert not (tmp_path / "real" / "x").exists()


def test_open_append(tmp_path):
    p = tmp_path / "log"
    fd, created = safefs.open_append(str(p))
    safefs.write_all(fd, b"one\n")
    os.close(fd)
    fd, created2 = safefs.open_append(str(p))
    safefs.write_all(fd, b"two\n")
    os.close(fd)
    assert created and not created2 and p.read_bytes() == b"one\ntwo\n"
    (tmp_path / "sl").symlink_to(p)
    with pytest.raises(safefs.FsError):
        safefs.open_append(str(tmp_path / "sl"))
    os.link(p, tmp_path / "hard")
    with pytest.raises(safefs.FsError):
        safefs.open_append(str(p))


def test_open_file_relative_to_a_folder_fd(tmp_path):
    """The one safe open: used by the run record, the history store and evidence."""
    (tmp_path / "f").write_bytes(b"x")
    (tmp_path / "l").symlink_to(tmp_path / "f")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "d").mkdir()
    dfd = os.open(tmp_path, os.O_RDONLY)
    try:
        fd = safefs.open_file("f", dir_fd=dfd, single_link=True)
        assert os.read(fd, 9) == b"x"
        os.close(fd)
        for name, state in (("l", "not_regular"), ("fifo", "not_regular"),
                            ("d", "not_regular"), ("nope", "missing")):
            with pytest.raises(safefs.FsError) as exc:
                safefs.open_file(name, dir_fd=dfd)
            assert exc.value.state == state, name
        os.link(tmp_path / "f", tmp_path / "g")
        with pytest.raises(safefs.FsError) as exc:
            safefs.open_file("f", dir_fd=dfd, single_link=True)
        assert exc.value.state == "not_regular" and "2 hard links" in exc.value.detail
        with pytest.raises(OSError):
            safefs.open_dir("l", dir_fd=dfd)
    finally:
        os.close(dfd)
