"""halve.py IN OUT - a GNU gmon.out with every histogram bin halved: an
earlier snapshot of the same run, for --baseline."""
import struct
import sys

d = bytearray(open(sys.argv[1], "rb").read())
if d[:4] != b"gmon":
    sys.exit("not a GNU gmon.out")
e = ">" if d[4:8] == b"\0\0\0\1" else "<"
# the pointer size: the one under which the first histogram record fits
for ptr in (8, 4):
    low, high = struct.unpack(e + ("QQ" if ptr == 8 else "II"),
                              d[21:21 + 2 * ptr])
    n = struct.unpack(e + "I", d[21 + 2 * ptr:25 + 2 * ptr])[0]
    if 0 < n and low < high and 21 + 2 * ptr + 24 + 2 * n <= len(d):
        break
i = 20
while i < len(d):
    tag = d[i]
    i += 1
    if tag == 0:
        n = struct.unpack(e + "I", d[i + 2 * ptr:i + 2 * ptr + 4])[0]
        i += 2 * ptr + 24
        for k in range(n):
            v = struct.unpack(e + "H", d[i + 2 * k:i + 2 * k + 2])[0]
            d[i + 2 * k:i + 2 * k + 2] = struct.pack(e + "H", v // 2)
        i += 2 * n
    elif tag == 1:
        i += 2 * ptr + 4
    else:
        sys.exit("record tag %d" % tag)
open(sys.argv[2], "wb").write(d)
