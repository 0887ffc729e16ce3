// RUN: coro-translate --route=llvm %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: coro-translate --route=llvm %s --emit=split-llvm | FileCheck %s --check-prefix=SPLIT
// RUN: coro-translate --route=llvm %s --emit=obj -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ

// --emit=llvm: the translated module, coroutine still unsplit.
// LLVM: define ptr @gen() #[[A:[0-9]+]]
// LLVM: call token @llvm.coro.id(
// LLVM: call i8 @llvm.coro.suspend(
// LLVM: call void @llvm.coro.end(
// LLVM: attributes #[[A]] = { presplitcoroutine }

// --emit=split-llvm at -O0: LLVM's coroutine passes split it.
// SPLIT-LABEL: define ptr @gen()
// SPLIT-NOT: llvm.coro.suspend
// SPLIT: define internal {{.*}}void @gen.resume(ptr
// SPLIT: define internal {{.*}}void @gen.destroy(ptr

// --emit=obj: a host object file with the ramp and the split parts.
// OBJ-DAG: T gen
// OBJ-DAG: t gen.resume
// OBJ-DAG: t gen.destroy
func.func @gen() -> !coro.handle<i8> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i8>
  %c = arith.constant 1 : i8
  "coro.yield"(%c) : (i8) -> i1
  "coro.end"(%h) : (!coro.handle<i8>) -> ()
  return %h : !coro.handle<i8>
}
