"""A zip's entry names decoded as the tools that wrote them meant them.

The zip format knows two encodings for names: UTF-8 when an entry's flag
(bit 11) says so, else IBM code page 437.  Tools disagree in practice:
Info-ZIP's ``zip`` and many others write UTF-8 names without the flag, so
``résumé.html`` read as CP437 becomes ``r├⌐sum├⌐.html``; and some tools set
the flag on names that are not UTF-8, which Python's ``zipfile`` refuses
with a ``UnicodeDecodeError`` while opening the archive.  The rule here is
Info-ZIP's ``unzip`` and 7-Zip's: a flagged name is UTF-8; an unflagged one
is UTF-8 when its bytes decode as such, else CP437; a flagged name that is
not UTF-8 is read as CP437.

``zipfile`` reads the format; only the archive's flags are rewritten (on a
copy) when a flag lies, because ``zipfile`` offers no way to read such a
name at all: its central directory is walked with the offsets ``zipfile``
itself reports (``_EndRecData``, private but unchanged since Python 2).
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

__all__ = ["entry_name", "open_zip"]

_UTF8_FLAG = 1 << 11
_CENTRAL = b"PK\x01\x02"
_LOCAL = b"PK\x03\x04"


def entry_name(info: zipfile.ZipInfo) -> str:
    """The name of ``info`` as the rule above reads it."""
    if info.flag_bits & _UTF8_FLAG:
        return info.orig_filename  # zipfile decoded it as UTF-8 already
    raw = info.orig_filename.encode("cp437")
    unicode_path = _unicode_path(info.extra, raw)
    if unicode_path is not None:
        return unicode_path
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return info.orig_filename


def _unicode_path(extra: bytes, raw: bytes) -> str | None:
    """The name in Info-ZIP's Unicode Path extra field (0x7075), when it is there
    and was written for this very name (its CRC-32 matches)."""
    while len(extra) >= 4:
        kind, size = struct.unpack_from("<HH", extra)
        body, extra = extra[4 : 4 + size], extra[4 + size :]
        own = len(body) > 5 and body[0] == 1 and _crc_of(body) == zlib.crc32(raw)
        if kind == 0x7075 and own:
            try:
                return body[5:].decode("utf-8")
            except UnicodeDecodeError:
                return None
    return None


def _crc_of(body: bytes) -> int:
    return struct.unpack_from("<L", body, 1)[0]


def open_zip(data: bytes) -> zipfile.ZipFile:
    """``data`` opened as a zip; an archive whose UTF-8 flags lie is opened with
    those flags cleared.  Raises ``zipfile.BadZipFile`` when it is not a zip."""
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except UnicodeDecodeError:
        return zipfile.ZipFile(io.BytesIO(_without_false_flags(data)))


def _without_false_flags(data: bytes) -> bytes:
    """``data`` with the UTF-8 flag cleared on every entry whose name is not UTF-8,
    in the central directory and in the entry's local header."""
    out = bytearray(data)
    try:
        endrec = zipfile._EndRecData(io.BytesIO(data))  # type: ignore[attr-defined]
    except OSError:
        endrec = None
    if not endrec:
        raise zipfile.BadZipFile("File is not a zip file")
    size_cd, offset_cd = endrec[zipfile._ECD_SIZE], endrec[zipfile._ECD_OFFSET]  # type: ignore[attr-defined]
    concat = endrec[zipfile._ECD_LOCATION] - size_cd - offset_cd  # type: ignore[attr-defined]
    if endrec[zipfile._ECD_SIGNATURE] == zipfile.stringEndArchive64:  # type: ignore[attr-defined]
        concat -= zipfile.sizeEndCentDir64 + zipfile.sizeEndCentDir64Locator  # type: ignore[attr-defined]
    pos, end = offset_cd + concat, offset_cd + concat + size_cd
    while pos + 46 <= end and data[pos : pos + 4] == _CENTRAL:
        (flags,) = struct.unpack_from("<H", data, pos + 8)
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", data, pos + 28)
        (local,) = struct.unpack_from("<L", data, pos + 42)
        name = data[pos + 46 : pos + 46 + name_len]
        if flags & _UTF8_FLAG and not _is_utf8(name):
            struct.pack_into("<H", out, pos + 8, flags & ~_UTF8_FLAG)
            at = local + concat
            if data[at : at + 4] == _LOCAL:
                (local_flags,) = struct.unpack_from("<H", data, at + 6)
                struct.pack_into("<H", out, at + 6, local_flags & ~_UTF8_FLAG)
        pos += 46 + name_len + extra_len + comment_len
    return bytes(out)


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
