#!/usr/bin/env python3
"""check.py - readprofile's --pprof and --folded against its own --top.

  check.py top OURS PPROF [N]  pprof -top output PPROF lists the functions,
                               ticks and percentages of our --top OURS (all
                               functions, or the first N by ticks); pprof
                               merges functions of one name: so are ours
  check.py diff OURS PPROF     the same for pprof -diff_base, whose
                               percentages are of another total: the
                               functions and ticks only
  check.py folded OURS FOLDED  every line of FOLDED is "NAME TICKS" with an
                               escaped NAME, and the lines are the
                               functions and ticks of --top OURS
  check.py hostile JSON FOLDED the names of --folded, unescaped, are the
                               names of --json, unescaped: byte for byte
  check.py disasm TEXT DISASM  pprof -disasm shows at each instruction the
                               counts of the -s report TEXT whose counter
                               addresses lie in it
  check.py list TEXT LINES LIST  pprof -list shows at each source line the
                               counts of TEXT's counters on it (LINES:
                               "ADDR FILE:LINE" from addr2line)
  check.py calls KNOWN RAW TRACES [GPROF]
                               the call arcs: KNOWN "CALLER CALLEE COUNT"
                               lines (the program's own counts), RAW
                               pprof -raw, TRACES pprof -sample_index=calls
                               -traces, GPROF gprof -b -q: the same arcs
                               and counts in each (added up by caller and
                               callee); in RAW each arc a sample of two
                               locations, callee first, time values 0, and
                               each time sample one location, calls 0
  check.py diffcalls OLD NEW TOP  pprof -top -sample_index=calls
                               -diff_base: the calls into each function,
                               NEW's arcs (as KNOWN) less OLD's
  check.py peek KNOWN PEEK FUNC  pprof -peek FUNC -sample_index=calls lists
                               FUNC's callers and callees with KNOWN's
                               counts (but FUNC's calls of itself, which
                               pprof's graph leaves out)
Exit status 0 when it holds; else the differences on stdout, status 1.
"""
import json
import re
import sys

# --top's rows: ticks, load, share, then the name, last
TOP_LINE = re.compile(rb'^ *(\d+) +(\d+\.\d{4}) +(\d+\.\d\d)% (.*)$')
TOTAL_LINE = re.compile(rb'^ *(\d+) +\d+\.\d{4} +total$')
# *unknown* ranks with the functions in --top, with a share but no load
UNKNOWN_LINE = re.compile(rb'^ *(\d+) +(\d+\.\d\d)% (\*unknown\*)$')


def ours_top(path):
    """{name: (ticks, [pct...])} and the total of a --top report."""
    funcs, total = {}, None
    with open(path, 'rb') as f:
        for line in f.read().split(b'\n'):
            m = TOP_LINE.match(line)
            if m:
                t, p = funcs.get(m.group(4), (0, []))
                funcs[m.group(4)] = (t + int(m.group(1)),
                                     p + [float(m.group(3))])
                continue
            m = UNKNOWN_LINE.match(line)
            if m:
                funcs[m.group(3)] = (int(m.group(1)), [float(m.group(2))])
                continue
            m = TOTAL_LINE.match(line)
            if m:
                total = int(m.group(1))
    # the total row is every tick, *unknown* too, as pprof's total
    return funcs, total


PPROF_ROW = re.compile(rb'^ *(-?\d+) +(-?[\d.]+)% +(-?[\d.]+)% +(-?\d+) +'
                       rb'(-?[\d.]+)% +(.*)$')
PPROF_HEAD = re.compile(rb'accounting for (-?\d+), [\d.]+% of (-?\d+) total')


def pprof_top(path):
    rows, total = [], None
    with open(path, 'rb') as f:
        for line in f.read().split(b'\n'):
            m = PPROF_HEAD.search(line)
            if m:
                total = int(m.group(2))
            m = PPROF_ROW.match(line)
            if m:
                rows.append((m.group(6), int(m.group(1)),
                             float(m.group(2))))
    return rows, total


def top(ours_path, pprof_path, n=None, diff=False):
    funcs, total = ours_top(ours_path)
    rows, ptotal = pprof_top(pprof_path)
    bad = []
    if not diff and (total is None or ptotal != total):
        bad.append('total: ours %s, pprof %s' % (total, ptotal))
    want = sorted(((t, name) for name, (t, _) in funcs.items() if t),
                  key=lambda x: -x[0])
    if n is not None:
        # pprof and we may break ties differently: compare the ticks in
        # order, and each name pprof lists by its own ticks
        if [t for t, _ in want[:n]] != [r[1] for r in rows]:
            bad.append('top %d ticks: ours %s, pprof %s' % (
                n, [t for t, _ in want[:n]], [r[1] for r in rows]))
    elif len(rows) != len(want):
        bad.append('%d functions, pprof lists %d' % (len(want), len(rows)))
    for name, flat, pct in rows:
        if name not in funcs:
            bad.append('pprof lists %r, we do not' % name)
            continue
        t, pcts = funcs[name]
        if t != flat:
            bad.append('%r: ours %d, pprof %d' % (name, t, flat))
        # one function of that name: its percentage to two decimals
        if not diff and len(pcts) == 1 and abs(pcts[0] - pct) > 0.0051:
            bad.append('%r: ours %.2f%%, pprof %.2f%%' % (name, pcts[0],
                                                         pct))
    return bad


ESC = re.compile(rb'\\x([0-9a-f]{2})')


def unescape_folded(name):
    return ESC.sub(lambda m: bytes([int(m.group(1), 16)]), name)


def valid_folded_line(line):
    """Why LINE is not one frame and a count, or None."""
    m = re.match(rb'^(.+) (\d+)$', line)
    if not m:
        return 'not NAME TICKS'
    name = m.group(1)
    if b';' in name:
        return 'a ; in the name'
    if any(c < 0x20 or c == 0x7f for c in name):
        return 'a control character in the name'
    try:
        name.decode('utf-8')
    except UnicodeDecodeError:
        return 'not UTF-8'
    if re.search(rb'\\(?!x[0-9a-f]{2})', name):
        return 'a backslash not part of an escape'
    return None


def read_folded(path):
    out, bad = [], []
    with open(path, 'rb') as f:
        data = f.read()
    if data and not data.endswith(b'\n'):
        bad.append('no newline at the end')
    for line in data.split(b'\n')[:-1]:
        why = valid_folded_line(line)
        if why:
            bad.append('%r: %s' % (line, why))
            continue
        name, ticks = line.rsplit(b' ', 1)
        out.append((unescape_folded(name), int(ticks)))
    return out, bad


def folded(ours_path, folded_path):
    funcs, _ = ours_top(ours_path)
    lines, bad = read_folded(folded_path)
    got = {}
    for name, t in lines:
        got[name] = got.get(name, 0) + t
    # --folded has the functions' lines, then *unknown* as [unknown]
    want = {(b'[unknown]' if name == b'*unknown*' else name): t
            for name, (t, _) in funcs.items() if t}
    for name in sorted(set(got) | set(want)):
        if got.get(name) != want.get(name):
            bad.append('%r: --top %s, --folded %s' % (
                name, want.get(name), got.get(name)))
    return bad


def unescape_json_name(s):
    """Our JSON names: \\\\ is a backslash, \\xNN a byte."""
    out, i, b = bytearray(), 0, s
    while i < len(b):
        if b[i] == '\\' and b[i + 1:i + 2] == '\\':
            out.append(0x5c)
            i += 2
        elif b[i] == '\\' and re.match(r'x[0-9a-f]{2}', b[i + 1:i + 4]):
            out.append(int(b[i + 2:i + 4], 16))
            i += 4
        else:
            out += b[i].encode('utf-8')
            i += 1
    return bytes(out)


def hostile(json_path, folded_path):
    with open(json_path, 'rb') as f:
        doc = json.loads(f.read())
    want = sorted((unescape_json_name(fn['name']), fn['ticks'])
                  for fn in doc['functions'] if fn['ticks'])
    lines, bad = read_folded(folded_path)
    if sorted(lines) != want:
        bad.append('--folded %r, --json %r' % (sorted(lines), want))
    return bad


COUNTER = re.compile(rb'^\t0x([0-9a-f]+)\t.*\t(\d+)$')


def counters(path):
    out = {}
    with open(path, 'rb') as f:
        for line in f.read().split(b'\n'):
            m = COUNTER.match(line)
            if m and int(m.group(2)):
                out[int(m.group(1), 16)] = int(m.group(2))
    return out


ROW = re.compile(rb'^ +(\d+|\.) +(\d+|\.) +([0-9a-f]+):')


def pprof_rows(path):
    rows = []
    with open(path, 'rb') as f:
        for line in f.read().split(b'\n'):
            m = ROW.match(line)
            if m:
                rows.append((int(m.group(3), 16),
                             0 if m.group(1) == b'.' else int(m.group(1))))
    return rows


def disasm(text_path, disasm_path):
    ours = counters(text_path)
    rows = pprof_rows(disasm_path)
    bad = []
    if not rows:
        return ['no instructions in pprof -disasm']
    seen = 0
    for i, (addr, flat) in enumerate(rows):
        end = rows[i + 1][0] if i + 1 < len(rows) else addr + 16
        want = sum(c for a, c in ours.items() if addr <= a < end)
        seen += want
        if want != flat:
            bad.append('%x: ours %d, pprof %d' % (addr, want, flat))
    if seen == 0:
        bad.append('no ticks in the disassembled range')
    return bad


def list_lines(text_path, lines_path, list_path):
    ours = counters(text_path)
    where = {}
    with open(lines_path) as f:
        for line in f:
            addr, loc = line.split()
            where[int(addr, 16)] = int(re.match(r'.*:(\d+)', loc).group(1))
    want = {}
    for a, c in ours.items():
        if a in where:
            want[where[a]] = want.get(where[a], 0) + c
    got, shown = {}, set()
    with open(list_path, 'rb') as f:
        for line in f.read().split(b'\n'):
            m = re.match(rb'^ +(\d+|\.) +(\d+|\.) +(\d+):', line)
            if m:
                shown.add(int(m.group(3)))
                if m.group(1) != b'.':
                    got[int(m.group(3))] = int(m.group(1))
    if not got:
        return ['no line with ticks in pprof -list']
    return ['line %d: ours %s, pprof %s' % (n, want.get(n), got.get(n))
            for n in sorted(shown) if want.get(n) != got.get(n)]


def add_arc(arcs, caller, callee, count):
    key = (caller, callee)
    arcs[key] = arcs.get(key, 0) + count


def known_arcs(path):
    """{(caller, callee): count} of "CALLER CALLEE COUNT" lines."""
    arcs = {}
    with open(path) as f:
        for line in f:
            caller, callee, count = line.split()
            add_arc(arcs, caller, callee, int(count))
    return arcs


RAW_LOC = re.compile(r'^ *(\d+): 0x[0-9a-f]+ M=\d+ (.*) :\d+ s=\d+')
RAW_SAMPLE = re.compile(r'^ *(-?\d+(?: +-?\d+)*): ((?:\d+ *)+)$')


def raw_arcs(path, bad):
    """{(caller, callee): calls} of pprof -raw's samples of two locations;
    the samples' shapes checked into BAD."""
    names, samples, types, part = {}, [], None, None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line in ('Samples:', 'Locations', 'Mappings'):
                part = line
                continue
            if part == 'Samples:' and types is None:
                types = [t.replace('[dflt]', '') for t in line.split()]
            elif part == 'Samples:' and RAW_SAMPLE.match(line):
                m = RAW_SAMPLE.match(line)
                samples.append(([int(v) for v in m.group(1).split()],
                                [int(x) for x in m.group(2).split()]))
            elif part == 'Locations' and RAW_LOC.match(line):
                m = RAW_LOC.match(line)
                names[int(m.group(1))] = m.group(2)
    if types is None or types[-1] != 'calls/count':
        bad.append('raw: the last sample type is not calls/count: %s' % types)
        return {}
    arcs = {}
    for values, locs in samples:
        calls, time = values[-1], values[:-1]
        if len(locs) == 2 and any(time):
            bad.append('raw: an arc with time: %s' % values)
        elif len(locs) == 1 and calls:
            bad.append('raw: a time sample with calls: %s' % values)
        elif len(locs) not in (1, 2):
            bad.append('raw: a sample of %d locations' % len(locs))
        if len(locs) == 2:
            add_arc(arcs, names[locs[1]], names[locs[0]], calls)
    return arcs


def traces_arcs(path, bad):
    """{(caller, callee): calls} of pprof -traces' traces of two frames."""
    arcs, trace = {}, []
    with open(path) as f:
        lines = f.read().split('\n')
    for line in lines:
        if line.startswith('-----------+'):
            if len(trace) == 2:
                add_arc(arcs, trace[1][1], trace[0][1], trace[0][0])
            elif len(trace) > 2:
                bad.append('traces: a trace of %d frames' % len(trace))
            trace = []
            continue
        m = re.match(r'^ +(\d+)?   (.*)$', line)
        if m and (trace or m.group(1)):
            trace.append((int(m.group(1) or 0), m.group(2)))
    return arcs


def gprof_arcs(path):
    """{(caller, callee): count} of gprof -q: each entry's parents."""
    arcs, parents = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith('-----'):
                parents = []
                continue
            m = re.match(r'^\[\d+\].* (\S+) \[\d+\]$', line.rstrip())
            if m:
                for caller, count in parents:
                    add_arc(arcs, caller, m.group(1), count)
                continue
            m = re.match(r'^ +(?:[\d.]+ +[\d.]+ +)?(\d+)(?:/\d+)? +(\S+) '
                         r'\[\d+\]$', line.rstrip())
            if m:
                parents.append((m.group(2), int(m.group(1))))
    return arcs


def calls(known, raw, traces, gprof=None):
    bad = []
    want = known_arcs(known)
    got = [('pprof -raw', raw_arcs(raw, bad)),
           ('pprof -traces', traces_arcs(traces, bad))]
    if gprof:
        got.append(('gprof -q', gprof_arcs(gprof)))
    if not want:
        bad.append('the program made no calls')
    for label, arcs in got:
        for key in sorted(set(want) | set(arcs)):
            if want.get(key) != arcs.get(key):
                bad.append('%s: %s -> %s: %s calls, the program made %s' %
                           (label, key[0], key[1], arcs.get(key),
                            want.get(key)))
    return bad


def peek(known, path, func):
    """pprof -peek FUNC -sample_index=calls: FUNC's callers above it and
    callees below it, with the counts of KNOWN."""
    arcs, bad = known_arcs(known), []
    # pprof's graph shows no edge from a function to itself (recursion)
    want_in = {a: n for (a, b), n in arcs.items() if b == func != a}
    want_out = {b: n for (a, b), n in arcs.items() if a == func != b}
    got_in, got_out, seen = {}, {}, False
    with open(path) as f:
        for line in f:
            line = line.rstrip()
            if re.match(r'^ +\d+ .*\| ' + re.escape(func) + '$', line):
                seen = True
                continue
            m = re.match(r'^ +(\d+) +[\d.]+% \|   (\S+)$', line)
            if m:
                (got_out if seen else got_in)[m.group(2)] = int(m.group(1))
    if not seen:
        bad.append('peek: no line of %s' % func)
    if got_in != want_in:
        bad.append('peek: callers of %s %s, the program %s' %
                   (func, got_in, want_in))
    if got_out != want_out:
        bad.append('peek: callees of %s %s, the program %s' %
                   (func, got_out, want_out))
    return bad


def diffcalls(old, new, path):
    """pprof -top -sample_index=calls -diff_base OLD.pb.gz NEW.pb.gz: each
    function's calls into it, NEW's less OLD's (the programs' counts)."""
    want = {}
    for sign, known in ((-1, old), (1, new)):
        for (caller, callee), n in known_arcs(known).items():
            want[callee] = want.get(callee, 0) + sign * n
    want = {f.encode(): n for f, n in want.items() if n}
    rows, _ = pprof_top(path)
    got = {name: flat for name, flat, _ in rows if flat}
    if got != want:
        return ['-diff_base: calls into each function %s, the programs %s'
                % (got, want)]
    return []


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'top':
        bad = top(args[0], args[1], int(args[2]) if len(args) > 2 else None)
    elif cmd == 'diff':
        bad = top(args[0], args[1], diff=True)
    elif cmd == 'folded':
        bad = folded(args[0], args[1])
    elif cmd == 'hostile':
        bad = hostile(args[0], args[1])
    elif cmd == 'disasm':
        bad = disasm(args[0], args[1])
    elif cmd == 'list':
        bad = list_lines(args[0], args[1], args[2])
    elif cmd == 'calls':
        bad = calls(*args)
    elif cmd == 'diffcalls':
        bad = diffcalls(args[0], args[1], args[2])
    elif cmd == 'peek':
        bad = peek(args[0], args[1], args[2])
    else:
        sys.exit('usage: check.py top|folded|hostile ...')
    for b in bad[:20]:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
