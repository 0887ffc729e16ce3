// Appended to retcon-arena-frame.mlir without its kernel: run(0) ... run(3)
// on the CPU, the values the kernel's threads 0 to 3 compute.
func.func @main() -> (i64, i64, i64, i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %r0 = call @run(%c0) : (i64) -> i64
  %r1 = call @run(%c1) : (i64) -> i64
  %r2 = call @run(%c2) : (i64) -> i64
  %r3 = call @run(%c3) : (i64) -> i64
  return %r0, %r1, %r2, %r3 : i64, i64, i64, i64
}
