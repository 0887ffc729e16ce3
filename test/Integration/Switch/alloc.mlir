// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s --check-prefix=ELIDED
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=ELIDED
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=ELIDED
// RUN: coro-run --route=mlir-split --no-elide %s | FileCheck %s
// RUN: coro-run --route=mlir-split --no-elide -O2 %s | FileCheck %s

// coro.alloc_fn / coro.free_fn: every frame comes from @count_alloc and goes
// back through @count_free, which count their calls in globals. Three
// generators are created and destroyed (one finished, one suspended, one
// never resumed): 10 * allocations + frees = 33. The sum of the values
// pulled (0 + 1 + 0) is added times 100.
// CHECK: 133
// At -O2 LLVM inlines the split ramps into main and CoroElide puts all
// three frames on main's stack (each handle is destroyed there): the
// allocator is never called, and the values are unchanged. Route B
// (--route=mlir-split) decides itself, at every -O level: --coro-elide
// proves each handle stays in main and is destroyed there, so the three
// frames are allocas of main and the allocator is never called either.
// With --no-elide, route B keeps them with the allocator (LLVM's CoroElide
// finds nothing left to elide after coro's split).
// ELIDED: 100
llvm.mlir.global internal @allocs(0 : i64) : i64
llvm.mlir.global internal @frees(0 : i64) : i64
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

func.func @count_alloc(%size: i64) -> !llvm.ptr {
  %g = llvm.mlir.addressof @allocs : !llvm.ptr
  %n = llvm.load %g : !llvm.ptr -> i64
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  llvm.store %n1, %g : i64, !llvm.ptr
  %p = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  return %p : !llvm.ptr
}

func.func @count_free(%p: !llvm.ptr) {
  %g = llvm.mlir.addressof @frees : !llvm.ptr
  %n = llvm.load %g : !llvm.ptr -> i64
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  llvm.store %n1, %g : i64, !llvm.ptr
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  return
}

func.func @two() -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  "coro.yield"(%c0) : (i64) -> i1
  "coro.yield"(%c1) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> i64 {
  %a = call @two() : () -> !coro.handle<i64>
  %a0 = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  "coro.resume"(%a) : (!coro.handle<i64>) -> ()
  %a1 = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  "coro.resume"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %b = call @two() : () -> !coro.handle<i64>
  "coro.resume"(%b) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %c = call @two() : () -> !coro.handle<i64>
  %c0v = "coro.promise"(%c) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%c) : (!coro.handle<i64>) -> ()
  %ga = llvm.mlir.addressof @allocs : !llvm.ptr
  %gf = llvm.mlir.addressof @frees : !llvm.ptr
  %na = llvm.load %ga : !llvm.ptr -> i64
  %nf = llvm.load %gf : !llvm.ptr -> i64
  %c10 = arith.constant 10 : i64
  %c100 = arith.constant 100 : i64
  %x = arith.muli %na, %c10 : i64
  %y = arith.addi %x, %nf : i64
  %s1 = arith.addi %a0, %a1 : i64
  %s2 = arith.addi %s1, %c0v : i64
  %s3 = arith.muli %s2, %c100 : i64
  %r = arith.addi %y, %s3 : i64
  return %r : i64
}
