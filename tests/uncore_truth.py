#!/usr/bin/env python3
"""uncore_truth.py - what perf makes of every uncore entry of a pmu-events
tree, computed apart from pmudb: test_vendor compares pmudb's encodings
with it.

usage: uncore_truth.py TREE JEVENTS_DIR KERNEL_SOURCE UNCORE_YAML

TREE is perf's pmu-events/arch tree, JEVENTS_DIR the folder of perf's own
jevents.py (tools/perf/pmu-events of the same kernel), KERNEL_SOURCE a
Linux source tree holding the uncore drivers, UNCORE_YAML pmudb's
tables/uncore.yaml, read for one thing only: which driver array (or
attribute symbols) a kernel PMU of a µarch has.  Everything else is the
kernel's and perf's: jevents.py's JsonEvent names the kernel PMU of each
entry and writes its terms; the format attributes are read from the
driver source here, with regular expressions of this file; the terms are
placed as perf's util/pmu.c places them (each term's value ORed into the
bits its format lists, low bits first; a value wider than the format, or a
term the PMU has no format for, refused), but for one thing perf refuses:
a UMask wider than the PMU's umask is placed in the layout the table's
'wide_umask' names, as the vendor wrote it.

Prints one line per uncore entry of the µarchs the mapfiles list, and of
every sys/ folder (system PMUs: the µarch FOLDER/sys):
  UARCH <TAB> KERNEL_PMU <TAB> NAME <TAB> ok <TAB> CONFIG <TAB> CONFIG1 <TAB> CONFIG2
  UARCH <TAB> KERNEL_PMU <TAB> NAME <TAB> refused <TAB> WHY
  UARCH <TAB> KERNEL_PMU <TAB> NAME <TAB> untabled
"""
import csv
import json
import os
import re
import sys

import yaml


def main():
    tree, jevents_dir, kernel, table = sys.argv[1:5]
    sys.path.insert(0, jevents_dir)
    import jevents  # perf's own converter

    with open(table) as f:
        doc = yaml.safe_load(f)
    where = {}
    for entry in doc.get('uncore_pmus', []):
        uarchs = entry['uarch'] if isinstance(entry['uarch'], list) else [entry['uarch']]
        for u in uarchs:
            where[(u, entry['pmu'])] = entry

    sources = {}

    def source(rel):
        if rel not in sources:
            with open(os.path.join(kernel, rel)) as f:
                sources[rel] = f.read()
        return sources[rel]

    def ranges_of(spec):
        word, bits = spec.split(':')
        ranges = []
        for part in bits.split(','):
            lo, _, hi = part.partition('-')
            ranges.append((word, int(lo), int(hi or lo)))
        return ranges

    def define(rel, symbol):
        text = source(rel)
        m = re.search(r'DEFINE_UNCORE_FORMAT_ATTR\(\s*' + symbol + r'\s*,\s*(\w+)\s*,\s*"([^"]+)"\s*\)', text)
        if m:
            return m.group(1), ranges_of(m.group(2))
        # the generic macro of include/linux/perf_event.h: the symbol is the name
        m = re.search(r'(?<!\w)PMU_FORMAT_ATTR\(\s*' + symbol + r'\s*,\s*"([^"]+)"\s*\)', text)
        if not m:
            raise SystemExit(f'{rel}: no format attribute {symbol}')
        return symbol, ranges_of(m.group(1))

    def field(rel, name, word):
        # a driver's field mask: #define NAME GENMASK_ULL(hi, lo) or BIT_ULL(n)
        text = source(rel)
        m = re.search(r'#define\s+' + name + r'\s+GENMASK(?:_ULL)?\(\s*(\d+)\s*,\s*(\d+)\s*\)', text)
        if m:
            return [(word, int(m.group(2)), int(m.group(1)))]
        m = re.search(r'#define\s+' + name + r'\s+BIT(?:_ULL)?\(\s*(\d+)\s*\)', text)
        if not m:
            raise SystemExit(f'{rel}: no mask {name}')
        return [(word, int(m.group(1)), int(m.group(1)))]

    def formats(entry):
        rel = entry['file']
        if 'attrs' in entry:
            return dict(define(rel, s) for s in entry['attrs'])
        body = re.search(r'\*' + entry['formats'] + r'\[\]\s*=\s*\{(.*?)\};', source(rel), re.S).group(1)
        out = {}
        # the array's items, in order: &format_attr_X.attr, or an attribute
        # made in place by a driver's macro (drivers/perf): NAME and "SPEC",
        # or NAME, [config word,] and a mask #define'd in the driver
        item = re.compile(r'&format_attr_(\w+)\.attr'
                          r'|\w*FORMAT_ATTR\(\s*(\w+)\s*,\s*(?:"([^"]+)"|(?:(\d)\s*,\s*)?(\w+))\s*\)')
        for m in item.finditer(body):
            if m.group(1):
                name, ranges = define(rel, m.group(1))
            elif m.group(3):
                name, ranges = m.group(2), ranges_of(m.group(3))
            else:
                word = {None: 'config', '0': 'config', '1': 'config1', '2': 'config2'}[m.group(4)]
                name, ranges = m.group(2), field(rel, m.group(5), word)
            out[name] = ranges
        return out

    def place(terms, fmts, wide):
        words = {'config': 0, 'config1': 0, 'config2': 0}
        for term in terms.split(','):
            name, _, value = term.partition('=')
            value = int(value, 0)
            if name in words:
                words[name] |= value
                continue
            if name not in fmts:
                return None, f'no format {name}'
            ranges = fmts[name]
            width = sum(hi - lo + 1 for _, lo, hi in ranges)
            if value >> width and name == 'umask' and wide:
                # the vendor's layout of a wide UMask (tables/uncore.yaml
                # wide_umask): perf 6.12 refuses the value; placed as meant
                ranges = wide
                width = sum(hi - lo + 1 for _, lo, hi in ranges)
            if value >> width:
                return None, f'{name}={value:#x} too big for the format'
            for word, lo, hi in ranges:
                bits = hi - lo + 1
                words[word] |= (value & ((1 << bits) - 1)) << lo
                value >>= bits
        return words, None

    out = csv.writer(sys.stdout, delimiter='\t', lineterminator='\n')
    for arch in ('x86', 'arm64'):
        mapfile = os.path.join(tree, arch, 'mapfile.csv')
        if not os.path.exists(mapfile):
            continue
        with open(mapfile) as f:
            rows = [r for r in csv.reader(f) if r and not r[0].startswith('Family') and len(r) > 2]
        uarchs = []
        for row in rows:
            if row[2] not in uarchs and os.path.isdir(os.path.join(tree, arch, row[2])):
                uarchs.append(row[2])
        # perf's system PMU folders (jevents.py reads every sys/ folder):
        # each is a µarch of its own, named FOLDER/sys
        for top, dirs, _ in sorted(os.walk(os.path.join(tree, arch))):
            if os.path.basename(top) == 'sys':
                uarchs.append(os.path.relpath(top, os.path.join(tree, arch)))
        for uarch in uarchs:
            folder = os.path.join(tree, arch, uarch)
            for name in sorted(os.listdir(folder)):
                if not name.endswith('.json') or 'metric' in name:
                    continue
                with open(os.path.join(folder, name)) as f:
                    items = json.load(f)
                for jd in items if isinstance(items, list) else []:
                    unit = jd.get('Unit')
                    if not unit or unit in ('cpu_core', 'cpu_atom', 'cpu_lowpower') or 'EventName' not in jd:
                        continue
                    ev = jevents.JsonEvent(jd)
                    entry = where.get((uarch, ev.pmu))
                    if not entry:
                        out.writerow([uarch, ev.pmu, jd['EventName'], 'untabled'])
                        continue
                    wide = define(entry['file'], entry['wide_umask'])[1] if 'wide_umask' in entry else None
                    words, why = place(ev.event, formats(entry), wide)
                    if why:
                        out.writerow([uarch, ev.pmu, jd['EventName'], 'refused', why])
                    else:
                        out.writerow([uarch, ev.pmu, jd['EventName'], 'ok', hex(words['config']),
                                      hex(words['config1']), hex(words['config2'])])


if __name__ == '__main__':
    main()
