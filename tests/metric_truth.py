#!/usr/bin/env python3
"""metric_truth.py - what every metric expression of a pmu-events tree is
worth on made-up counts, computed apart from pmudb with perf's own parser:
test_metric compares pmudb's reading of the same expressions with it.

usage: metric_truth.py TREE JEVENTS_DIR [SEED...]

TREE is perf's pmu-events/arch tree, JEVENTS_DIR the folder of perf's
metric.py (tools/perf/pmu-events of the same kernel).  metric.py's
ParsePerfJson reads each MetricExpr into its tree (Operator, Select,
Function, Event, Constant, Literal); this file computes that tree as perf's
expr.y computes an expression: a division by zero is NaN, d_ratio's 0, '%'
by zero an error, 'if' takes the else branch when its condition is 0, '|',
'&' and '^' are logical.  The counts are made up, the same way on both
sides: an identifier, a literal or a query (source_count(X) as "s:X",
has_event(X) as "h:X", strcmp_cpuid_str(X) as "c:X") is worth FNV-1a of
"SEED:NAME" modulo 100000, plus 1, but 0 when that hash is a multiple of
11 (so that divisions by zero and else branches are taken too); each SEED
(default 0) is one vector of counts.

Reads the arches pmudb reads, x86 and arm64.  Prints one line per metric and seed: SEED <TAB> FILE <TAB> NAME <TAB> VALUE <TAB> EXPR, VALUE a
float.hex(), "nan" or "error", EXPR the expression as JSON.
"""
import json
import math
import os
import sys


def fnv1a(text):
    h = 0x811c9dc5
    for b in text.encode():
        h = ((h ^ b) * 0x01000193) & 0xffffffff
    return h


SEED = '0'


def made_up(name):
    h = fnv1a(SEED + ':' + name)
    return 0.0 if h % 11 == 0 else float(h % 100000 + 1)


def unescape(name):
    # metric.py writes ',' and '=' in names as '\,' and '\=' (_FixEscapes)
    out, i = [], 0
    while i < len(name):
        if name[i] == '\\' and i + 1 < len(name):
            i += 1
        out.append(name[i])
        i += 1
    return ''.join(out)


class Failed(Exception):
    pass


def compute(metric, node):
    if isinstance(node, metric.Constant):
        return float(node.value)
    if isinstance(node, metric.Literal):
        return made_up(node.value)
    if isinstance(node, metric.Event):
        name = unescape(node.name)
        if name == 'NaN':
            return math.nan
        return made_up(name)
    if isinstance(node, metric.Select):
        t = compute(metric, node.true_val)
        c = compute(metric, node.cond)
        f = compute(metric, node.false_val)
        return f if c == 0 else t
    if isinstance(node, metric.Function):
        if node.fn in ('source_count', 'has_event', 'strcmp_cpuid_str'):
            return made_up(node.fn[0] + ':' + unescape(node.lhs.name))
        a = compute(metric, node.lhs)
        b = compute(metric, node.rhs)
        if node.fn == 'min':
            return a if a < b else b
        if node.fn == 'max':
            return a if a > b else b
        return 0.0 if b == 0 else a / b
    if isinstance(node, metric.Operator):
        a = compute(metric, node.lhs)
        b = compute(metric, node.rhs)
        op = node.operator
        if op == '|':
            return 0.0 if a == 0 and b == 0 else 1.0
        if op == '&':
            return 1.0 if a != 0 and b != 0 else 0.0
        if op == '^':
            return 1.0 if (a == 0) != (b == 0) else 0.0
        if op == '<':
            return 1.0 if a < b else 0.0
        if op == '>':
            return 1.0 if a > b else 0.0
        if op == '+':
            return a + b
        if op == '-':
            return a - b
        if op == '*':
            return a * b
        if op == '/':
            return math.nan if b == 0 else a / b
        if op == '%':
            if b == 0 or math.isnan(a) or math.isnan(b) or int(b) == 0:
                raise Failed()
            r = int(math.fmod(int(a), int(b)))  # C's % truncates
            return float(r)
        raise Failed()
    raise Failed()


def main():
    global SEED
    tree, jevents_dir = sys.argv[1:3]
    seeds = sys.argv[3:] or ['0']
    sys.path.insert(0, jevents_dir)
    import metric  # perf's own parser of metric expressions
    # the arches pmudb reads (x86, arm64), the folders of their
    # top-level files aside: arm64's sbsa.json holds metrics the cores'
    # lists name (ArchStdEvent), each counted where a core names it
    walk = []
    for arch in ('x86', 'arm64'):
        for top, dirs, files in os.walk(os.path.join(tree, arch)):
            if top != os.path.join(tree, arch):
                walk.append((top, dirs, files))
    for top, dirs, files in sorted(walk):
        for name in sorted(files):
            if not name.endswith('.json'):
                continue
            path = os.path.join(top, name)
            with open(path) as f:
                try:
                    items = json.load(f)
                except ValueError:
                    continue
            for jd in items if isinstance(items, list) else []:
                if not isinstance(jd, dict) or 'MetricExpr' not in jd or 'MetricName' not in jd:
                    continue
                expr = jd['MetricExpr']
                parsed = metric.ParsePerfJson(expr)
                for seed in seeds:
                    SEED = seed
                    try:
                        value = compute(metric, parsed)
                        text = 'nan' if math.isnan(value) else value.hex()
                    except (Failed, ZeroDivisionError, ValueError, TypeError):
                        text = 'error'
                    print('\t'.join([seed, os.path.relpath(path, tree), jd['MetricName'], text, json.dumps(expr)]))


if __name__ == '__main__':
    main()
