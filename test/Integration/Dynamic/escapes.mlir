// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: sed 's/coro.abi = "switch"/coro.abi = "retcon"/' %s > %t.retcon.mlir
// RUN: coro-run --route=mlir-split %t.retcon.mlir | FileCheck %s
// RUN: not coro-run --route=llvm %s 2>&1 | FileCheck %s --check-prefix=ROUTEA
// RUN: not coro-translate --route=llvm %s --emit=obj -O2 -o %t.o 2>&1 | FileCheck %s --check-prefix=ROUTEA
// RUN: not test -f %t.o

// A dynamically sized alloca whose address escapes as an integer
// (llvm.ptrtoint) before a suspension and comes back (llvm.inttoptr) after
// it: route B gives it heap memory the frame owns, so the store after the
// suspension lands in it and the load reads it back; route A (LLVM's
// CoroSplit keeps an escaped alloca in the frame, and aborted with its
// unlocated "Coroutines cannot handle non static allocas yet") is a
// located error at the alloca, naming the escape.
// CHECK: {{^}}3{{$}}
// CHECK-NEXT: {{^}}42{{$}}
// ROUTEA: escapes.mlir:[[#@LINE+9]]:8: error: 'llvm.alloca' op allocates a dynamically sized stack buffer whose address escapes ('llvm.ptrtoint' (line [[#@LINE+10]], column 8)); LLVM's CoroSplit (route A) keeps it in the frame
// ROUTEA-NOT: non static

func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %zp = llvm.mlir.addressof @zero : !llvm.ptr
  %z = llvm.load %zp : !llvm.ptr -> i64
  %cnt = arith.addi %n, %z : i64
  %a = llvm.alloca %cnt x i64 : (i64) -> !llvm.ptr
  %p = llvm.ptrtoint %a : !llvm.ptr to i64
  %r = "coro.yield"(%n) : (i64) -> i1
  cf.cond_br %r, ^end, ^more
^more:
  %c42 = arith.constant 42 : i64
  %q = llvm.inttoptr %p : i64 to !llvm.ptr
  llvm.store %c42, %q : i64, !llvm.ptr
  %v = llvm.load %a : !llvm.ptr -> i64
  %r2 = "coro.yield"(%v) : (i64) -> i1
  cf.br ^end
^end:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

llvm.mlir.global internal @zero(0 : i64) : i64

func.func @main() -> (i64, i64) {
  %c3 = arith.constant 3 : i64
  %g = call @gen(%c3) : (i64) -> !coro.handle<i64>
  %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %a, %b : i64, i64
}
