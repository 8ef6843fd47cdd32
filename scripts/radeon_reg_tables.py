#!/usr/bin/env python3
"""Build the radeon register tables from the vendors' register headers.

Usage:
  scripts/radeon_reg_tables.py \
      --linux-r600d DIR/r600d.h --linux-r600-reg DIR/r600_reg.h \
      --linux-evergreend DIR/evergreend.h --linux-evergreen-reg DIR/evergreen_reg.h \
      --mesa-r600d DIR/r600d.h --mesa-evergreend DIR/evergreend.h \
      [--overlay src/radeon/tables/regs.def] [--src src/radeon/tables] [--tests tests/data]

Reads the Linux kernel's drivers/gpu/drm/radeon headers and Mesa's
src/gallium/drivers/r600 headers (paths on the command line; the headers are
never committed) and writes, per generation (r600 = R600/R700, evergreen):

  src/radeon/regs_<gen>.def      the register table (X-macro, see below)
  tests/data/radeon_regs_<gen>.txt  "NAME 0xOFFSET", every register name of
                                 the headers, for tests/test_radeon_defs.c

.def lines:
  R(NAME, offset, count, stride, flags, ipos)
      a register, or an array of `count` registers `stride` bytes apart;
      element i is named NAME with the digit at character `ipos` replaced by
      the decimal i (CB_COLOR0_BASE -> CB_COLOR5_BASE); flags bit 0 marks an
      alias (another name for units a primary entry already claims)
  RF(NAME, FIELD, hi, lo)          a field of the register
  RV(NAME, FIELD, VALUE, value)    an enum value of that field

What is read from the headers:
  Mesa:  R_xxxxxx_NAME offset; S_xxxxxx_FIELD(x) (((x) & mask) << shift)
         (G_/C_ say the same); V_xxxxxx_NAME value, the values of the S_
         field above it.  Linux: the same R_/S_/V_ forms where present, and
         plain "#define NAME 0xoffset" at the start of a line (one blank
         after #define; indented defines are fields and constants); a
         following indented "NAME (1 << n)" is a one-bit field, and
         "NAME(x) (((x) & mask) << n)" a field.  Shift-only field macros
         ("NAME(x) ((x) << n)") give no width and are not taken.  Mesa's
         plain defines are constants (EVENT_TYPE_*, PKT3_*), not registers.
Registers are byte offsets below 0x40000 (the model's register space),
multiples of 4.

Choices (each is written as a comment into the .def it concerns):
  * a name with two offsets in one generation: Mesa's offset (its R_ names
    carry the offset twice, so they are self-checked), the other dropped;
  * several names at one offset: the overlay's name, else Mesa's, else the
    first Linux name is the primary; the others are aliases;
  * numbered names with a common pattern (CB_COLOR0..7_BASE, SPI_PS_INPUT_
    CNTL_0..31, SQ_ALU_CONST_CACHE_PS_0..15, ...) at offsets base + i*stride
    become one array entry; the overlay can extend an array past the
    elements the headers name (SET_RESOURCE / SET_SAMPLER words).
The overlay (src/radeon/tables/regs.def, hand-written, R/RF lines) gives the
model's own registers and fields (the CP, scratch, IH registers the executor
uses); its fields are kept and header fields overlapping them dropped.
"""
import argparse
import os
import re
import sys

REG_SPACE = 0x40000

RE_R = re.compile(r'^\s*#\s*define\s+R_([0-9A-Fa-f]{6})_(\w+)\s+(0[xX][0-9A-Fa-f]+)\b')
RE_S = re.compile(r'^\s*#\s*define\s+S_([0-9A-Fa-f]{6})_(\w+)\(x\)\s+\(\(\((?:unsigned\)\()?x\)\s*&\s*'
                  r'(0[xX][0-9A-Fa-f]+|\d+)\)\s*<<\s*(\d+)\)')
RE_V = re.compile(r'^\s*#\s*define\s+V_([0-9A-Fa-f]{6})_(\w+)\s+\(?(0[xX][0-9A-Fa-f]+|\d+)\)?\s*(?:/\*.*)?$')
RE_PLAIN = re.compile(r'^#define[ \t]([A-Za-z_]\w*)\s+(0[xX][0-9A-Fa-f]+)\s*(?:/\*.*|//.*)?$')
RE_FLAG = re.compile(r'^#\s*define\s+([A-Za-z_]\w*)\s+\(\s*1\s*<<\s*(\d+)\s*\)\s*(?:/\*.*)?$')
RE_MFIELD = re.compile(r'^#\s*define\s+([A-Za-z_]\w*)\(x\)\s+\(\(\(x\)\s*&\s*(0[xX][0-9A-Fa-f]+|\d+)\)\s*<<\s*(\d+)\)')
# plain defines that are not registers
NOT_REG = re.compile(r'^(PACKET\d?_|PKT3?_|CP_PACKET|R6XX_|R7XX_|EVERGREEN_MAX|CAYMAN_MAX|'
                     r'.*_(SHIFT|MASK|START|END|OFFSET|SIZE_MAX|MAX)$|RADEON_|DMA_PACKET|SDMA)')


def mask_width(m):
    w = 0
    while m & 1:
        m >>= 1
        w += 1
    return w if m == 0 and w > 0 else None


class Reg:
    def __init__(self, name, off, src):
        self.name, self.off, self.src = name, off, src
        self.fields = []  # [name, hi, lo, [(vname, val)], src]

    def field(self, fname):
        for f in self.fields:
            if f[0] == fname:
                return f
        return None


class Gen:
    def __init__(self, key):
        self.key = key
        self.regs = {}     # name -> Reg
        self.order = []    # names in first-seen order
        self.notes = []
        self.listed = {}   # name -> offset (header names, for the test list)

    def add_reg(self, name, off, src):
        if off % 4 or off >= REG_SPACE:
            return None
        fix = OVERRIDE.get((self.key, name))
        if fix is not None and fix != off:
            note = '%s: %s says 0x%X; 0x%X taken (see OVERRIDE in the script)' % (name, src, off, fix)
            if note not in self.notes:
                self.notes.append(note)
            off = fix
        r = self.regs.get(name)
        if r is None:
            r = Reg(name, off, src)
            self.regs[name] = r
            self.order.append(name)
            return r
        if r.off != off:
            if src == 'mesa' and r.src != 'mesa' and r.src != 'overlay':
                self.notes.append('%s: %s says 0x%X, Mesa 0x%X; Mesa taken' % (name, r.src, r.off, off))
                r.off, r.src = off, src
            else:
                self.notes.append('%s: %s says 0x%X, %s 0x%X; 0x%X kept' % (name, r.src, r.off, src, off, r.off))
                return None
        return r

    def add_field(self, r, fname, hi, lo, src):
        if r is None or hi > 31 or lo > hi:
            return None
        f = r.field(fname)
        if f:
            if (f[1], f[2]) != (hi, lo):
                self.notes.append('%s.%s: %s bits %d:%d, %s bits %d:%d; %s kept' %
                                  (r.name, fname, f[4], f[1], f[2], src, hi, lo, f[4]))
            return f
        for g in r.fields:
            if not (hi < g[2] or lo > g[1]):
                # the first field wins (Mesa's, read first); a header's
                # combined fields (HDMI0_AVI_INFO_Y_A_B_S) overlap their parts
                self.notes.append('%s.%s (%s, %d:%d) overlaps %s (%s); dropped' %
                                  (r.name, fname, src, hi, lo, g[0], g[4]))
                return None
        f = [fname, hi, lo, [], src]
        r.fields.append(f)
        return f


# Offsets the headers disagree on, settled by a third source. Linux r600d.h
# puts SQ_VTX_CONSTANT_WORD0_0/1_0/3_0/6_0 at 0x30000 + 4n, which is
# Evergreen's resource base (evergreend.h), while Mesa r600d.h has
# SQ_VTX_CONSTANT_WORD2_0 at 0x38008 and R600 vertex fetch constants live
# in the SET_RESOURCE window [0x38000, 0x3C000) (r600d.h
# PACKET3_SET_RESOURCE_OFFSET; Mesa r600_state.c emits them as resources
# 160+): the R600 table takes 0x38000 + 4n.
OVERRIDE = {('r600', 'SQ_VTX_CONSTANT_WORD%d_0' % n): 0x38000 + 4 * n for n in range(7)}


def parse(gen, path, src):
    cur = None        # register the indented lines belong to (plain form)
    last_r = {}       # offset hex -> last Reg seen with R_ form
    cur_s = None      # (hex, field) the V_ lines belong to
    with open(path, encoding='latin-1') as fh:
        for line in fh:
            line = line.rstrip('\n')
            m = RE_R.match(line)
            if m:
                hx, name, val = m.group(1).upper(), m.group(2), int(m.group(3), 16)
                if int(hx, 16) != val:
                    gen.notes.append('R_%s_%s = 0x%X in %s: the value taken' % (hx, name, val, src))
                r = gen.add_reg(name, val, src)
                if r is not None:
                    gen.listed.setdefault(name, r.off)
                    last_r['%06X' % val] = r
                cur, cur_s = r, None
                continue
            m = RE_S.match(line)
            if m:
                hx, fname = m.group(1).upper(), m.group(2)
                mask, sh = int(m.group(3), 0), int(m.group(4))
                w = mask_width(mask)
                r = last_r.get(hx)
                if w is None or r is None:
                    cur_s = None
                    continue
                cur_s = gen.add_field(r, fname, sh + w - 1, sh, src)
                continue
            m = RE_V.match(line)
            if m:
                hx, vname, val = m.group(1).upper(), m.group(2), int(m.group(3), 0)
                if cur_s is not None and last_r.get(hx) is not None and cur_s in last_r[hx].fields:
                    if not any(v[0] == vname for v in cur_s[3]):
                        cur_s[3].append((vname, val))
                continue
            if re.match(r'^\s*#\s*define\s+[GC]_', line):
                continue
            m = RE_PLAIN.match(line) if src == 'linux' else None
            if m and not NOT_REG.match(m.group(1)):
                name, val = m.group(1), int(m.group(2), 16)
                r = gen.add_reg(name, val, src)
                if r is not None:
                    gen.listed.setdefault(name, r.off)
                cur, cur_s = r, None
                continue
            if m:
                cur = None
                continue
            indented = not re.match(r'^#define[ \t]\w', line)
            m = RE_FLAG.match(line)
            if m and cur is not None and indented:
                gen.add_field(cur, m.group(1), int(m.group(2)), int(m.group(2)), src)
                continue
            m = RE_MFIELD.match(line)
            if m and cur is not None and indented:
                w = mask_width(int(m.group(2), 0))
                if w:
                    sh = int(m.group(3))
                    gen.add_field(cur, m.group(1), sh + w - 1, sh, src)
                continue
            if re.match(r'^#define[ \t]\w', line):
                cur = None


def parse_overlay(path, gens):
    """The model's own registers and fields (src/radeon/tables/regs.def: R/RF lines).
    An overlay register is added to a generation whose headers do not name
    it; where they do, the headers' offset is kept (and the overlay's fields
    are merged only when the offsets agree)."""
    if not path:
        return
    cur = {}
    with open(path) as fh:
        for line in fh:
            m = re.match(r'^\s*R\((\w+),\s*(0[xX][0-9A-Fa-f]+),\s*(\d+)', line)
            if m:
                name, off, cnt = m.group(1), int(m.group(2), 16), int(m.group(3))
                for g in gens.values():
                    r = g.regs.get(name)
                    if r is None and g.key != 'r600':
                        # the overlay's offsets are R600's (regs.def)
                        g.notes.append('%s: overlay only (R600 offset 0x%X), not in the headers' % (name, off))
                    elif r is None:
                        r = g.add_reg(name, off, 'overlay')
                        g.notes.append('%s: not in the headers; from the overlay' % name)
                    elif r.off != off:
                        g.notes.append('%s: overlay 0x%X, headers 0x%X; headers kept' % (name, off, r.off))
                        r = None
                    else:
                        r.src = 'overlay'
                    if r is not None:
                        r.ov_single = cnt == 1
                    cur[g.key] = r
                continue
            m = re.match(r'^\s*RF\((\w+),\s*(\w+),\s*(\d+),\s*(\d+)\)', line)
            if m:
                name, fname, hi, lo = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
                for g in gens.values():
                    r = cur.get(g.key)
                    if r is None or r.name != name:
                        continue
                    # overlay fields win: drop header fields they overlap
                    keep = []
                    for f in r.fields:
                        if f[4] != 'overlay' and not (hi < f[2] or lo > f[1]):
                            if (f[0], f[1], f[2]) != (fname, hi, lo):
                                g.notes.append('%s.%s (%s) replaced by the overlay field %s' %
                                               (name, f[0], f[4], fname))
                                continue
                            f[4] = 'overlay'
                        keep.append(f)
                    r.fields = keep
                    if not r.field(fname):
                        r.fields.append([fname, hi, lo, [], 'overlay'])


# Arrays the headers name only element 0 of: (gen, NAME) -> (count, stride).
# The SET_RESOURCE / SET_SAMPLER windows hold these words for every slot:
# R600 resources are 7 dwords (0x1C) in [0x38000, 0x3C000), samplers 3
# dwords (0xC) in [0x3C000, 0x3CFF0) (Linux r600_cs.c, r600_packet3_check:
# "(idx_value - PACKET3_SET_RESOURCE_OFFSET) / 7", samplers "/ 3");
# Evergreen resources are 8 dwords (0x20) in [0x30000, 0x38000)
# (evergreen_cs.c: "/ 8"), samplers 3 dwords in [0x3C000, 0x3C600).
# The count is the number of whole slots whose word fits in the window.
def window_count(off, stride, end):
    return (end - 4 - off) // stride + 1


def words(pre, n):
    return ['%s%d_0' % (pre, w) for w in range(n)]


# (gen, names, stride, window end): ALU constants are 4 dwords (x, y, z, w
# = SQ_ALU_CONSTANT0_i..3_i) in R600's SET_ALU_CONST window [0x30000,
# 0x32000); loop constants one dword in SET_LOOP_CONST (R600 [0x3E200,
# 0x3E380), Evergreen [0x3A200, 0x3A500): pm4_*.def W lines, r600d.h /
# evergreend.h PACKET3_SET_*_OFFSET/_END).
ARRAY_WINDOWS = [
    ('r600', words('SQ_TEX_RESOURCE_WORD', 7), 0x1C, 0x3C000),
    ('r600', words('SQ_VTX_CONSTANT_WORD', 7), 0x1C, 0x3C000),
    ('r600', words('SQ_TEX_SAMPLER_WORD', 3), 0xC, 0x3CFF0),
    ('r600', words('SQ_ALU_CONSTANT', 4), 0x10, 0x32000),
    ('r600', ['SQ_LOOP_CONST_0'], 4, 0x3E380),
    ('evergreen', words('SQ_TEX_RESOURCE_WORD', 8), 0x20, 0x38000),
    ('evergreen', words('SQ_VTX_CONSTANT_WORD', 8), 0x20, 0x38000),
    ('evergreen', words('SQ_TEX_SAMPLER_WORD', 3), 0xC, 0x3C600),
    ('evergreen', ['SQ_LOOP_CONST_0'], 4, 0x3A500),
]


def window_arrays(gens):
    arrays = {}
    for key, names, stride, end in ARRAY_WINDOWS:
        g = gens[key]
        for name in names:
            r = g.regs.get(name)
            if r is not None:
                arrays[(key, name)] = (window_count(r.off, stride, end), stride)
    return arrays


def build_entries(gen, arrays):
    """Group numbered names into arrays; returns [entry] sorted by offset."""
    names = [n for n in gen.order if n in gen.regs]
    cands = {}
    for n in names:
        if (gen.key, n) in arrays:
            continue  # a window array of its own (SQ_TEX_RESOURCE_WORD2_0)
        if getattr(gen.regs[n], 'ov_single', False):
            continue  # the model's single registers stay single (SCRATCH_REG1)
        for m in re.finditer(r'\d+', n):
            digits = m.group(0)
            if len(digits) > 1 and digits[0] == '0':
                continue
            key = (n[:m.start()], n[m.end():])
            cands.setdefault(key, {})[int(digits)] = n
    groups = []
    for (pre, suf), members in cands.items():
        if 0 not in members or len(members) < 2:
            continue
        base = gen.regs[members[0]].off
        k1 = min(i for i in members if i)
        d = gen.regs[members[k1]].off - base
        if d <= 0 or d % k1 or (d // k1) % 4:
            continue
        stride = d // k1
        if all(gen.regs[n].off == base + i * stride for i, n in members.items()):
            groups.append((len(members), pre, suf, members, stride))
    groups.sort(key=lambda g: (-g[0], g[1], g[2]))
    taken = set()
    entries = []
    for cnt, pre, suf, members, stride in groups:
        if any(n in taken for n in members.values()):
            continue
        # the fields of element 0 stand for the array; elements must agree
        r0 = gen.regs[members[0]]
        count = max(members) + 1
        ext = arrays.get((gen.key, r0.name))
        if ext:
            if ext[1] != stride and len(members) > 1:
                gen.notes.append('%s: overlay stride %d, headers %d; headers kept' % (r0.name, ext[1], stride))
            else:
                count = max(count, ext[0])
        taken.update(members.values())
        for i, n in members.items():
            if i and gen.regs[n].fields and not r0.fields:
                r0.fields = gen.regs[n].fields
        entries.append({'name': r0.name, 'off': r0.off, 'count': count, 'stride': stride,
                        'ipos': len(pre), 'fields': r0.fields, 'src': r0.src})
    for n in names:
        if n in taken:
            continue
        r = gen.regs[n]
        e = {'name': n, 'off': r.off, 'count': 1, 'stride': 0, 'ipos': 0, 'fields': r.fields, 'src': r.src}
        ext = arrays.get((gen.key, n))
        if ext:
            m = list(re.finditer(r'\d+', n))
            if m and m[-1].group(0) == '0':
                e.update(count=ext[0], stride=ext[1], ipos=m[-1].start())
        entries.append(e)
    # primaries: overlay first, then Mesa, then Linux; longer arrays first
    prio = {'overlay': 0, 'mesa': 1, 'linux': 2}
    order = sorted(range(len(entries)), key=lambda i: (prio.get(entries[i]['src'], 3),
                                                      -entries[i]['count'], i))
    claimed = {}
    for i in order:
        e = entries[i]
        units = [e['off'] + k * (e['stride'] or 4) for k in range(e['count'])]
        e['alias'] = any(u in claimed for u in units)
        if e['alias']:
            owners = sorted({claimed[u] for u in units if u in claimed})
            gen.notes.append('%s is an alias (its units are also %s)' % (e['name'], ', '.join(owners[:3])))
        else:
            for u in units:
                claimed[u] = e['name']
    entries.sort(key=lambda e: (e['off'], e['alias'], e['name']))
    return entries


def write_def(gen, entries, path, sources):
    with open(path, 'w') as out:
        out.write('/* Generated by scripts/radeon_reg_tables.py; do not edit (see\n'
                  ' * docs/radeon-tables.md). Registers of the %s generation named in:\n' % gen.key)
        for s in sources:
            out.write(' *   %s\n' % s)
        out.write(' * R(NAME, offset, count, stride, flags, ipos) RF(NAME, FIELD, hi, lo)\n'
                  ' * RV(NAME, FIELD, VALUE, value); flags bit 0: alias.\n')
        if gen.notes:
            out.write(' *\n * Choices where the headers disagree or overlap:\n')
            for n in gen.notes:
                out.write(' *   %s\n' % n.replace('*/', '* /'))
        out.write(' */\n')
        for e in entries:
            out.write('R(%s, 0x%05X, %d, %d, %d, %d)\n' % (e['name'], e['off'], e['count'], e['stride'],
                                                         1 if e['alias'] else 0, e['ipos']))
            for f in sorted(e['fields'], key=lambda f: f[2]):
                out.write('RF(%s, %s, %d, %d)\n' % (e['name'], f[0], f[1], f[2]))
                seen = set()
                for vname, val in f[3]:
                    if val in seen or val >= (1 << (f[1] - f[2] + 1)):
                        continue
                    seen.add(val)
                    out.write('RV(%s, %s, %s, %d)\n' % (e['name'], f[0], vname, val))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--linux-r600d', required=True)
    ap.add_argument('--linux-r600-reg', required=True)
    ap.add_argument('--linux-evergreend', required=True)
    ap.add_argument('--linux-evergreen-reg', required=True)
    ap.add_argument('--mesa-r600d', required=True)
    ap.add_argument('--mesa-evergreend', required=True)
    ap.add_argument('--overlay')
    ap.add_argument('--src', default='src/radeon/tables')
    ap.add_argument('--tests', default='tests/data')
    ap.add_argument('--version', default='', help='where the headers came from (into the comments)')
    a = ap.parse_args()
    gens = {'r600': Gen('r600'), 'evergreen': Gen('evergreen')}
    inputs = {
        'r600': [(a.mesa_r600d, 'mesa', 'Mesa src/gallium/drivers/r600/r600d.h'),
                 (a.linux_r600d, 'linux', 'Linux drivers/gpu/drm/radeon/r600d.h'),
                 (a.linux_r600_reg, 'linux', 'Linux drivers/gpu/drm/radeon/r600_reg.h')],
        'evergreen': [(a.mesa_evergreend, 'mesa', 'Mesa src/gallium/drivers/r600/evergreend.h'),
                      (a.linux_evergreend, 'linux', 'Linux drivers/gpu/drm/radeon/evergreend.h'),
                      (a.linux_evergreen_reg, 'linux', 'Linux drivers/gpu/drm/radeon/evergreen_reg.h')],
    }
    for key, files in inputs.items():
        for path, src, _ in files:
            parse(gens[key], path, src)
    parse_overlay(a.overlay, gens)
    arrays = window_arrays(gens)
    for key, g in gens.items():
        entries = build_entries(g, arrays)
        srcs = [d for _, _, d in inputs[key]]
        if a.version:
            srcs.append(a.version)
        if a.overlay:
            srcs.append('the overlay src/radeon/tables/regs.def (the model\'s own registers and fields)')
        write_def(g, entries, os.path.join(a.src, 'regs_%s.def' % key), srcs)
        with open(os.path.join(a.tests, 'radeon_regs_%s.txt' % key), 'w') as out:
            for name in sorted(g.listed):
                out.write('%s 0x%05X\n' % (name, g.listed[name]))
        nf = sum(len(e['fields']) for e in entries)
        nv = sum(len(f[3]) for e in entries for f in e['fields'])
        print('%s: %d names, %d entries (%d arrays), %d fields, %d values, %d notes' %
              (key, len(g.listed), len(entries), sum(e['count'] > 1 for e in entries), nf, nv, len(g.notes)),
              file=sys.stderr)


if __name__ == '__main__':
    main()
