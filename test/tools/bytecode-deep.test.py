"""A function whose body nests N scf.execute_region ops (bytecode-deep.test)."""
import sys

n = int(sys.argv[1])
body = "scf.yield"
for _ in range(n):
    body = "scf.execute_region {\n" + body + "\n}\nscf.yield"
body = body[: -len("\nscf.yield")]
print("func.func @f() {\n" + body + "\nreturn\n}")
