#!/usr/bin/env python3
"""check.py - an independent reading of readprofile's reports, for
tests/views/run.sh.  Every check prints nothing and exits 0 when right,
or prints what differs and exits 1.

  check.py top N CLASSIC CLASSIC_V TOP [v|s|sv]
      TOP (readprofile --top N) against the classic report CLASSIC (same
      options, -v in CLASSIC_V for the addresses) sorted here: ticks down,
      then address, then map order, *unknown* after the functions of as
      many ticks; a header row first; each row's columns in the classic
      order (address with -v, ticks, load, seconds and calls of a
      gmon.out), then share = ticks * 100 / (total + *unknown*), then the
      name, last; the total row states that whole: its ticks (and a
      gmon.out's seconds), and their load over the text of the classic
      total's load.
  check.py topb N CLASSIC_B TOP
      the same for -b: blocks of the classic -b report, sorted.
  check.py json JSON CLASSIC_V [CLASSIC_S|CLASSIC_B] [top N]
      the JSON document against the classic -v report (and -s/-b report):
      names, addresses, ticks, loads, buckets, *unknown* and the total.
      A gmon.out's also: seconds and calls as -v's, and each bucket
      at the first address of a bin computed here from the ranges.
  check.py gmoninfo JSON INFO_V
      a gmon.out's JSON inputs against its readprofile -i -v description.
  check.py golden DIR
      each NAME.json in DIR against NAME.v: total and *unknown*; and
      the total against NAME.exp's (the case's recorded report).  One
      line per case: `ok NAME` or `FAIL NAME: WHY`.
  check.py names JSON MAP
      every name in the JSON decodes to a name of the map, byte for byte.
  check.py watch OUT N EXPECTED... [json]
      --interval output OUT: N reports, each (after its header) equal to
      the given expected report; a file named *.reset marks an interval
      where the header must say the counters were reset.
"""
import json
import re
import sys

def lines(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")[:-1]


# A name ends only at a space: it may hold tabs and other blanks.  A
# gmon.out's -v line adds the seconds, and the calls when it has arcs.
VLINE = re.compile(rb"^([0-9a-f]{16}) (.*[^ ]) +(\d+) +(\d+\.\d{4})"
                   rb"(?: +(\d+\.\d+))?(?: +(\d+))?$", re.S)


def parse_v(path):
    """Classic -v report: [(addr, name, ticks, load, extra_lines, line,
    seconds, calls)], unknown, total line.  -s lines (tab first) are kept
    with their function; seconds (text) and calls are None but for a
    gmon.out."""
    funcs, unknown, total = [], None, None
    for ln in lines(path):
        if ln.startswith(b"\t"):
            funcs[-1][4].append(ln)
            continue
        if ln.endswith(b" *unknown*"):
            unknown = int(ln.split()[0])
            continue
        m = VLINE.match(ln)
        if m is None:
            fail("not a -v line: %r" % ln[:100])
        addr, name, ticks, load, sec, calls = m.groups()
        if name == b"total" and int(addr, 16) == 0:
            total = ln
            continue
        funcs.append((int(addr, 16), name, int(ticks), load, [], ln, sec,
                      None if calls is None else int(calls)))
    return funcs, unknown, total


def total_of(total_line):
    """The ticks, seconds and calls of a -v total line."""
    m = VLINE.match(total_line)
    return int(m.group(3)), m.group(5), \
        None if m.group(6) is None else int(m.group(6))


def parse_plain(path):
    """Classic default report: [(line, ticks, extra_lines)], total line
    (the last line), *unknown*'s ticks."""
    funcs, unknown = [], 0
    ls = lines(path)
    for ln in ls[:-1]:
        if ln.startswith(b"\t"):
            funcs[-1][2].append(ln)
        elif ln.endswith(b" *unknown*"):
            unknown = int(ln.split()[0])
        else:
            funcs.append((ln, int(ln.split()[0]), []))
    return funcs, ls[-1], unknown


def fail(msg):
    print(msg)
    sys.exit(1)


def pct(ticks, total):
    return ticks * 100.0 / total if total else 0.0


def top_header(flags, gmon_calls=None):
    """--top's header row: the columns of the rows below, the name last."""
    if "v" not in flags:
        return b"%6s %8s %7s %s" % (b"ticks", b"load", b"share", b"function")
    secs = b"" if gmon_calls is None else \
        b"%11s%s" % (b"seconds", b"    calls" if gmon_calls else b"")
    return b"%-16s %6s %8s%s %7s %s" % (b"address", b"ticks", b"load", secs,
                                        b"share", b"function")


def share(ticks, everything):
    return b"%6.2f%%" % pct(ticks, everything)


def func_row(v, flags, sh):
    """A function's --top row from its classic -v line V: ticks, load,
    (seconds, calls), share SH, then the name."""
    addr, name, ticks, load, _, _, sec, calls = v
    row = b"%016x " % addr if "v" in flags else b""
    row += b"%6d %8s" % (ticks, load)
    if "v" in flags and sec is not None:
        row += b" %10s" % sec
        if calls is not None:
            row += b" %8d" % calls
    return row + b" %7s %s" % (sh, name)


def unknown_row(u, flags, sh, tsec=None, ttick=None, calls=False):
    """The *unknown* row of --top; a gmon.out's -v row has its seconds."""
    row = b"%16s " % b"" if "v" in flags else b""
    row += b"%6d %8s" % (u, b"")
    if "v" in flags and tsec is not None:
        rate = round(ttick / float(tsec)) if ttick else 1
        row += b" %10s" % (b"%.*f" % (len(tsec.split(b".")[1]), u / rate))
        if calls:
            row += b" " * 9
    return row + b" %7s *unknown*" % sh


def total_load(total_line, everything, got):
    """The load of --top's total row, from the last line of GOT: that of
    EVERYTHING ticks over the text the classic TOTAL_LINE's load is over
    (its ticks / its load, known to the rounding of 4 decimals)."""
    m = re.search(rb" (\d+\.\d{4})(?: +\d+\.\d+)?(?: +\d+)? +total$",
                  got[-1] if got else b"")
    if m is None:
        fail("no total row: %r" % (got[-1:],))
    load = float(m.group(1))
    c = re.match(rb"^ *(\d+) total +(\d+\.\d{4})$", total_line) or \
        re.match(rb"^0{16} total +(\d+) +(\d+\.\d{4})", total_line)
    ticks, cload = int(c.group(1)), float(c.group(2))
    if ticks > 0 and cload > 0:
        # span = ticks / cload, each load rounded by up to 0.00005
        lo = everything / (ticks / max(cload - 0.00005, 1e-12))
        hi = everything / (ticks / (cload + 0.00005))
        if not lo - 0.00005 <= load <= hi + 0.00005:
            fail("total row load %s: %d ticks over the classic total's text"
                 " (%d ticks, load %s) is %.4f to %.4f" % (
                     m.group(1).decode(), everything, ticks,
                     c.group(2).decode(), lo, hi))
    elif everything == 0 and load != 0:
        fail("total row load %s for no tick" % m.group(1).decode())
    return m.group(1)


def whole_row(total_line, everything, load):
    """--top's total row: EVERYTHING (the ticks of every function, *unknown*
    and no symbol), LOAD, a gmon.out's -v seconds scaled alike, exactly, at
    their decimals, a blank share, then "total"."""
    m = re.match(rb"^( *)(\d+)( total +\d+\.\d{4})$", total_line)
    if m:
        return b"%6d %8s %7s total" % (everything, load, b"")
    m = VLINE.match(total_line)
    old = int(m.group(3))
    row = b"%016x %6d %8s" % (0, everything, load)
    if m.group(5) is not None:
        d = len(m.group(5).split(b".")[1])
        # seconds = ticks / rate, exact at these decimals: the rate is
        # old / seconds when the total has ticks
        sec = float(m.group(5))
        rate = round(old / sec) if sec else None
        if rate:
            v = b"%.*f" % (d, everything / rate)
        else:
            v = m.group(5)
        row += b" %10s" % v
    if m.group(6) is not None:
        row += b" %8d" % int(m.group(6))
    return row + b" %7s total" % b""


def cmd_top(n, classic, classic_v, top, flags=""):
    plain, total_line, unknown = parse_plain(classic)
    vf, _, vtotal = parse_v(classic_v)
    if len(plain) != len(vf):
        fail("classic and -v reports list %d and %d functions"
             % (len(plain), len(vf)))
    total = int(total_line.split()[0])
    everything = total + unknown    # the shares' whole: *unknown* too
    ttick, tsec, tcalls = total_of(vtotal)
    gmon_calls = None if tsec is None else tcalls is not None
    rows = []
    for seq, (p, v) in enumerate(zip(plain, vf)):
        rows.append((-v[2], 0, v[0], seq, p, v))
    if unknown:     # after the functions of as many ticks
        rows.append((-unknown, 1, 0, 0, None, None))
    rows.sort(key=lambda r: r[:4])
    want = [top_header(flags, gmon_calls)]
    for _, _, _, _, p, v in rows[:n]:
        if p is None:
            want.append(unknown_row(unknown, flags, share(unknown, everything),
                                    tsec, ttick, gmon_calls))
            continue
        want.append(func_row(v, flags, share(v[2], everything)))
        if "s" in flags:
            want.extend(p[2] if "v" not in flags else v[4])
    got = lines(top)
    last = lines(classic_v if "v" in flags else classic)[-1]
    want.append(whole_row(last, everything, total_load(last, everything,
                                                       got)))
    if got != want:
        for i, (a, b) in enumerate(zip(want, got)):
            if a != b:
                fail("line %d:\n want %r\n got  %r" % (i + 1, a, b))
        fail("want %d lines, got %d" % (len(want), len(got)))


def parse_b(path):
    """Classic -b report: [(name, bins, total_or_None, seq)], grand total,
    *unknown*'s ticks."""
    blocks, cur, unknown = [], None, 0
    ls = lines(path)
    for ln in ls[:-1]:
        if ln.startswith(b"\t"):
            a, c = ln[1:].split(b"\t")
            cur[1].append((int(a, 16), int(c)))
        elif ln.startswith(b"  total\t\t\t\t"):
            cur[2] = int(ln.split(b"\t")[-1])
        elif ln.endswith(b" *unknown*"):
            unknown = int(ln.split()[0])
        else:
            cur = [ln[:-1], [], None, len(blocks)]
            blocks.append(cur)
    return blocks, ls[-1], unknown


def cmd_topb(n, classic_b, top):
    blocks, grand, unknown = parse_b(classic_b)
    total = int(grand.split()[0])
    everything = total + unknown
    ranked = [(-sum(c for _, c in b[1]), 0, b[3], b) for b in blocks]
    if unknown:
        ranked.append((-unknown, 1, 0, None))
    ranked.sort(key=lambda r: r[:3])
    want = []
    for _, _, _, b in ranked[:n]:
        if b is None:
            want.append(b"%6d %7s *unknown*" % (unknown,
                                                 share(unknown, everything)))
            continue
        name, bins = b[0], b[1]
        t = sum(c for _, c in bins)
        if t == 0:
            continue
        want.append(name + b":")
        want.extend(b"\t%x\t%d" % (a, c) for a, c in bins)
        want.append(b"  total\t\t\t\t%d %6.2f%%" % (t, pct(t, everything)))
    got = lines(top)
    want.append(whole_row(grand, everything, total_load(grand, everything,
                                                        got)))
    if got != want:
        for i, (a, b) in enumerate(zip(want, got)):
            if a != b:
                fail("line %d:\n want %r\n got  %r" % (i + 1, a, b))
        fail("want %d lines, got %d" % (len(want), len(got)))


def decode_name(s):
    """The documented second layer: \\\\ a backslash, \\xNN a raw byte."""
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] != "\\":
            out += s[i].encode("utf-8")
            i += 1
        elif s[i + 1] == "\\":
            out += b"\\"
            i += 2
        elif s[i + 1] == "x":
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        else:
            fail("bad escape in name %r" % s)
    return bytes(out)


def load_json(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw.count(b"\n") != 1 or not raw.endswith(b"\n"):
        fail("the document is not one line")
    return json.loads(raw.decode("utf-8"))


def cmd_json(path, classic_v, extra=None, top=None):
    doc = load_json(path)
    vf, unknown, total_line = parse_v(classic_v)
    total, tsec, tcalls = total_of(total_line)
    if doc["in_functions"] != total or doc["unknown"] != unknown:
        fail("total/unknown %r/%r, want %r/%r" % (doc["in_functions"], doc["unknown"],
                                                total, unknown))
    gmon = doc["inputs"]["format"] == "gmon.out"
    if gmon != (tsec is not None):
        fail("format %r, but the -v total line %r" % (doc["inputs"]["format"],
                                                      total_line))
    if gmon:
        check_hist_numbers(doc, doc, "total_", total, tsec, tcalls)
    blocks = None
    if extra and extra.endswith(".b"):
        blocks = [b for b in parse_b(extra)[0]
                  if sum(c for _, c in b[1]) or doc["inputs"]["all"]]
        want = [(None, b[0], sum(c for _, c in b[1]), None, b[1])
                for b in blocks]
    else:
        sf = parse_v(extra)[0] if extra else None
        want = []
        for i, v in enumerate(vf):
            bk = None
            if sf is not None:
                bk = []
                for ln in sf[i][4]:
                    f = ln[1:].split(b"\t")    # the name may hold tabs
                    bk.append((int(f[0], 16), int(f[-1])))
            want.append((v[0], v[1], v[2], v[3], bk, v))
    if top:
        order = sorted(range(len(want)),
                       key=lambda i: (-want[i][2],
                                      want[i][0] if want[i][0] is not None
                                      else 0, i))
        want = [want[i] for i in order[:top]]
    got = doc["functions"]
    if len(got) != len(want):
        fail("%d functions, want %d" % (len(got), len(want)))
    for g, w in zip(got, want):
        name = decode_name(g["name"])
        if name != w[1] or g["ticks"] != w[2]:
            fail("got %r %r, want %r %r" % (name, g["ticks"], w[1], w[2]))
        if w[0] is not None and (g["address"] != w[0] or
                                 int(g["address_hex"], 16) != w[0]):
            fail("%r: address %r, want %x" % (name, g["address"], w[0]))
        if w[3] is not None and b"%.4f" % g["load"] != w[3]:
            fail("%r: load %r, want %r" % (name, g["load"], w[3]))
        if abs(g["percent"] - pct(g["ticks"], total + unknown)) > 1e-6:
            fail("%r: percent %r" % (name, g["percent"]))
        if w[4] is not None:
            gb = [(b["address"], b["count"]) for b in g["buckets"]]
            if gb != w[4]:
                fail("%r: buckets %r, want %r" % (name, gb[:5], w[4][:5]))
            if gmon:
                check_bin_starts(doc, g)
        elif "buckets" in g:
            fail("%r: buckets without -b or -s" % name)
        if gmon and len(w) > 5:
            check_hist_numbers(doc, g, "", w[5][2], w[5][6], w[5][7])
        elif gmon and ("seconds" not in g or
                       abs(g["seconds"] - g["ticks"] /
                           doc["inputs"]["rate"]) > 5e-7):
            fail("%r: seconds %r" % (name, g.get("seconds")))


def check_hist_numbers(doc, obj, prefix, ticks, sec, calls):
    """A gmon.out's seconds (ticks / rate, as -v prints them) and calls."""
    rate = doc["inputs"]["rate"]
    got = obj[prefix + "seconds"]
    if abs(got - ticks / rate) > 5e-7 or abs(got - float(sec)) > 5e-7:
        fail("%sseconds %r: ticks %d at %d Hz, -v says %r" % (prefix, got,
                                                             ticks, rate, sec))
    if obj.get(prefix + "calls") != calls:
        fail("%scalls %r, -v says %r" % (prefix, obj.get(prefix + "calls"),
                                         calls))


def bin_starts(doc):
    """Every bin's first address, from the ranges alone: bin j of a range
    starts at low + floor(j * (high - low) / bins)."""
    out = []
    for r in doc["inputs"]["ranges"]:
        span = r["high"] - r["low"]
        out.extend(r["low"] + j * span // r["bins"] for j in range(r["bins"]))
    return out


def check_bin_starts(doc, f):
    """The buckets of F are consecutive bins, each at its true start."""
    if "_starts" not in doc:
        doc["_starts"] = bin_starts(doc)
        doc["_index"] = {a: i for i, a in enumerate(doc["_starts"])}
    idx = [doc["_index"].get(b["address"]) for b in f["buckets"]]
    if None in idx:
        fail("%r: a bucket at no bin's start: %r" % (f["name"], idx))
    if doc["inputs"]["buckets"] == "counters" and \
            idx != list(range(idx[0], idx[0] + len(idx)) if idx else []):
        fail("%r: -s buckets are not consecutive bins" % f["name"])


def cmd_gmoninfo(path, info_v):
    """The inputs of a gmon.out's JSON against its -i -v description."""
    inp = load_json(path)["inputs"]
    kv = {}
    for ln in lines(info_v):
        k, _, v = ln.decode().partition(": ")
        kv.setdefault(k, []).append(v)
    fmt, _, ver = kv["Format"][0].partition(" gmon.out, version ")
    want = {"format": "gmon.out", "gmon_format": fmt, "version": int(ver, 0),
            "pointer_size": int(kv["Pointer_size"][0]),
            "byte_order": kv["Byte_order"][0],
            "rate": int(kv["Profiling_rate"][0].split()[0]),
            "counters": int(kv["Bins"][0]), "mode": "histogram"}
    for k, v in want.items():
        if inp.get(k) != v:
            fail("inputs %s: %r, -i -v says %r" % (k, inp.get(k), v))
    rs = inp["ranges"]
    ranges = [r.split()[0] for r in kv["Range"]]
    if ["0x%x-0x%x" % (r["low"], r["high"]) for r in rs] != ranges:
        fail("ranges %r, -i -v says %r" % (rs, ranges))
    if sum(r["bins"] for r in rs) != inp["counters"]:
        fail("the ranges' bins do not add up to counters")
    for r in rs:
        if int(r["low_hex"], 16) != r["low"] or \
                int(r["high_hex"], 16) != r["high"] or \
                abs(r["bin_width"] - (r["high"] - r["low"]) / r["bins"]) > 5e-7:
            fail("range %r" % r)
    if inp["step"] != rs[0]["bin_width"]:
        fail("step %r, the first range's width %r" % (inp["step"],
                                                      rs[0]["bin_width"]))


def cmd_names(path, mapfile):
    doc = load_json(path)
    names = set(ln.split(b" ", 2)[2] for ln in lines(mapfile)
                if len(ln.split(b" ", 2)) == 3)
    for f in doc["functions"]:
        if decode_name(f["name"]) not in names:
            fail("name %r is in no map line" % f["name"][:80])
    if not doc["functions"]:
        fail("no functions")


HEADER = re.compile(rb"^--- \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [-+]\d{4} "
                    rb"interval (\d+): \d+\.\d{3} s( \(counters were reset: "
                    rb"ticks since the reset\))?$")


def cmd_watch(out, n, expected, as_json=False):
    got = lines(out)
    if as_json:
        if len(got) != n:
            fail("%d documents, want %d" % (len(got), n))
        for i, (ln, exp) in enumerate(zip(got, expected)):
            doc = json.loads(ln.decode("utf-8"))
            iv = doc["interval"]
            if iv["number"] != i + 1 or iv["reset"] != exp.endswith(".reset"):
                fail("interval %d: %r" % (i + 1, iv))
            with open("%s.doc" % out, "wb") as f:
                f.write(ln + b"\n")
            cmd_json("%s.doc" % out, exp)
        return
    reports, cur = [], None
    for ln in got:
        m = HEADER.match(ln)
        if m:
            if int(m.group(1)) != len(reports) + 1:
                fail("header %r out of order" % ln)
            cur = [m.group(2) is not None, []]
            reports.append(cur)
        elif cur is None:
            fail("no header before %r" % ln)
        else:
            cur[1].append(ln)
    if len(reports) != n:
        fail("%d reports, want %d" % (len(reports), n))
    for i, (r, exp) in enumerate(zip(reports, expected)):
        if r[0] != exp.endswith(".reset"):
            fail("interval %d: reset %r" % (i + 1, r[0]))
        if r[1] != lines(exp):
            fail("interval %d:\n got  %r\n want %r" % (i + 1, r[1][:6],
                                                       lines(exp)[:6]))


def golden_total(path):
    """The total ticks of a recorded report (expected.out, from
    util-linux or written by hand): its last total line, plain or -v;
    None when it has none (-b, -i)."""
    for ln in reversed(lines(path)):
        m = re.match(rb"^ *(\d+) total +\d+\.\d{4}$", ln) or \
            re.match(rb"^0{8,16} total +(\d+) +\d+\.\d{4}$", ln)
        if m:
            return int(m.group(1))
    return None


def cmd_golden(d):
    """Every NAME.json in D: parses, and its total and *unknown* are those
    of NAME.v, the -v report of the same command (*unknown* 0 when a
    function holds the last counter), adding up with no_symbol to all; its total is also the
    one of NAME.exp (the case's recorded report) when that has a total
    line.  One line per case: `ok NAME` or `FAIL NAME: WHY`; exit 1 on
    any failure or when fewer than 50 cases were read."""
    import glob
    n = bad = 0
    for j in sorted(glob.glob(d + "/*.json")):
        name = j[len(d) + 1:-5]
        why = None
        try:
            doc = load_json(j)
            text = lines(j[:-5] + ".v")
            total = [x for x in text
                     if x.startswith(b"0000000000000000 total ")]
            unk = [x for x in text if x.endswith(b" *unknown*")]
            if not total or not unk:
                why = "no total in the -v report"
            elif doc["in_functions"] != int(total[-1].split()[2]) or \
                    doc["unknown"] not in (int(unk[-1].split()[0]), 0) or \
                    doc["in_functions"] + doc["unknown"] + doc["no_symbol"] != \
                    doc["total"]:
                # *unknown*'s ticks are stated once: 0 when a function
                # reaches into the last counter, and holds them
                why = "total %r unknown %r; text: %r %r" % (
                    doc["in_functions"], doc["unknown"], total[-1], unk[-1])
            else:
                want = golden_total(j[:-5] + ".exp")
                if want is not None and want != doc["in_functions"]:
                    why = "total %r, the recorded report's %r" % (
                        doc["in_functions"], want)
        except (SystemExit, ValueError, KeyError, IndexError) as e:
            why = "unreadable: %r" % (e,)
        n += 1
        if why:
            bad += 1
            print("FAIL %s: %s" % (name, why))
        else:
            print("ok %s" % name)
    if n < 50:
        fail("only %d golden cases" % n)
    if bad:
        sys.exit(1)


def main(a):
    if a[0] == "top":
        cmd_top(int(a[1]), a[2], a[3], a[4], a[5] if len(a) > 5 else "")
    elif a[0] == "topb":
        cmd_topb(int(a[1]), a[2], a[3])
    elif a[0] == "json":
        top = None
        if "top" in a:
            top = int(a[a.index("top") + 1])
            a = a[:a.index("top")]
        cmd_json(a[1], a[2], a[3] if len(a) > 3 else None, top)
    elif a[0] == "gmoninfo":
        cmd_gmoninfo(a[1], a[2])
    elif a[0] == "golden":
        cmd_golden(a[1])
    elif a[0] == "names":
        cmd_names(a[1], a[2])
    elif a[0] == "watch":
        js = a[-1] == "json"
        cmd_watch(a[1], int(a[2]), a[3:-1] if js else a[3:], js)
    else:
        fail("unknown check %r" % a[0])


main(sys.argv[1:])
