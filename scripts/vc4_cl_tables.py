#!/usr/bin/env python3
"""Regenerate src/vc4/tables/cl.def from Mesa's VideoCore IV packet XML.

usage: scripts/vc4_cl_tables.py XML [--check] [--def src/vc4/tables/cl.def]
                                    [--list tests/data/vc4_cl_packets.txt]

XML is src/broadcom/cle/v3d_packet_v21.xml of a Mesa tree, e.g.
  git -C MESA show HEAD:src/broadcom/cle/v3d_packet_v21.xml > v21.xml   (MESA: a Mesa clone)

The XML gives packet names, opcodes, the binning/rendering list a packet
belongs to, and each field's name, start bit, size, type and enum values.
What it does not give is kept from the current cl.def (read back, then
rewritten):
  - packet lengths (Linux vc4_packet.h, research/vc4.md section 1); the
    script checks that every XML field fits the length;
  - the records the XML leaves out (Marker, Reset Marker Count, VG records,
    compressed lists, NV shader state: Reference Guide names);
  - fields the Reference Guide names that the XML leaves out, when they do
    not overlap an XML field;
  - the seed's record and field names (kept as aliases the assembler
    accepts), descriptions, the validator policy column and macro slots.
A few XML entries are known wrong and are corrected here (OVERRIDES, each
with its source). --check exits 1 if cl.def or the packet list would change.
"""
import re
import sys
import xml.etree.ElementTree as ET

TYPES = {"address": "A", "uint": "U", "int": "S", "bool": "B", "float": "F", "s12.4": "X"}

# (packet code, XML field name) -> (start, size, type): corrections.
OVERRIDES = {
    # v21 XML says start 0, size 28, uint: it overlaps the two fields below.
    # Linux vc4_packet.h / vc4_validate.c validate_gl_shader_state(): the
    # record address is bits [31:4] (16-byte aligned), the kernel relocates it.
    (64, "Address"): (4, 28, "A"),
    # relocated by vc4_validate.c (validate_indexed_prim_list,
    # validate_tile_binning_config): bus addresses, though the XML says uint
    (32, "Address of Indices List"): (40, 32, "A"),
    (112, "Tile State Data Array Address"): (64, 32, "A"),
    (112, "Tile Allocation memory address"): (0, 32, "A"),
}


def ident(name):
    s = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")
    return "_" + s if s[:1].isdigit() else s


def parse_def(path):
    recs, order = {}, []
    cur = None
    for line in open(path):
        m = re.match(r'R\((\w+), (\d+), (\d+), (\w+), (\w+), (\w+), "([^"]*)", "([^"]*)"\)',
                     line)
        if m:
            cur = dict(name=m[1], op=int(m[2]), size=int(m[3]), where=m[4], policy=m[5],
                       role=m[6], alias=m[7], desc=m[8], fields=[], slots=[], values=[],
                       src="guide")
            recs[cur["op"]] = cur
            order.append(cur["op"])
            continue
        m = re.match(r'R\((\w+), (\d+), (\d+), (\w+), (\w+), "([^"]*)", "([^"]*)"\)', line)
        if m:  # the format before the role column: roles must then be added by hand
            cur = dict(name=m[1], op=int(m[2]), size=int(m[3]), where=m[4], policy=m[5],
                       role="NONE", alias=m[6], desc=m[7], fields=[], slots=[], values=[],
                       src="guide")
            recs[cur["op"]] = cur
            order.append(cur["op"])
            continue
        m = re.match(r'R\((\w+), (\d+), (\d+), (\w+), "([^"]*)"\)', line)  # the old format
        if m:
            cur = dict(name=m[1], op=int(m[2]), size=int(m[3]), where=m[4], policy="KNONE",
                       role="NONE", alias="", desc=m[5], fields=[], slots=[], values=[], src="guide")
            recs[cur["op"]] = cur
            order.append(cur["op"])
            continue
        m = re.match(r'F\((\w+), (\w+), (\d+), (\d+), (\w)(?:, "([^"]*)")?\)', line)
        if m:
            cur["fields"].append(dict(name=m[2], bit=int(m[3]), width=int(m[4]), type=m[5],
                                      alias=m[6] or "", src="guide"))
            continue
        m = re.match(r'A\((\w+), (\d+), (\d+)\)', line)
        if m:
            cur["slots"].append((int(m[2]), int(m[3])))
            continue
        m = re.match(r'V\((\w+), (\w+), (\d+), (\w+)\)', line)
        if m:
            cur["values"].append((m[2], int(m[3]), m[4]))
    return recs, order


def parse_xml(path):
    root = ET.parse(path).getroot()
    enums = {}
    for e in root.findall("enum"):
        enums[e.get("name")] = [(int(v.get("value")), v.get("name")) for v in e.findall("value")]
    pkts = {}
    for p in root.findall("packet"):
        code = int(p.get("code"))
        fields = []
        for f in p.findall("field"):
            nm, t = f.get("name"), f.get("type")
            start, size = int(f.get("start")), int(f.get("size"))
            vals = [(int(v.get("value")), v.get("name")) for v in f.findall("value")]
            if t in enums:
                vals, t = enums[t], "uint"
            ty = TYPES[t]
            if (code, nm) in OVERRIDES:
                start, size, ty = OVERRIDES[(code, nm)]
            fields.append(dict(xname=nm, name=ident(nm), bit=start, width=size, type=ty,
                               xtype=f.get("type"), values=vals))
        fields.sort(key=lambda f: f["bit"])
        pkts[code] = dict(xname=p.get("name"), name=ident(p.get("name")), cl=p.get("cl"),
                          fields=fields)
    return pkts


def merge(recs, order, pkts):
    errors = []
    for code in pkts:
        if code not in recs:
            errors.append("XML packet %d (%s) has no cl.def length" % (code, pkts[code]["xname"]))
    for op in order:
        if recs[op]["role"] == "NONE":
            errors.append("record %d (%s) has no role in cl.def" % (op, recs[op]["name"]))
    for op in order:
        r = recs[op]
        p = pkts.get(op)
        if not p:
            continue
        seed = r["alias"] or r["name"]
        r["name"] = p["name"]
        r["alias"] = seed if seed != p["name"] else ""
        r["where"] = {"B": "BIN", "R": "REND"}.get(p["cl"], "ANY")
        r["src"] = "xml"
        bits = (r["size"] - 1) * 8
        old = r["fields"]
        new = []
        for f in p["fields"]:
            if f["bit"] + f["width"] > bits:
                errors.append("%s.%s [%d+%d] past the %d-byte packet" %
                              (p["xname"], f["xname"], f["bit"], f["width"], r["size"]))
            # the seed's name of the field at the same bits (or, failing that,
            # at the same start bit) becomes the alias
            match = ([o for o in old if o["bit"] == f["bit"] and o["width"] == f["width"]] or
                     [o for o in old if o["bit"] == f["bit"]])
            alias = ""
            if match:
                a = match[0]["alias"] or match[0]["name"]
                alias = a if a != f["name"] else ""
            new.append(dict(name=f["name"], bit=f["bit"], width=f["width"], type=f["type"],
                            alias=alias, src="xml", values=f["values"]))
        for o in old:  # Reference Guide fields the XML does not have
            if any(o["bit"] < f["bit"] + f["width"] and f["bit"] < o["bit"] + o["width"]
                   for f in new):
                continue
            o = dict(o, values=[])
            new.append(o)
        new.sort(key=lambda f: f["bit"])
        r["fields"] = new
        r["values"] = [(f["name"], v, ident(n)) for f in new for v, n in f.get("values", [])]
    return errors


HEADER = """/* VideoCore IV control-list records: the one table (research/style.md A6).
 * GENERATED by scripts/vc4_cl_tables.py from Mesa's
 * src/broadcom/cle/v3d_packet_v21.xml (docs/vc4-tables.md says which commit
 * and how to regenerate); columns the XML lacks are kept from this file.
 *
 * R(NAME, opcode, bytes, where, policy, role, "alias", "description")
 *   NAME: the XML's packet name made an identifier (spaces and punctuation
 *   become _), or the Reference Guide's title for records the XML omits;
 *   "alias": the seed's / PeterLemon CONTROL_LIST.INC name, also accepted by
 *   the assembler; bytes: length including the opcode byte (Linux
 *   vc4_packet.h, research/vc4.md section 1); where: ANY, BIN (binning list
 *   only) or REND (render list / tile lists only), from the XML's cl=;
 *   policy: KBIN if Linux vc4_validate.c cmd_info[] accepts it in a bin CL,
 *   else KNONE; role: what the record is for (VC4_RL_<role>,
 *   vc4_internal.h): the thread's own records HALT, NOP, SEM_INC, SEM_WAIT,
 *   BRANCH, CALL, RETURN; the binner's BINNING (its set-up and start),
 *   PRIMS (primitives to bin), FLUSH (the end of binning); state STATE (an
 *   engine keeps it) and LATCH (both engines latch it, vc4_latch_state;
 *   the binner copies it into tile lists); the renderer's LOAD, TILE,
 *   DRAW (tile-list primitives), STORE; VG (the OpenVG path, not modelled).
 *   Reference Guide section 1 and research/vc4.md section 1 describe them;
 *   the XML has no such column: it is kept from this file.
 * F(RECORD, FIELD, bit, width, type, "alias")
 *   a payload field: bits [bit, bit+width) of the little-endian payload
 *   (bit 0 = bit 0 of the byte after the opcode). type: U unsigned, S
 *   signed, A address (the field holds the top `width` address bits), F
 *   float32, B flag, X signed 12.4 fixed point. Names: the XML's field
 *   names; fields the XML lacks follow the Reference Guide (research/vc4.md
 *   section 1). "alias": the seed's field name.
 * V(RECORD, FIELD, value, NAME)
 *   an enum value of a field (the XML's <value>s and enums).
 * A(RECORD, bit, width)
 *   macro operand slots, for records whose seed macro takes operands that do
 *   not map one-to-one onto fields (CONTROL_LIST.INC: `dw address + data`).
 *   Operands given to one slot are added. Records without A lines take one
 *   operand per field, in order.
 * Include with R, F, V and A defined. */
"""


def emit_def(recs, order):
    out = [HEADER]
    for op in order:
        r = recs[op]
        out.append('R(%s, %d, %d, %s, %s, %s, "%s", "%s")\n' %
                   (r["name"], op, r["size"], r["where"], r["policy"], r["role"], r["alias"],
                    r["desc"]))
        for f in r["fields"]:
            out.append('F(%s, %s, %d, %d, %s, "%s")\n' %
                       (r["name"], f["name"], f["bit"], f["width"], f["type"], f["alias"]))
        for fname, v, n in r["values"]:
            out.append("V(%s, %s, %d, %s)\n" % (r["name"], fname, v, n))
        for b, w in r["slots"]:
            out.append("A(%s, %d, %d)\n" % (r["name"], b, w))
    return "".join(out)


def emit_list(recs, order, pkts):
    # C-includable, so the test needs no file path: P(opcode, bytes, NAME),
    # F(opcode, bit, width, type, NAME); types after OVERRIDES.
    out = ["/* vc4 control-list packets of v3d_packet_v21.xml, as scripts/vc4_cl_tables.py\n",
           " * read them (after its OVERRIDES); tests/test_vc4_cl.c checks the compiled\n",
           " * cl.def table against this list. GENERATED: do not edit. */\n"]
    for op in sorted(pkts):
        r = recs[op]
        out.append("P(%d, %d, %s)\n" % (op, r["size"], r["name"]))
        for f in pkts[op]["fields"]:
            out.append("F(%d, %d, %d, %s, %s)\n" % (op, f["bit"], f["width"], f["type"], f["name"]))
    return "".join(out)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(a.split("=", 1) if "=" in a else (a, "1") for a in argv[1:] if a.startswith("--"))
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    defp = opts.get("--def", "src/vc4/tables/cl.def")
    listp = opts.get("--list", "tests/data/vc4_cl_packets.txt")
    recs, order = parse_def(defp)
    pkts = parse_xml(args[0])
    errors = merge(recs, order, pkts)
    for e in errors:
        sys.stderr.write("vc4_cl_tables: %s\n" % e)
    if errors:
        return 1
    outs = {defp: emit_def(recs, order), listp: emit_list(recs, order, pkts)}
    changed = False
    for path, text in outs.items():
        try:
            cur = open(path).read()
        except OSError:
            cur = None
        if cur != text:
            changed = True
            if "--check" in opts:
                sys.stderr.write("vc4_cl_tables: %s is out of date\n" % path)
            else:
                open(path, "w").write(text)
    return 1 if changed and "--check" in opts else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
