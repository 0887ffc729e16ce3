// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// An await that can never continue, on a handle whose origin the verifier
// cannot see (it comes back from a call): the coroutine's own handle, or
// coro.noop's. The coroutine stays suspended in the await: resuming it
// again changes nothing, it is never done, and destroying it is safe;
// neither frame is written (the noop coroutine's is read-only).
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 7
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 8
func.func private @id(%h: !coro.handle<i32>) -> !coro.handle<i32> attributes {llvm.noinline} {
  return %h : !coro.handle<i32>
}

func.func private @id_none(%h: !coro.handle<none>) -> !coro.handle<none> attributes {llvm.noinline} {
  return %h : !coro.handle<none>
}

func.func @selfish() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %s = "coro.self"() : () -> !coro.handle<i32>
  %x = func.call @id(%s) : (!coro.handle<i32>) -> !coro.handle<i32>
  %c7 = arith.constant 7 : i32
  %d = "coro.yield"(%c7) : (i32) -> i1
  %r = "coro.await"(%x) : (!coro.handle<i32>) -> i32
  "coro.end"(%h, %r) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @on_noop() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %n = "coro.noop"() : () -> !coro.handle<none>
  %x = func.call @id_none(%n) : (!coro.handle<none>) -> !coro.handle<none>
  %c8 = arith.constant 8 : i32
  %d = "coro.yield"(%c8) : (i32) -> i1
  "coro.await"(%x) : (!coro.handle<none>) -> ()
  %c9 = arith.constant 9 : i32
  "coro.end"(%h, %c9) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @drive(%g: !coro.handle<i32>) -> (i1, i1, i32) {
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %d1 = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %d2 = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %d1, %d2, %v : i1, i1, i32
}

func.func @main() -> (i1, i1, i32, i1, i1, i32) {
  %a = call @selfish() : () -> !coro.handle<i32>
  %a1, %a2, %av = call @drive(%a) : (!coro.handle<i32>) -> (i1, i1, i32)
  %b = call @on_noop() : () -> !coro.handle<i32>
  %b1, %b2, %bv = call @drive(%b) : (!coro.handle<i32>) -> (i1, i1, i32)
  return %a1, %a2, %av, %b1, %b2, %bv : i1, i1, i32, i1, i1, i32
}
