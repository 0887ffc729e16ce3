// --verify-diagnostics does not count MLIR's "see current operation" note
// (mlir-opt turns it off in this mode): an expected error needs no
// annotation for the note. An annotation that names it still matches.
// RUN: coro-opt --split-input-file --verify-diagnostics %s
// The same with the note off altogether, but for the chunk that names it.
// RUN: not coro-opt --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false %s 2>&1 | FileCheck %s
// CHECK: verify-diagnostics-op-note.mlir:[[# @LINE + 20]]:6: error: expected note "see current operation" was not produced
// CHECK-NOT: error:

func.func @f(%x: i32) {
  // expected-error@+1 {{expected base type 'coro.handle' but got 'builtin.integer'}}
  %0 = "coro.done"(%x) : (i32) -> i1
  return
}

// -----

func.func @g(%x: i32) {
  %0 = "coro.done"(%x) : (i32) -> i1 // expected-error {{expected base type}}
  return
}

// -----

func.func @h(%x: i32) {
  // expected-error@+2 {{expected base type}}
  // expected-note@+1 {{see current operation}}
  %0 = "coro.done"(%x) : (i32) -> i1
  return
}
