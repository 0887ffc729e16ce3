// Appended to helper-kernel.mlir without its kernel: pair(0) ... pair(5)
// on the CPU, the values the kernel's threads 0 to 5 compute.
func.func @main() -> (i64, i64, i64, i64, i64, i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %p0 = call @pair(%c0) : (i64) -> i64
  %p1 = call @pair(%c1) : (i64) -> i64
  %p2 = call @pair(%c2) : (i64) -> i64
  %p3 = call @pair(%c3) : (i64) -> i64
  %p4 = call @pair(%c4) : (i64) -> i64
  %p5 = call @pair(%c5) : (i64) -> i64
  return %p0, %p1, %p2, %p3, %p4, %p5 : i64, i64, i64, i64, i64, i64
}
