#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write bad inputs for run-tests.sh: each OUT/<name> is a snapshot
directory or file that must give a clear error or a correct partial
result, never a crash or a hang.  Deterministic (fixed seed)."""
import os
import random
import shutil
import sys

out, fix, real = sys.argv[1], sys.argv[2], sys.argv[3]
rnd = random.Random(5)
hm = os.path.join(fix, "handmade", "prove")


def d(name, files):
    p = os.path.join(out, name)
    os.makedirs(p, exist_ok=True)
    for f, data in files.items():
        with open(os.path.join(p, f), "wb") as fh:
            fh.write(data)


def rd(*p):
    with open(os.path.join(*p), "rb") as fh:
        return fh.read()


src = real if os.path.exists(real) else hm
lockdep, chains, lstat = rd(src, "lockdep"), rd(src, "lockdep_chains"), rd(src, "lock_stat")
d("binary", {"lockdep": bytes(rnd.getrandbits(8) for _ in range(200000))})
d("binary-lockstat", {"lockdep": rd(hm, "lockdep"),
                      "lock_stat": bytes(rnd.getrandbits(8) for _ in range(50000))})
d("empty", {"lockdep": b""})
d("empty-dir", {})
for i, frac in enumerate((0.01, 0.37, 0.5, 0.93)):
    d("cut-lockdep-%d" % i, {"lockdep": lockdep[:int(len(lockdep) * frac)]})
    d("cut-chains-%d" % i, {"lockdep": lockdep,
                            "lockdep_chains": chains[:int(len(chains) * frac)]})
    d("cut-lockstat-%d" % i, {"lockdep": lockdep,
                              "lock_stat": lstat[:int(len(lstat) * frac)]})
big = b"x" * (10 << 20)
d("tenmb-name", {"lockdep": b"all lock classes:\n0000000000000001: " + big + b"\n"})
d("tenmb-garbage", {"lockdep": b"all lock classes:\n" + big + b"\n"})
d("tenmb-lockstat", {"lockdep": rd(hm, "lockdep"),
                     "lock_stat": rd(hm, "lock_stat")[:1200] + big + b"\n"})
d("control-chars", {"lockdep": b"all lock classes:\n"
                    b"0000000000000001 FD:    1 BD:    1 ....: \x1b]0;pwned\x07\x9b\r\n\n"
                    b"0000000000000002 FD:    1 BD:    1 ....: \xc3\x28 bad utf8 \"q\" #1/2\n\n"})
d("nul-bytes", {"lockdep": b"all lock classes:\n0000000000000001: a\0b\n"})
d("dangling-dep", {"lockdep": b"all lock classes:\n"
                   b"0000000000000001 FD:    2 BD:    1 ....: a\n"
                   b" -> [0000000000000009] nowhere\n\n"})
d("chains-only", {"lockdep_chains": chains})
d("lockstat-only", {"lock_stat": lstat})
d("stats-garbage", {"lockdep": rd(hm, "lockdep"),
                    "lockdep_stats": b" lock-classes: 99999999999999999999999\n"})
d("export-garbage", {"lockdep": b"", "classes": b"# lockdep classes 1 generation 1\n#\n"
                     + bytes(rnd.getrandbits(8) for _ in range(5000))})
d("export-huge-ids", {"classes": b"# lockdep classes 1 generation 1\n#\n"
                      b"4294967295 k 1 0 0x0 - 0 0 0 - 0 0 a\n"
                      b"# end generation 1\n",
                      "chains": b"# lockdep chains 1 generation 1\n#\n"
                      b"0 0x1 0 1000 4294967295:0\n# end generation 1\n"})
# snapshot files: a good one cut short, and garbage after the magic
snap = os.path.join(out, "snap-cut.snap")
good = (b"lockdep-tool snapshot 1\nrelease -\ncaptured -\norigin x\n"
        b"section lockdep %d x\n" % len(lockdep) + lockdep + b"\nend\n")
with open(snap, "wb") as fh:
    fh.write(good[:len(good) // 2])
with open(os.path.join(out, "snap-garbage.snap"), "wb") as fh:
    fh.write(b"lockdep-tool snapshot 1\n" + bytes(rnd.getrandbits(8) for _ in range(9999)))
with open(os.path.join(out, "snap-size-lies.snap"), "wb") as fh:
    fh.write(good.replace(b"section lockdep %d" % len(lockdep),
                          b"section lockdep 99999999999999"))
