#!/usr/bin/env python3
"""gen.py - large maps and profiles for the two-thread report (tests/par).

    gen.py CASE SEED DIR    writes DIR/map and DIR/profile

The map is a few megabytes (the report is cut into parts of 256 KiB once
ticks are seen), with what CASE puts in it: lines the report passes over,
lines that end it, errors, long lines, at places drawn from SEED.  The
profile is native byte order, one counter in five non-zero.
"""
import random
import struct
import sys

ORIGIN = 0xffffffff81000000
LETTERS = "abcdefghijklmnopqrstuvwxyz_0123456789"

# case -> does util-linux handle it in a well-defined way (short lines,
# symbols inside the profile, no error)?
CASES = {
    "plain": True, "initend": True, "abs-end": True, "data-end": True,
    "etext-mid": True, "zero-start": True, "tabs": True, "noeol": True,
    "aliases": True,
    "bad-line": False, "bad-after-etext": False, "backwards": False,
    "long-lines": False, "too-long": False, "beyond": False, "nul": False,
}


def name(rng, lo=6, hi=40):
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(lo, hi)))


def main():
    case, seed, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if case not in CASES:
        sys.exit("gen.py: unknown case " + case)
    rng = random.Random(seed * 1000 + sorted(CASES).index(case))
    step = rng.choice([2, 4, 8, 16])
    nsym = rng.randint(30000, 50000)
    lines = []          # (address, type, name) or raw text
    addr = ORIGIN
    lines.append((addr, "T", "_stext"))
    for i in range(nsym):
        gap = 0 if rng.random() < 0.02 else rng.randint(1, 40 * step)
        if case == "aliases" and rng.random() < 0.3:
            gap = 0
        addr += gap
        lines.append((addr, rng.choice("TtW"), name(rng)))
    text_end = addr + rng.randint(1, 40 * step)
    ncount = (text_end - ORIGIN) // step
    etext = (text_end, "T", "_etext")
    tail = [(text_end + 16 * i, rng.choice("dDbBrR"), name(rng))
            for i in range(1, 200)]
    at = lambda f: 1 + int(f * nsym)

    if case == "initend":
        for i in sorted(rng.sample(range(2, nsym), nsym // 20), reverse=True):
            lines.insert(i, (lines[i - 1][0], "A", "__init_end"))
    elif case == "abs-end":
        i = at(rng.uniform(0.4, 0.9))
        lines.insert(i, (lines[i - 1][0], "A", "some_abs_symbol"))
    elif case == "data-end":
        i = at(rng.uniform(0.4, 0.9))
        lines.insert(i, (lines[i - 1][0], "d", "some_data"))
    elif case == "etext-mid":
        i = at(rng.uniform(0.4, 0.9))
        lines.insert(i, (lines[i - 1][0], "T", "_etext"))
    elif case == "bad-line":
        lines.insert(at(rng.uniform(0.3, 0.95)), "this is not a map line")
    elif case == "bad-after-etext":
        tail.insert(50, "this is not a map line either")
    elif case == "backwards":
        i = at(rng.uniform(0.3, 0.95))
        lines.insert(i, (lines[i - 1][0] - 64, "T", "goes_back"))
    elif case == "long-lines":
        for f in (0.3, 0.5):        # longer than the look back, and a part
            i = at(f)
            lines.insert(i, (lines[i - 1][0], "T", name(rng, 5000, 9000)))
        i = at(0.7)
        lines.insert(i, (lines[i - 1][0], "T", name(rng, 300000, 300001)))
    elif case == "too-long":
        i = at(rng.uniform(0.3, 0.9))
        lines.insert(i, (lines[i - 1][0], "T", "x" * (1 << 20)))
    elif case == "beyond":
        ncount = ncount * rng.randint(4, 8) // 10
    elif case == "nul":
        i = at(rng.uniform(0.3, 0.9))
        lines.insert(i, "%016x T with\0nul" % lines[i - 1][0])
    if case != "noeol":     # the map ends in a text line, unended
        lines.append(etext)
        lines += tail

    counts = [0] * ncount
    zero_to = int(ncount * rng.uniform(0.3, 0.6)) if case == "zero-start" else 0
    for k in range(zero_to, ncount):
        if rng.random() < 0.2:
            counts[k] = rng.randint(1, 999)
    if case == "zero-start":   # absolute lines there are passed over
        for f in (0.05, 0.1, 0.2):
            i = at(f)
            lines.insert(i, (lines[i - 1][0], "A", "early_abs"))

    with open(out + "/profile", "wb") as f:
        f.write(struct.pack("=I", step))
        f.write(struct.pack("=%dI" % ncount, *counts))
    parts = []
    for ln in lines:
        if isinstance(ln, str):
            parts.append(ln + "\n")
        elif case == "tabs" and rng.random() < 0.2:
            parts.append("%016x\t%s\t%s\n" % ln)
        else:
            parts.append("%016x %s %s\n" % ln)
    text = "".join(parts)
    if case == "noeol":
        text = text[:-1]
    with open(out + "/map", "wb") as f:
        f.write(text.encode("latin-1"))
    print("oracle" if CASES[case] else "no-oracle")


if __name__ == "__main__":
    main()
