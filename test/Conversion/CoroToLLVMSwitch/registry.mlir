// RUN: coro-opt %s --pass-pipeline='builtin.module(convert-coro-to-llvm-switch)' | FileCheck %s --check-prefix=PASS
// RUN: coro-opt %s --pass-pipeline='builtin.module(coro-lower-switch)' | FileCheck %s --check-prefix=PIPE
// RUN: coro-opt --help | FileCheck %s --check-prefix=HELP

// The conversion and the named pipeline are in MLIR's registry: textual
// pipelines name them, and --help lists them.
// PASS-LABEL: func.func @g
// PASS: llvm.intr.coro.begin
// PIPE-LABEL: llvm.func @g
// PIPE: llvm.intr.coro.begin
// HELP-DAG: --convert-coro-to-llvm-switch
// HELP-DAG: --coro-lower-switch
func.func @g() -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
