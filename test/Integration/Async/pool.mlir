// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run --route=mlir-split %s -O2 | FileCheck %s
// RUN: sed 's/coro.abi = "async"/coro.abi = "switch"/' %s > %t.switch.mlir
// RUN: coro-run --route=llvm %t.switch.mlir | FileCheck %s

// Tasks resumed on coro's thread pool: eight @work tasks park at once;
// main submits them to a pool of four workers and waits. Each task, on
// whatever worker resumes it, sums 1..1000*(i+1) into its own slot and
// parks again; main submits them all a second time and waits: each adds 1
// and ends. (A task is submitted only while it is parked: one that submits
// itself before it parks could be resumed by another worker first.) main
// sees 16 resumptions, every task done, and the sum of the slots: the sum
// over i of n(n+1)/2 + 1 with n = 1000*(i+1).
// CHECK: {{^}}16{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}102018008{{$}}
func.func private @coro_rt_pool_create(i64) -> !llvm.ptr
func.func private @coro_rt_pool_destroy(!llvm.ptr)
func.func private @coro_rt_pool_submit(!llvm.ptr, !coro.handle<none>) -> i32
func.func private @coro_rt_pool_wait(!llvm.ptr) -> i64

func.func @work(%pool: !llvm.ptr, %out: memref<8xi64>, %i: index) -> !coro.handle<none> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.yield"() : () -> i1
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %k = arith.constant 1000 : i64
  %ii = arith.index_cast %i : index to i64
  %i1 = arith.addi %ii, %c1 : i64
  %n = arith.muli %i1, %k : i64
  %s = scf.for %j = %c1 to %n step %c1 iter_args(%acc = %n) -> (i64) : i64 {
    %a = arith.addi %acc, %j : i64
    scf.yield %a : i64
  }
  memref.store %s, %out[%i] : memref<8xi64>
  "coro.yield"() : () -> i1
  %t = memref.load %out[%i] : memref<8xi64>
  %t1 = arith.addi %t, %c1 : i64
  memref.store %t1, %out[%i] : memref<8xi64>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

func.func @main() -> (i64, i1, i64) {
  %out = memref.alloca() : memref<8xi64>
  %c4 = arith.constant 4 : i64
  %pool = call @coro_rt_pool_create(%c4) : (i64) -> !llvm.ptr
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n8 = arith.constant 8 : i64
  %hs = llvm.alloca %n8 x !llvm.ptr : (i64) -> !llvm.ptr
  scf.for %i = %c0 to %c8 step %c1 {
    %t = func.call @work(%pool, %out, %i) : (!llvm.ptr, memref<8xi64>, index) -> !coro.handle<none>
    %p = builtin.unrealized_conversion_cast %t : !coro.handle<none> to !llvm.ptr
    %ii = arith.index_cast %i : index to i64
    %slot = llvm.getelementptr %hs[%ii] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
    llvm.store %p, %slot : !llvm.ptr, !llvm.ptr
  }
  %c2 = arith.constant 2 : index
  scf.for %round = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %slot = llvm.getelementptr %hs[%ii] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
      %p = llvm.load %slot : !llvm.ptr -> !llvm.ptr
      %t = builtin.unrealized_conversion_cast %p : !llvm.ptr to !coro.handle<none>
      %ok = func.call @coro_rt_pool_submit(%pool, %t) : (!llvm.ptr, !coro.handle<none>) -> i32
    }
    %w = func.call @coro_rt_pool_wait(%pool) : (!llvm.ptr) -> i64
  }
  %resumed = call @coro_rt_pool_wait(%pool) : (!llvm.ptr) -> i64
  %true = arith.constant true
  %z = arith.constant 0 : i64
  %all, %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %true, %s = %z) -> (i1, i64) {
    %ii = arith.index_cast %i : index to i64
    %slot = llvm.getelementptr %hs[%ii] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
    %p = llvm.load %slot : !llvm.ptr -> !llvm.ptr
    %t = builtin.unrealized_conversion_cast %p : !llvm.ptr to !coro.handle<none>
    %d = "coro.done"(%t) : (!coro.handle<none>) -> i1
    "coro.destroy"(%t) : (!coro.handle<none>) -> ()
    %v = memref.load %out[%i] : memref<8xi64>
    %a2 = arith.andi %a, %d : i1
    %s2 = arith.addi %s, %v : i64
    scf.yield %a2, %s2 : i1, i64
  }
  call @coro_rt_pool_destroy(%pool) : (!llvm.ptr) -> ()
  return %resumed, %all, %sum : i64, i1, i64
}
