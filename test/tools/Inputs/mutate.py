"""Runs coro-opt on mutated copies of a file and fails if any run crashes.

usage: mutate.py CORO_OPT FILE COUNT SEED [MODE]
MODE: flip (change a few bytes, default), truncate (every prefix length up
to COUNT, spread over the file), random (COUNT files of random bytes with
the file's first 4 bytes kept). A run passes when it exits 0, or exits 1
with an `error:` on stderr. Prints one line per mode with the tally.
"""
import random
import subprocess
import sys
import tempfile
import os

tool, path, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
mode = sys.argv[5] if len(sys.argv) > 5 else "flip"
data = open(path, "rb").read()
rng = random.Random(seed)


def variants():
    for i in range(count):
        if mode == "flip":
            d = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                d[rng.randrange(4, len(d))] = rng.randrange(256)
            yield bytes(d)
        elif mode == "truncate":
            yield data[: (len(data) * i) // count]
        else:
            yield data[:4] + bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))


failures = 0
ok = errors = 0
with tempfile.TemporaryDirectory() as tmp:
    for i, d in enumerate(variants()):
        f = os.path.join(tmp, "in-%d" % i)
        open(f, "wb").write(d)
        r = subprocess.run([tool, f], capture_output=True)
        if r.returncode == 0:
            ok += 1
        elif r.returncode == 1 and b"error:" in r.stderr:
            errors += 1
        else:
            failures += 1
            kept = path + ".crash-%d" % i
            sys.stderr.write("CRASH rc=%d on variant %d\n%s\n" % (r.returncode, i, r.stderr[-2000:].decode("utf-8", "replace")))
print("%s: %d ok, %d errors, %d crashes" % (mode, ok, errors, failures))
sys.exit(1 if failures else 0)
