// --dump-pass-pipeline prints, on stderr, the pipeline that will run (the
// load-time coro-verify first, unless the pipeline starts with it), one
// element a line as mlir-opt does, and then runs it.
// RUN: coro-opt %s --cse --canonicalize=max-iterations=3 --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s
// CHECK: Pass Manager with 3 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   coro-verify,
// CHECK-NEXT:   cse,
// CHECK-NEXT:   canonicalize{{{.*}}max-iterations=3{{.*}}}
// CHECK-NEXT: )

// RUN: coro-opt %s --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED
// NESTED: Pass Manager with 3 passes:
// NESTED-NEXT: builtin.module(
// NESTED-NEXT:   coro-verify,
// NESTED-NEXT:   func.func(
// NESTED-NEXT:     cse
// NESTED-NEXT:   ),
// NESTED-NEXT:   symbol-dce
// NESTED-NEXT: )

// A pipeline that starts with coro-verify (the coro-lower pipelines do)
// verifies the input itself: the load-time one is not run as well.
// RUN: coro-opt %s --coro-lower --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWER
// RUN: coro-opt %s --coro-verify --cse --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=ONCE
// LOWER: builtin.module(
// LOWER-NEXT:   coro-verify,
// LOWER-NEXT:   coro-regions-to-cf,
// ONCE: Pass Manager with 2 passes:
// ONCE-NEXT: builtin.module(
// ONCE-NEXT:   coro-verify,
// ONCE-NEXT:   cse
// ONCE-NEXT: )

// The output is the same as without the flag.
// RUN: coro-opt %s --cse --dump-pass-pipeline 2>/dev/null | FileCheck %s --check-prefix=OUT
// OUT: func.func @f
// RUN: coro-opt %s --cse 2>&1 | FileCheck %s --check-prefix=NODUMP
// NODUMP-NOT: Pass Manager

func.func @f() {
  return
}
