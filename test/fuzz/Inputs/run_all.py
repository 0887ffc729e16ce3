"""Runs a tool on every file of a directory; fails if any run crashes.

usage: run_all.py TOOL DIR. A run passes when it exits 0, or exits 1 with
`error:` on stderr.
"""
import os
import subprocess
import sys

tool, folder = sys.argv[1], sys.argv[2]
crashes = 0
names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
for name in names:
    path = os.path.join(folder, name)
    r = subprocess.run([tool, path], capture_output=True)
    if not (r.returncode == 0 or (r.returncode == 1 and b"error:" in r.stderr)):
        crashes += 1
        sys.stderr.write("CRASH rc=%d on %s\n%s\n" % (r.returncode, name, r.stderr[-2000:].decode("utf-8", "replace")))
print("regressions: %d inputs, %d crashes" % (len(names), crashes))
sys.exit(1 if crashes else 0)
