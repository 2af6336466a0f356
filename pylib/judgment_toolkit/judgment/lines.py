"""The one streaming reader of the ledger's lines: any length, linear time, bounded memory.

Every ledger reader (search, recall, list, show, prime, verify) goes through `blocks`. It reads
CHUNK bytes at a time and hands out buffers of complete lines; a line that does not end within
a chunk is held as a list of parts and joined once, when its LF arrives, so a long line costs
one copy, not one per chunk. A line longer than RECORD_MAX is never held: once the parts pass
the cap they are dropped and the rest of the line is only scanned for its LF, then reported as
one `Overlong` (where it starts, how long it is). Memory is one chunk plus at most RECORD_MAX.

RECORD_MAX is the ledger's record size cap, the one place it is set: append refuses a record
whose line would be longer (docs/judgment-ledger.md, "The record"), and the readers skip a line
that is longer, which only a foreign writer can leave behind.
"""
CHUNK = 1 << 20
RECORD_MAX = 4 << 20  # bytes of one record's line, its LF not counted
RECORD_MAX_TEXT = f"{RECORD_MAX >> 20} MiB"


class Overlong:
    """A line longer than RECORD_MAX: its first byte's offset and its length without the LF
    (`complete`: an LF ended it, rather than the end of the file)."""
    __slots__ = ("offset", "length", "complete")

    def __init__(self, offset, length, complete):
        self.offset, self.length, self.complete = offset, length, complete


def blocks(f, chunk_size=CHUNK, cap=RECORD_MAX):
    """Yield, in file order, (base, buf, cut): buf[:cut] is whole lines (each ended by LF, but
    the file's last one may lack it when cut == len(buf)), none longer than `cap`, and
    base is buf[0]'s offset in the file; or an Overlong for a line longer than `cap`.
    A chunk is at most `cap` bytes, so a line that ends in the chunk it starts in is short."""
    chunk_size = min(chunk_size, cap)
    base = 0           # file offset of the pending line's first byte
    parts, held = [], 0
    skipping = False   # inside an over-long line, which is not held
    while True:
        chunk = f.read(chunk_size)
        if not chunk:
            if skipping:
                yield Overlong(base, held, False)
            elif held:
                yield from _complete(base, b"".join(parts), held, cap)
            return
        start = 0
        if skipping:
            lf = chunk.find(b"\n")
            if lf == -1:
                held += len(chunk)
                continue
            yield Overlong(base, held + lf, True)
            base += held + lf + 1
            held, skipping, start = 0, False, lf + 1
        cut = chunk.rfind(b"\n") + 1
        if cut <= start:  # no LF in what is left of the chunk: the pending line goes on
            rest = chunk[start:] if start else chunk
            parts.append(rest)
            held += len(rest)
            if held > cap:
                parts, skipping = [], True
            continue
        if parts:  # (only when no over-long line ended in this chunk: start is 0)
            parts.append(chunk)
            buf, cut, parts = b"".join(parts), cut + held, []
        else:
            buf, cut = (chunk[start:], cut - start) if start else (chunk, cut)
        del chunk  # only buf is alive while the lines are used
        yield from _complete(base, buf, cut, cap)
        base += cut
        parts, held = ([buf[cut:]], len(buf) - cut) if cut < len(buf) else ([], 0)
        del buf
        if held > cap:
            parts, skipping = [], True


def _complete(base, buf, cut, cap):
    """buf[:cut] as the blocks' shape: it is whole lines, but the first may be the joined long
    one; only that line can pass the cap (every other ended inside one chunk)."""
    lf = buf.find(b"\n", 0, cut)
    first_end = cut if lf == -1 else lf
    if first_end <= cap:
        yield base, buf, cut
        return
    yield Overlong(base, first_end, lf != -1)
    if lf != -1 and lf + 1 < cut:
        yield base + lf + 1, buf[lf + 1:], cut - lf - 1


def numbered(f, chunk_size=CHUNK, cap=RECORD_MAX):
    """(line number from 1, line without LF or an Overlong, ended by LF) for every line."""
    number = 0
    for block in blocks(f, chunk_size, cap):
        if type(block) is Overlong:
            number += 1
            yield number, block, block.complete
            continue
        _, buf, cut = block
        at = 0
        while at < cut:
            lf = buf.find(b"\n", at, cut)
            number += 1
            if lf == -1:
                yield number, buf[at:cut], False
                break
            yield number, buf[at:lf], True
            at = lf + 1
        del block, buf  # not alive while the next chunk is read
