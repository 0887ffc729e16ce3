"""Writes large or deeply nested inputs for the coro-opt tests to stdout.

usage: gen.py KIND N
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
out = sys.stdout
if kind == "regions":  # N regions nested in generic form
    out.write('"test.op"() ({\n' * n + "}) : () -> ()\n" * n)
elif kind == "braces":  # N nested '{'
    out.write("{" * n + "\n")
elif kind == "types":  # tuple<tuple<...>> N deep
    out.write('"test.op"() : () -> (' + "tuple<" * n + "i32" + ">" * n + ")\n")
elif kind == "attrs":  # [[[...]]] N deep
    out.write('"test.op"() {a = ' + "[" * n + "1" + "]" * n + "} : () -> ()\n")
elif kind == "locs":  # callsite(...) N deep
    loc = '"f":1:1'
    out.write('"test.op"() : () -> () loc(' + "callsite(" * n + loc + (" at " + loc + ")") * n + ")\n")
elif kind == "aliases":  # each alias wraps the previous one
    out.write("#a0 = [1]\n")
    for i in range(1, n):
        out.write("#a%d = [#a%d]\n" % (i, i - 1))
    out.write('"test.op"() {x = #a%d} : () -> ()\n' % (n - 1))
elif kind == "sum":  # d0 + d0 + ... (the affine parser recurses per term)
    out.write("#m = affine_map<(d0) -> (" + " + ".join(["d0"] * n) + ")>\n")
    out.write('"test.op"() {m = #m} : () -> ()\n')
elif kind == "negs":  # - - - d0
    out.write("#m = affine_map<(d0) -> (" + "- " * n + "d0)>\n")
    out.write('"test.op"() {m = #m} : () -> ()\n')
elif kind == "funcs":  # N functions
    for i in range(n):
        out.write(
            "func.func @f%d(%%a: i32) -> i32 {\n"
            "  %%c = arith.constant -1 : i32\n"
            "  %%0 = arith.addi %%a, %%c : i32\n"
            "  return %%0 : i32\n}\n" % i
        )
else:
    sys.exit("unknown kind " + kind)
