#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/progs/snapedit.py - rewrite the view inside an ospview snapshot.

Usage: snapedit.py IN OUT EDIT...

Reads snapshot IN, splits its view into sections, applies the EDITs in
order and writes OUT laid out again with every CRC recomputed (each
section's, the view's and the header's), so that ospview loads OUT, or
refuses it for exactly what was edited.  The tests use it to make the
views of older writers and views that are wrong in one detail only.

Edits (KIND is a section name of include/osp/view.h without OSP_VS_,
e.g. FNSRC, or its number):
  minor N         the view's layout minor becomes N (what an older writer
                  wrote); else it stays
  drop KIND       the section goes
  short KIND      the section loses its last element
  file OLD NEW    every function of file OLD names file NEW instead
  size-of PATH    every FNSRC entry's recorded size becomes PATH's
  sha-of PATH     every FNSRC entry's recorded SHA-256 becomes PATH's
  swap-lines      the first block with three or more statement lines has
                  its second and third (in LINES) out of order

The layouts are include/osp/snapshot.h's and include/osp/view.h's.
"""
import hashlib
import os
import struct
import sys
import zlib

KINDS = {"STRINGS": 1, "RUN": 2, "FUNCS": 3, "BLOCKS": 4, "IDS": 5,
         "SUBPATHS": 6, "PATHS": 7, "FOREST": 8, "STATS": 9, "EDGES": 10,
         "FNSRC": 11, "COSTS": 12, "FNWORK": 13, "BLINES": 14, "LINES": 15}
SECTION = "<IIQQII"   # struct osp_view_section: kind, elem_size, offset, count, crc32, reserved
SECTION_SIZE = 32


class Section:
    def __init__(self, kind, elem, data):
        self.kind, self.elem, self.data = kind, elem, bytearray(data)

    def count(self):
        return len(self.data) // self.elem


def read(path):
    """The snapshot's header bytes, its view's header bytes and its sections."""
    data = open(path, "rb").read()
    hsize = struct.unpack_from("<I", data, 16)[0]
    voff, vsize = struct.unpack_from("<QQ", data, 24)
    view = data[voff:voff + vsize]
    vhsize, nsec = struct.unpack_from("<II", view, 16)
    secs = []
    for i in range(nsec):
        kind, elem, off, count, _, _ = struct.unpack_from(SECTION, view, vhsize + SECTION_SIZE * i)
        secs.append(Section(kind, elem, view[off:off + count * elem]))
    return bytearray(data[:hsize]), bytearray(view[:vhsize]), secs


def write(path, hdr, vhdr, secs):
    """HDR, VHDR and SECS as one snapshot, every size, offset and CRC set."""
    out = bytearray(vhdr)
    struct.pack_into("<I", out, 20, len(secs))
    out.extend(b"\0" * (SECTION_SIZE * len(secs)))
    for i, s in enumerate(secs):
        off = len(out)
        out.extend(s.data)
        out.extend(b"\0" * (-len(out) % 8))
        struct.pack_into(SECTION, out, len(vhdr) + SECTION_SIZE * i, s.kind, s.elem, off,
                         s.count(), zlib.crc32(bytes(s.data)), 0)
    struct.pack_into("<Q", out, 24, len(out))
    struct.pack_into("<QQI", hdr, 24, len(hdr), len(out), zlib.crc32(bytes(out)))
    struct.pack_into("<I", hdr, 20, 0)
    struct.pack_into("<I", hdr, 20, zlib.crc32(bytes(hdr)))
    with open(path, "wb") as f:
        f.write(bytes(hdr) + bytes(out))


def kind_of(name):
    return int(name) if name.isdigit() else KINDS[name]


def string_id(strings, s):
    """S's offset in STRINGS' bytes, appended if it is not there."""
    b = s.encode()
    at = strings.data.find(b"\0" + b + b"\0")
    if at >= 0:
        return at + 1
    at = len(strings.data)
    strings.data.extend(b + b"\0")
    return at


def string_at(strings, off):
    return bytes(strings.data[off:strings.data.index(b"\0", off)]).decode()


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    hdr, vhdr, secs = read(argv[0])
    by = {s.kind: s for s in secs}
    none = Section(0, 1, b"")  # an absent section: nothing to edit
    args = argv[2:]
    while args:
        op = args.pop(0)
        if op == "minor":
            struct.pack_into("<H", vhdr, 14, int(args.pop(0)))
        elif op == "drop":
            k = kind_of(args.pop(0))
            secs = [s for s in secs if s.kind != k]
        elif op == "short":
            s = by[kind_of(args.pop(0))]
            del s.data[len(s.data) - s.elem:]
        elif op == "file":
            old, new = args.pop(0), args.pop(0)
            f, strings = by[KINDS["FUNCS"]], by[KINDS["STRINGS"]]
            nid = string_id(strings, new)
            for i in range(f.count()):
                at = i * f.elem + 8  # osp_vfn.file
                if string_at(strings, struct.unpack_from("<I", f.data, at)[0]) == old:
                    struct.pack_into("<I", f.data, at, nid)
        elif op == "size-of":
            size = os.path.getsize(args.pop(0))
            s = by.get(KINDS["FNSRC"], none)
            for i in range(s.count()):
                struct.pack_into("<Q", s.data, i * s.elem + 8, size)  # osp_vfnsrc.size
        elif op == "sha-of":
            h = hashlib.sha256(open(args.pop(0), "rb").read()).digest()
            s = by.get(KINDS["FNSRC"], none)
            for i in range(s.count()):
                s.data[i * s.elem + 16:i * s.elem + 48] = h  # osp_vfnsrc.sha256
        elif op == "swap-lines":
            bl, ln = by[KINDS["BLINES"]], by[KINDS["LINES"]]
            for i in range(bl.count()):
                at, n = struct.unpack_from("<II", bl.data, i * bl.elem)  # osp_vblines
                if n >= 3:
                    a, b = struct.unpack_from("<II", ln.data, (at + 1) * 4)
                    struct.pack_into("<II", ln.data, (at + 1) * 4, b, a)
                    break
            else:
                sys.exit("snapedit.py: no block with three or more statement lines")
        else:
            sys.exit("snapedit.py: unknown edit '%s'" % op)
    write(argv[1], hdr, vhdr, secs)


if __name__ == "__main__":
    main(sys.argv[1:])
