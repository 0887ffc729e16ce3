"""Runs every tool command the user-facing pages show that can run here.

A page shows a command as an indented line of a code block that starts
with `build/bin/`, or with the name of one of coro's tools (`coro-opt`,
`coro-run`, `coro-translate`: the build's) or of upstream's `mlir-opt-22`
and `mlir-translate-22` (a line ending in a backslash continues it). Each such
command runs in a scratch directory, with `build/` meaning the build
directory and every argument naming a file of the repository
(`examples/generator.mlir`) taken from the repository. A command whose
arguments name files the page only stands for (`prog.mlir`, `x.bc`) is
skipped, and counted. A command is expected to succeed, unless its
comment says it reports an error; a comment ending in `: N` (a number)
is what the command prints, and is checked.

usage: doc-commands.py SOURCE_ROOT BUILD_DIR SCRATCH PAGE...
Prints one line per command and a last line "N passed, N failed, N
skipped"; exits 1 when a command failed.
"""
import os
import re
import shlex
import subprocess
import sys

FILE_SUFFIXES = (".mlir", ".ll", ".bc", ".cpp", ".o", ".ptx", ".mlirbc")


def commands(page):
    """(line number, command text, comment) of each command of `page`."""
    out = []
    lines = open(page, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"    (build/bin/|(coro-(opt|run|translate)|"
                    r"mlir-(opt|translate)-22) )", line):
            start = i
            text = line.strip()
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1] + " " + lines[i].strip()
            comment = ""
            if " #" in text:
                text, comment = text.split(" #", 1)
            out.append((start + 1, text.strip(), comment.strip()))
        i += 1
    return out


def main():
    src, build, scratch = sys.argv[1:4]
    passed = failed = skipped = 0
    os.makedirs(scratch, exist_ok=True)
    for page in sys.argv[4:]:
        rel = os.path.relpath(page, src)
        for line, text, comment in commands(page):
            words = shlex.split(text)
            runnable = True
            if words[0] in ("coro-opt", "coro-run", "coro-translate"):
                words[0] = os.path.join(build, "bin", words[0])
            for k, w in enumerate(words):
                if "=build/" in w:
                    words[k] = w.replace("=build/", "=" + build + "/")
                elif w.startswith("build/"):
                    words[k] = os.path.join(build, w[len("build/"):])
                elif w.endswith(FILE_SUFFIXES) and not w.startswith("-"):
                    path = os.path.join(src, w)
                    if os.path.exists(path):
                        words[k] = path
                    elif k == 0 or words[k - 1] != "-o":
                        runnable = False
            where = "%s:%d: %s" % (rel, line, text)
            if not runnable:
                skipped += 1
                print("SKIP %s (names a file the page stands for)" % where)
                continue
            run = subprocess.run(words, cwd=scratch, capture_output=True,
                                 text=True, timeout=300)
            want_error = "error" in comment.lower()
            ok = (run.returncode != 0) if want_error else (run.returncode == 0)
            shown = re.search(r":\s*(-?\d+)\s*$", comment)
            if ok and shown and not want_error:
                ok = shown.group(1) in run.stdout.split()
            if ok:
                passed += 1
                print("PASS %s" % where)
            else:
                failed += 1
                print("FAIL %s (exit %d)\n%s%s" % (where, run.returncode,
                                                   run.stdout[-2000:],
                                                   run.stderr[-2000:]))
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
