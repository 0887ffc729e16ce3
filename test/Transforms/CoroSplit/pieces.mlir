// RUN: %python %S/Inputs/abis-gen.py 160 > %t.mlir
// RUN: coro-opt %t.mlir --coro-lower --coro-split > %t.threads.mlir
// RUN: coro-opt %t.mlir --coro-lower --coro-split --mlir-disable-threading > %t.one.mlir
// RUN: diff %t.threads.mlir %t.one.mlir
// RUN: FileCheck %s < %t.threads.mlir
// RUN: coro-run %t.mlir --route=mlir-split > %t.out
// RUN: head -n 1 %t.mlir | sed -e 's|// expected: ||' | diff - %t.out
// RUN: %python %S/Inputs/abis-gen.py 300 --bad-promises > %t.bad.mlir
// RUN: not coro-opt %t.bad.mlir --coro-split -o /dev/null 2> %t.bad.err
// RUN: FileCheck %s --check-prefix=BAD < %t.bad.err
// RUN: grep -c 'error:' %t.bad.err | FileCheck %s --check-prefix=COUNT
// REQUIRES: threads

// A module of 1,144 functions of every ABI, in pieces on MLIR's threads:
// each conversion gathers its ops and the functions that mention a handle
// in pieces, and retypes those in pieces; --coro-split finds the elided
// calls, scans for what the splits leave, numbers retcon continuations
// and lowers the consumers in pieces. The output is the one the same
// passes give on one thread, byte for byte, and the program (generators
// of each ABI with their drivers, chains of three ABIs awaiting each
// other, consumers of handles of unknown origin, coro.noop) returns what
// its first line says. Errors that consumers' lowering reports in
// functions of several pieces come in module order, one per function.

// CHECK-NOT: unrealized_conversion_cast
// CHECK-NOT: presplitcoroutine
// CHECK: llvm.func @drive0(
// CHECK: llvm.call @gen0.elided(
// CHECK: llvm.call fastcc @gen0.resume(
// CHECK: llvm.call fastcc @gen0.cleanup(
// CHECK: llvm.func @drop159(
// CHECK: llvm.mlir.global internal constant @__coro_noop_frame(

// BAD: bad.mlir:4:8: error: llvm.coro.promise needs a constant alignment
// BAD: bad.mlir:9:8: error: llvm.coro.promise
// BAD: bad.mlir:749:8: error: llvm.coro.promise
// BAD: bad.mlir:1499:8: error: llvm.coro.promise
// BAD-NOT: error:
// COUNT: {{^300$}}
