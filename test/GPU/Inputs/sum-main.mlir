// Appended to generator-kernel.mlir without its kernel: sum(0) ... sum(7)
// on the CPU, the values the kernel's threads 0 to 7 compute.
func.func @main() -> (i64, i64, i64, i64, i64, i64, i64, i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %c6 = arith.constant 6 : i64
  %c7 = arith.constant 7 : i64
  %s0 = call @sum(%c0) : (i64) -> i64
  %s1 = call @sum(%c1) : (i64) -> i64
  %s2 = call @sum(%c2) : (i64) -> i64
  %s3 = call @sum(%c3) : (i64) -> i64
  %s4 = call @sum(%c4) : (i64) -> i64
  %s5 = call @sum(%c5) : (i64) -> i64
  %s6 = call @sum(%c6) : (i64) -> i64
  %s7 = call @sum(%c7) : (i64) -> i64
  return %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : i64, i64, i64, i64, i64, i64, i64, i64
}
