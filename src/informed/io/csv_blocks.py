"""Cutting CSV bytes into blocks of whole records, checking a block's quotes, counting
its records.

A block must end where a record ends, so that each block parses alone. Without a double
quote that is the last line end of the buffer. With quotes, a line end ends a record only
outside a quoted field: when an even number of quotes comes before it (a quoted field
opens and closes with one quote each, and a quote inside it is written twice), and the
cut is the last such line end.

That parity is the truth only when every quote is where the standard library's reader
(`csv.reader`, strict) takes it as one, so every quote of a block is checked by the bytes
around it. The k-th quote of a block (from 1) opens a field when k is odd: the byte
before it is a comma, a line end or a quote (the second of a doubled one), or it is the
block's first byte. An even one closes a field or is the first of a doubled quote: the
byte after it is a comma, a line end or a quote, or it is the file's last byte. A block
whose quotes all sit so is read alike by pyarrow and by the standard reader: same
records, same fields, same text. Anything else (a quote inside an unquoted field such as
`5" tv`, text after a closing quote such as `"ab"c`, a quoted field still open at the end
of the file) fails the check, and the caller hands the rest of the file, from the block's
first byte (a record's first byte, since every block before it passed), to the standard
reader, whose message or reading is then the answer.

The check runs on bits, 64 bytes to a word, as JSON parsers find their strings: one bit
per quote, and a prefix XOR of those bits (within each word by six shifts, across words
by a running parity) gives for every byte whether it lies inside a quoted field, and for
every quote whether it is odd or even.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["Cut", "cut_and_count", "cut_records", "lines_in"]

Words = NDArray[np.uint64]

_ONE = np.uint64(1)
_TOP = np.uint64(63)


class Cut(NamedTuple):
    """Where the whole records of a buffer end, and what their quotes are."""

    end: int  # the records are buffer[:end]; 0 when no record ends in the buffer
    quoted: bool  # a quote among them
    regular: bool  # every quote among them sits where both readers take it alike
    multiline: bool = False  # a line end (\n or \r) inside a quoted field among them


def cut_and_count(buffer: bytes, final: bool) -> tuple[Cut, int]:
    """`cut_records`, and the records of a regular block from the same bits (0 for an
    irregular one): its line ends outside quoted fields (\\n, \\r\\n and a lone \\r each
    end one; a blank line is a record) and, in a `final` block, a last line without a
    line end, as the standard reader counts them.

    >>> cut_and_count(b'a,"b\\nc"\\r\\n\\nd\\re', final=True)[1]  # a blank line too
    4
    """
    return _cut(buffer, final, count=True)


def cut_records(buffer: bytes, final: bool) -> Cut:
    """The end of the last whole record of `buffer` (its line end included): the last
    line end outside quoted fields. A `final` buffer (the file's last bytes) is one
    block whatever its quotes, and irregular when a quoted field is still open.

    >>> cut_records(b'a,"b\\nc"\\nd,"e\\n', final=False)  # the third line end is quoted
    Cut(end=8, quoted=True, regular=True, multiline=True)
    >>> cut_records(b'a,"b\\nc', final=False).end  # no line end outside a quoted field
    0
    >>> def regular(text: bytes) -> bool:
    ...     return cut_records(text, final=True).regular
    >>> regular(b'"a","b ""c"" d",1\\n"x\\ny",2\\n'), regular(b'5" tv,1\\n'), regular(b'"ab"c,1\\n')
    (True, False, False)
    >>> regular(b'"ab,1\\n')  # still open at the end
    False
    """
    return _cut(buffer, final, count=False)[0]


def _cut(buffer: bytes, final: bool, count: bool) -> tuple[Cut, int]:
    end = len(buffer) if final else buffer.rfind(b"\n") + 1
    if end == 0 or buffer.find(b'"', 0, end) < 0:
        plain = lines_in(buffer[:end]) + _unended(buffer, end, final) if count else 0
        return Cut(end, False, True), plain
    data: NDArray[Any] = np.frombuffer(buffer, dtype=np.uint8, count=end)
    size = -(-end // 64)
    scratch = np.empty(end, dtype=bool)  # one buffer for every comparison: no page faults

    def bits(byte: str) -> Words:
        return _words(np.equal(data, ord(byte), out=scratch), size)

    quotes = bits('"')
    inside = _prefix_xor(quotes)  # bit i: an odd number of quotes in data[: i + 1]
    line_ends = bits("\n")
    if not final:
        end = _last_bit(line_ends & ~inside) + 1
        if end == 0:
            return Cut(0, False, True), 0
    elif _bit(inside, end - 1):
        return Cut(end, True, False), 0  # a quoted field open at the end of the file
    beside = quotes | line_ends | bits(",")
    breaks = line_ends
    if buffer.find(b"\r", 0, end) >= 0:
        breaks = line_ends | bits("\r")
        beside |= breaks
    before = beside << _ONE  # bit i: the byte before byte i may stand before a quote
    before[1:] |= beside[:-1] >> _TOP
    before[0] |= _ONE  # the block's first byte starts a record
    after = beside >> _ONE  # bit i: the byte after byte i may stand after a quote
    after[:-1] |= beside[1:] << _TOP
    _set_bit(after, end - 1)  # the block's last byte ends a record
    wrong = quotes & ((inside & ~before) | (~inside & ~after))
    # the block's bytes only: those after it are the next block's
    regular = not _below(wrong, end).any()
    records = 0
    if count and regular:
        ends = line_ends
        if breaks is not line_ends:  # a \r ends a line unless a \n follows it
            alone = np.not_equal(data[1:end], ord("\n"), out=scratch[: end - 1])
            returns = np.equal(data[:end], ord("\r"), out=np.empty(end, dtype=bool))
            returns[:-1] &= alone
            ends = line_ends | _words(returns, size)
        outside = _below(ends & ~inside, end)
        records = int(np.unpackbits(outside.view(np.uint8)).sum())
        records += _unended(buffer, end, final)
    cut = Cut(
        end,
        bool(_below(quotes, end).any()),
        regular,
        bool(_below(breaks & inside, end).any()),
    )
    return cut, records


def _unended(buffer: bytes, end: int, final: bool) -> int:
    """1 for a last record with no line end (buffer[:end] is the file's last block)."""
    return 1 if final and end and buffer[end - 1 : end] not in (b"\n", b"\r") else 0


def _words(mask: NDArray[np.bool_], size: int) -> Words:
    """A boolean array as bits, 64 to a little-endian word (bit i of the array is bit
    i % 64 of word i // 64), padded with zeros to `size` words."""
    packed = np.packbits(mask, bitorder="little")
    padded = np.zeros(size * 8, dtype=np.uint8)
    padded[: packed.size] = packed
    return padded.view("<u8")


def _prefix_xor(words: Words) -> Words:
    """Bit i of the result: the XOR of bits 0..i of `words` (the parity of the set bits
    up to and including bit i)."""
    out = words.copy()
    for shift in (1, 2, 4, 8, 16, 32):
        out ^= out << np.uint64(shift)
    parity = (out >> _TOP).astype(np.uint8)  # of each word's own bits
    carried = np.zeros(out.size, dtype=np.uint64)
    carried[1:] = np.bitwise_xor.accumulate(parity)[:-1]  # of every word before
    out ^= np.uint64(0) - carried  # all ones where an odd number came before
    return out


def _below(words: Words, end: int) -> Words:
    """The bits of `words` before position `end`, the others cleared."""
    kept = words[: -(-end // 64)].copy()
    if end % 64:
        kept[-1] &= np.uint64((1 << (end % 64)) - 1)
    return kept


def _last_bit(words: Words) -> int:
    """The position of the highest set bit (-1 when none is set)."""
    found = np.flatnonzero(words)
    if not found.size:
        return -1
    word = int(found[-1])
    return 64 * word + int(words[word]).bit_length() - 1


def _bit(words: Words, position: int) -> bool:
    return bool((int(words[position // 64]) >> (position % 64)) & 1)


def _set_bit(words: Words, position: int) -> None:
    words[position // 64] |= np.uint64(1 << (position % 64))


def lines_in(block: bytes) -> int:
    """Lines as the standard reader counts them: \\n, \\r\\n and a lone \\r each end one.

    >>> lines_in(b"a\\nb\\r\\nc\\rd\\n")
    4
    """
    data = np.frombuffer(block, dtype=np.uint8)
    lines = int(np.count_nonzero(data == ord("\n")))
    if block.find(b"\r") >= 0:
        returns = data == ord("\r")
        lines += int(np.count_nonzero(returns))
        lines -= int(np.count_nonzero(returns[:-1] & (data[1:] == ord("\n"))))
    return lines
