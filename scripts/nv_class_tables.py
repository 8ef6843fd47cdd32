#!/usr/bin/env python3
"""Generate the nv class method tables (src/nv/tables/*_<class>.def) from NVIDIA's
published class headers (open-gpu-doc, classes/*/cl*.h) plus the hand-written
overlay src/nv/tables/classes.overlay.

usage: scripts/nv_class_tables.py [--out DIR] [--list FILE] [--commit SHA]
                                  HEADER_DIR_OR_FILES...

HEADER_DIR_OR_FILES is either an open-gpu-doc checkout (or any directory: the
header files are looked for by name below it) or the header files themselves.
A bare git mirror can be exported first, e.g.
    for f in 3d/clb197.h ...; do git -C MIRROR show HEAD:classes/$f > /tmp/h/...
The output is committed; the build never runs this script (docs/nv-tables.md).

Output format (read by src/nv/tables/class_gen.h and src/nv/tables/methods.h):
    M(NAME, offset, count, stride, flags)
    F(NAME, hi, lo, type, enums)   type U uint, S sint, B bool, X hex,
                                        FL float, EN enum (values in E(...))
    E(NAME, value)
flags: 0, ALIAS (another name for a method, accepted by the assembler, never
printed) and ACTION(h) (the executor acts on a write, beyond storing it, with
handler h of enum nv_mact in src/nv/tables/actions.h).
"""
import argparse
import os
import re
import sys

# class id -> (header, NV prefix, output .def, extra headers, name prefixes
# that are not methods)
CLASSES = [
    ("B06F", "clb06f.h", "NVB06F", "host_b06f.def", ("DMA_", "GP_ENTRY")),
    ("A140", "cla140.h", "NVA140", "i2m_a140.def", ()),
    ("B0B5", "clb0b5.h", "NVB0B5", "dma_b0b5.def", ()),
    ("902D", "cl902d.h", "NV902D", "twod_902d.def", ()),
    ("B197", "clb197.h", "NVB197", "threed_b197.def", ()),
    ("B1C0", "clb1c0.h", "NVB1C0", "compute_b1c0.def", ()),
]
# the tag src/nv/tables/classes.c gives each table (CG_NV_TAG)
TAGS = {"B06F": "host", "A140": "i2m", "B0B5": "copy", "902D": "twod", "B197": "threed",
        "B1C0": "compute"}
INDEX_LIMIT = 0x4000  # byte offsets the method index covers (dword index < 0x1000)
# headers the overlay may take single methods from ("from" lines)
EXTRA_HEADERS = {"cla26f.h": "NVA26F", "cla06f.h": "NVA06F", "cl906f.h": "NV906F"}

DEF_RE = re.compile(r"^#define\s+(\S+)\s+(.*?)\s*$")
HEX_RE = re.compile(r"^\(?\s*(0x[0-9A-Fa-f]+)\s*\)?$")
ARR_RE = re.compile(r"^\(\s*(0x[0-9A-Fa-f]+)\s*\+\s*\(([ij])\)\s*\*\s*(\d+)\s*\)$")
BITS_RE = re.compile(r"^(\d+):(\d+)$")


class Method:
    def __init__(self, name, offset, stride):
        self.name, self.offset, self.stride = name, offset, stride
        self.array = stride != 0
        self.count = 1
        self.fields = []  # [name, hi, lo, type, [(ename, value)]]
        self.flags = []
        self.alias_of = None


def parse_header(path, pfx, skip=()):
    """Methods of one class header, in header order."""
    methods = []
    cur = None
    field = None
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = DEF_RE.match(line.strip())
            if not m:
                continue
            name, val = m.group(1), m.group(2)
            if not name.startswith(pfx + "_"):
                continue
            rest = name[len(pfx) + 1:]
            if rest.endswith("TYPEDEF") or any(rest.startswith(s) for s in skip):
                cur = field = None
                continue
            bits = BITS_RE.match(val)
            arr = ARR_RE.match(val)
            hx = HEX_RE.match(val)
            # an enum value of the current field
            if field is not None and hx and rest.startswith(cur.name + "_" + field[0] + "_"):
                field[4].append((rest[len(cur.name) + len(field[0]) + 2:], int(hx.group(1), 16)))
                continue
            # a field of the current method
            if cur is not None and bits and rest.startswith(cur.name + "_"):
                hi, lo = int(bits.group(1)), int(bits.group(2))
                field = [rest[len(cur.name) + 1:], hi, lo, None, []]
                cur.fields.append(field)
                continue
            if arr and re.search(r"\([ij]\)$", rest):
                cur = Method(rest[:-3], int(arr.group(1), 16), int(arr.group(3)))
                methods.append(cur)
                field = None
                continue
            if hx and not bits:
                cur = Method(rest, int(hx.group(1), 16), 0)
                methods.append(cur)
                field = None
                continue
            cur = field = None  # something else (a free-standing field)
    return methods


def read_overlay(path):
    rows = []
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if line:
                rows.append((ln, line))
    return rows


def find_headers(args):
    files = {}
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                for n in names:
                    if n.endswith(".h"):
                        files.setdefault(n, os.path.join(root, n))
        else:
            files[os.path.basename(a)] = a
    return files


def glob_match(glob, name):
    return name.startswith(glob[:-1]) if glob.endswith("*") else name == glob


def fmt_off(v):
    return "0x%04X" % v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "src", "nv", "tables"))
    ap.add_argument("--overlay", default=None)
    ap.add_argument("--list", default=os.path.join(os.path.dirname(__file__), "..", "tests",
                                                   "data", "nv_class_methods.txt"))
    ap.add_argument("--commit", required=True, help="open-gpu-doc commit, for the comments")
    ap.add_argument("headers", nargs="+")
    a = ap.parse_args()
    overlay = a.overlay or os.path.join(a.out, "classes.overlay")
    files = find_headers(a.headers)
    rows = read_overlay(overlay)
    errors = []
    listing = []

    field_defs = []
    index_defs = []
    defs = []  # written only when every class and overlay line was read cleanly
    for cls, hname, pfx, out, skip in CLASSES:
        if hname not in files:
            sys.exit("missing header %s (nothing written)" % hname)
        methods = parse_header(files[hname], pfx, skip)
        by_name = {m.name: m for m in methods}
        if len(by_name) != len(methods):
            sys.exit("%s: duplicate method names" % hname)
        for m in methods:
            listing.append("%s %s %s" % (cls, m.name + ("(i)" if m.array else ""),
                                         fmt_off(m.offset)))
        sizes, floats = [], []
        aliases = []
        # overlay rows for this class
        for ln, r in rows:
            if r[0] != cls:
                continue
            what = r[1]
            try:
                if what == "from":  # from HEADER METHOD: take a method of another header
                    if r[2] not in files:
                        raise ValueError("header %s not given" % r[2])
                    src = parse_header(files[r[2]], EXTRA_HEADERS[r[2]])
                    m = [x for x in src if x.name == r[3]]
                    if len(m) != 1 or r[3] in by_name:
                        raise ValueError("no such method / already present")
                    m[0].source = r[2]
                    methods.append(m[0])
                    by_name[r[3]] = m[0]
                elif what == "extra":  # extra NAME OFFSET COUNT STRIDE
                    if r[2] in by_name:
                        raise ValueError("extra %s is a header method" % r[2])
                    m = Method(r[2], int(r[3], 16), int(r[5]))
                    m.count = int(r[4])
                    m.array = False  # its count is given here
                    m.source = "overlay (no NVIDIA header)"
                    methods.append(m)
                    by_name[r[2]] = m
                elif what == "size":  # size GLOB N: array element count
                    sizes.append((r[2], int(r[3], 0)))
                elif what == "float":  # float GLOB: every field is a float
                    floats.append(r[2])
                elif what == "alias":  # alias NAME OFFSET [COUNT STRIDE]
                    aliases.append((r[2], int(r[3], 16),
                                    int(r[4]) if len(r) > 4 else 1,
                                    int(r[5]) if len(r) > 5 else 0, ln))
                elif what in ("action", "type", "enum", "field"):
                    pass  # per method, below
                else:
                    raise ValueError("unknown overlay column " + what)
            except (KeyError, IndexError, ValueError) as e:
                errors.append("%s:%d: %s" % (overlay, ln, e))
        # array sizes: the overlay's, else up to the next method
        starts = sorted(set(m.offset for m in methods))
        for m in methods:
            if not m.array:
                continue
            n = None
            for g, v in sizes:
                if glob_match(g, m.name):
                    n = v
                    break
            if n is None:
                nxt = [o for o in starts if o >= m.offset + max(m.stride, 4)]
                limit = nxt[0] if nxt else m.offset + m.stride
                # interleaved arrays: the group's next method past one stride
                n = max(1, (limit - m.offset + m.stride - 1) // m.stride)
                errors.append("%s: array %s has no size in the overlay (gap rule gives %d)"
                              % (cls, m.name, n))
            m.count = n
        # per-method overlay rows
        for ln, r in rows:
            if r[0] != cls or r[1] not in ("action", "type", "enum", "field"):
                continue
            mn = r[2].split(".")[0]
            m = by_name.get(mn)
            if m is None:
                errors.append("%s:%d: %s has no method %s" % (overlay, ln, cls, mn))
                continue
            if r[1] == "action":  # action METHOD HANDLER
                m.flags.append("ACTION(%s)" % r[3])
            elif r[1] == "field":  # field METHOD.NAME HI LO TYPE (extra methods)
                m.fields.append([r[2].split(".")[1], int(r[3]), int(r[4]), r[5], []])
            else:
                fn = r[2].split(".")[1]
                f = [x for x in m.fields if x[0] == fn]
                if not f:
                    errors.append("%s:%d: %s.%s has no field %s" % (overlay, ln, cls, mn, fn))
                    continue
                if r[1] == "type":
                    f[0][3] = r[3]
                else:  # enum METHOD.FIELD NAME=VALUE...
                    for kv in r[3:]:
                        k, v = kv.split("=")
                        f[0][4].append((k, int(v, 0)))
        for m in methods:
            isf = any(glob_match(g, m.name) for g in floats)
            for f in m.fields:
                if f[3] is None:
                    f[3] = "EN" if f[4] else ("FL" if isf else "X")
        # aliases: another name for the method at an offset, with its fields
        out_alias = []
        for name, off, count, stride, ln in aliases:
            tgt = None
            for m in methods:
                st = m.stride or 4
                d = off - m.offset
                if d >= 0 and d % st == 0 and d // st < m.count:
                    tgt = m
                    break
            if name in by_name:
                errors.append("%s:%d: alias %s is a method name" % (overlay, ln, name))
                continue
            am = Method(name, off, stride)
            am.count = count
            am.flags = ["ALIAS"] + [x for x in (tgt.flags if tgt else []) if x != "ALIAS"]
            am.fields = tgt.fields if tgt else []
            am.alias_of = tgt.name if tgt else None
            out_alias.append(am)
        defs.append((os.path.join(a.out, out), cls, hname, methods, out_alias))
        field_defs.append(field_macros(pfx, methods))
        index_defs.append(method_index(TAGS[cls], methods, errors))
    if errors:
        sys.stderr.write("\n".join(errors) + "\nnothing written\n")
        sys.exit(1)
    for path, cls, hname, methods, out_alias in defs:
        write_def(path, cls, hname, a.commit, methods, out_alias)
    with open(os.path.join(a.out, "class_fields.h"), "w") as f:
        f.write("/* Generated by scripts/nv_class_tables.py from NVIDIA open-gpu-doc (commit\n"
                " * %s) and src/nv/tables/classes.overlay: every field of the class tables\n"
                " * as <PREFIX>_<METHOD>_<FIELD> hi:lo and its values as\n"
                " * <PREFIX>_<METHOD>_<FIELD>_<VALUE>, NVIDIA's spelling, for the accessors\n"
                " * of src/nv/tables/fields.h (NV_VAL, NV_NUM, NV_DEF). Do not edit. */\n"
                "#ifndef CMDGPU_NV_CLASS_FIELDS_H\n#define CMDGPU_NV_CLASS_FIELDS_H\n" % a.commit)
        f.write("".join(field_defs))
        f.write("#endif\n")
    with open(os.path.join(a.out, "class_index.h"), "w") as f:
        f.write("/* Generated by scripts/nv_class_tables.py with the .def tables: for each\n"
                " * class, dword method index (byte offset / 4; byte offsets below 0x%X)\n"
                " * -> 1 + the position of the (non-alias) table entry covering it, 0 for\n"
                " * none; the entries are in .def order. classes.c's cg_nv_method_at reads\n"
                " * it. Do not edit. */\n" % INDEX_LIMIT)
        f.write("".join(index_defs))
    os.makedirs(os.path.dirname(a.list), exist_ok=True)
    with open(a.list, "w") as f:
        f.write("# class method offset, straight from NVIDIA's headers (open-gpu-doc %s);\n"
                "# generated by scripts/nv_class_tables.py. (i): an array method.\n" % a.commit)
        f.write("\n".join(listing) + "\n")


def field_macros(pfx, methods):
    o = []
    for m in sorted(methods, key=lambda x: x.offset):
        used = 0
        for name, hi, lo, t, ens in sorted(m.fields, key=lambda f: f[2]):
            mask = ((1 << (hi - lo + 1)) - 1) << lo
            if used & mask:
                continue
            used |= mask
            base = "%s_%s_%s" % (pfx, m.name, name)
            o.append("#define %s %d:%d\n" % (base, hi, lo))
            if t == "EN":
                for en, ev in ens:
                    o.append("#define %s_%s 0x%X\n" % (base, en, ev))
    return "".join(o)


def method_index(tag, methods, errors):
    """The dword-index -> entry table, in the entry order write_def uses."""
    order = sorted(methods, key=lambda x: x.offset)
    idx = {}
    for pos, m in enumerate(order):
        st = m.stride or 4
        for e in range(m.count):
            off = m.offset + e * st
            if off >= INDEX_LIMIT:
                errors.append("%s: %s(%d) at 0x%X is past the index" % (tag, m.name, e, off))
                continue
            if off // 4 in idx:
                errors.append("%s: %s and entry %d share 0x%X" % (tag, m.name, idx[off // 4], off))
            idx[off // 4] = pos + 1
    o = ["static const uint16_t %s_index[0x%X] = {\n" % (tag, max(idx) + 1)]
    line = "   "
    for k in sorted(idx):
        item = " [0x%X] = %d," % (k, idx[k])
        if len(line) + len(item) > 96:
            o.append(line + "\n")
            line = "   "
        line += item
    o.append(line + "\n};\n")
    return "".join(o)


def write_def(path, cls, hname, commit, methods, aliases):
    o = []
    o.append("/* Generated by scripts/nv_class_tables.py from NVIDIA open-gpu-doc %s\n"
             " * (commit %s)\n"
             " * and src/nv/tables/classes.overlay. Do not edit: change the overlay and\n"
             " * regenerate (docs/nv-tables.md).\n"
             " * M(NAME, offset, count, stride, flags)  F(NAME, hi, lo, type, enums)\n"
             " * E(NAME, value). */\n" % (hname, commit))
    o.append("#define ALIAS CG_DEF_ALIAS\n"
             "#define ACTION(h) (CG_NV_M_ACTION | (uint32_t)NV_ACT_##h << CG_NV_M_ACTION_SHIFT)\n")

    def emit(m):
        flags = "|".join(m.flags) if m.flags else "0"
        src = getattr(m, "source", None)
        if src:
            o.append("/* from %s */\n" % src)
        if m.alias_of:
            o.append("/* alias of %s */\n" % m.alias_of)
        o.append("M(%s, %s, %d, %d, %s)\n" % (m.name, fmt_off(m.offset), m.count, m.stride, flags))
        used = 0
        # fields in bit order (low bits first), as the listing reads best
        for name, hi, lo, t, ens in sorted(m.fields, key=lambda f: f[2]):
            mask = ((1 << (hi - lo + 1)) - 1) << lo
            if used & mask:
                # the header gives another reading of these bits (a mode of
                # the method); the table keeps the first, as cg_def_check wants
                o.append("/* also %s %d:%d (overlaps the fields above) */\n" % (name, hi, lo))
                continue
            used |= mask
            line = "F(%s, %d, %d, %s, " % (name, hi, lo, t)
            if t == "EN":
                for en, ev in ens:
                    e = "E(%s, 0x%X)" % (en, ev)
                    if len(line) + len(e) > 98:
                        o.append(line.rstrip() + "\n")
                        line = "  "
                    line += e + " "
                line = line.rstrip()
            o.append(line + ")\n")

    for m in sorted(methods, key=lambda x: x.offset):
        emit(m)
    for m in aliases:
        emit(m)
    o.append("#undef ALIAS\n#undef ACTION\n")
    with open(path, "w") as f:
        f.write("".join(o))


if __name__ == "__main__":
    main()
