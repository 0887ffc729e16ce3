// MLIR's printer verifies an op before printing it in its custom form. The
// verifier after each pass (--verify-each, the default) has verified the
// output already, so coro-opt prints it without a second look; with
// --verify-each=false the printer verifies, unless
// --mlir-print-assume-verified (mlir-opt's flag) says not to. The output is
// the same every way.
// RUN: coro-opt %s --coro-lower-switch > %t.default.mlir
// RUN: coro-opt %s --coro-lower-switch --verify-each=false > %t.printer.mlir
// RUN: coro-opt %s --coro-lower-switch --verify-each=false --mlir-print-assume-verified > %t.assumed.mlir
// RUN: diff %t.default.mlir %t.printer.mlir
// RUN: diff %t.default.mlir %t.assumed.mlir
// RUN: FileCheck %s < %t.assumed.mlir
// RUN: coro-opt --help | FileCheck %s --check-prefix=HELP
// CHECK-LABEL: llvm.func @gen(
// CHECK: llvm.intr.coro.suspend
// HELP: --mlir-print-assume-verified{{ +}}Print the output without verifying it first

func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
