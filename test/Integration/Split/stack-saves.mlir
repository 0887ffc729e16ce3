// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// llvm.intr.stacksave / stackrestore around a suspension (what
// memref.alloca_scope lowers to, written directly) in a switch, a retcon
// and an async coroutine: the restore ran on another stack than the save
// (every route and ABI crashed, or gave 0 0). A save whose value is live
// across a suspension now goes with its restores; the buffer between them
// (4 x i64) is the coroutine's until it ends. Each coroutine publishes n,
// then n + 1 + 2 + 3 + 4 read back after the suspension. A save and
// restore around 100,000 iterations of a 4 KiB alloca between two
// suspensions are kept (without the restore the loop would need 400 MB of
// stack): @scoped publishes 100,000 and then 7.
// CHECK: {{^}}5{{$}}
// CHECK-NEXT: {{^}}15{{$}}
// CHECK-NEXT: {{^}}5{{$}}
// CHECK-NEXT: {{^}}15{{$}}
// CHECK-NEXT: {{^}}5{{$}}
// CHECK-NEXT: {{^}}15{{$}}
// CHECK-NEXT: {{^}}100000{{$}}
// CHECK-NEXT: {{^}}7{{$}}

func.func @fill(%a: !llvm.ptr) {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %p1 = llvm.getelementptr %a[1] : (!llvm.ptr) -> !llvm.ptr, i64
  %p2 = llvm.getelementptr %a[2] : (!llvm.ptr) -> !llvm.ptr, i64
  %p3 = llvm.getelementptr %a[3] : (!llvm.ptr) -> !llvm.ptr, i64
  llvm.store %c1, %a : i64, !llvm.ptr
  llvm.store %c2, %p1 : i64, !llvm.ptr
  llvm.store %c3, %p2 : i64, !llvm.ptr
  llvm.store %c4, %p3 : i64, !llvm.ptr
  return
}

func.func @total(%a: !llvm.ptr, %n: i64) -> i64 {
  %p1 = llvm.getelementptr %a[1] : (!llvm.ptr) -> !llvm.ptr, i64
  %p2 = llvm.getelementptr %a[2] : (!llvm.ptr) -> !llvm.ptr, i64
  %p3 = llvm.getelementptr %a[3] : (!llvm.ptr) -> !llvm.ptr, i64
  %v0 = llvm.load %a : !llvm.ptr -> i64
  %v1 = llvm.load %p1 : !llvm.ptr -> i64
  %v2 = llvm.load %p2 : !llvm.ptr -> i64
  %v3 = llvm.load %p3 : !llvm.ptr -> i64
  %s0 = arith.addi %n, %v0 : i64
  %s1 = arith.addi %s0, %v1 : i64
  %s2 = arith.addi %s1, %v2 : i64
  %s3 = arith.addi %s2, %v3 : i64
  return %s3 : i64
}

func.func @sw(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %sp = llvm.intr.stacksave : !llvm.ptr
  %c4 = arith.constant 4 : i64
  %a = llvm.alloca %c4 x i64 : (i64) -> !llvm.ptr
  func.call @fill(%a) : (!llvm.ptr) -> ()
  "coro.yield"(%n) : (i64) -> i1
  %r = func.call @total(%a, %n) : (!llvm.ptr, i64) -> i64
  llvm.intr.stackrestore %sp : !llvm.ptr
  "coro.yield"(%r) : (i64) -> i1
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @rc(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %sp = llvm.intr.stacksave : !llvm.ptr
  %c4 = arith.constant 4 : i64
  %a = llvm.alloca %c4 x i64 : (i64) -> !llvm.ptr
  func.call @fill(%a) : (!llvm.ptr) -> ()
  "coro.yield"(%n) : (i64) -> i1
  %r = func.call @total(%a, %n) : (!llvm.ptr, i64) -> i64
  llvm.intr.stackrestore %sp : !llvm.ptr
  "coro.yield"(%r) : (i64) -> i1
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @as(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %sp = llvm.intr.stacksave : !llvm.ptr
  %c4 = arith.constant 4 : i64
  %a = llvm.alloca %c4 x i64 : (i64) -> !llvm.ptr
  func.call @fill(%a) : (!llvm.ptr) -> ()
  "coro.yield"(%n) : (i64) -> i1
  %r = func.call @total(%a, %n) : (!llvm.ptr, i64) -> i64
  llvm.intr.stackrestore %sp : !llvm.ptr
  "coro.yield"(%r) : (i64) -> i1
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// 100,000 scopes of 4 KiB between two suspensions: kept.
func.func @scoped(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c512 = arith.constant 512 : i64
  "coro.yield"(%c0) : (i64) -> i1
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %sp = llvm.intr.stacksave : !llvm.ptr
  %a = llvm.alloca %c512 x i64 : (i64) -> !llvm.ptr
  llvm.store %i, %a : i64, !llvm.ptr
  %v = llvm.load volatile %a : !llvm.ptr -> i64
  llvm.intr.stackrestore %sp : !llvm.ptr
  %next = arith.addi %v, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.yield"(%i) : (i64) -> i1
  %c7 = arith.constant 7 : i64
  "coro.end"(%h, %c7) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Runs a coroutine of @sw's shape: its value at each yield.
func.func @two(%g: !coro.handle<i64>) -> (i64, i64) {
  %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %a, %b : i64, i64
}

func.func @main() -> (i64, i64, i64, i64, i64, i64, i64, i64) {
  %c5 = arith.constant 5 : i64
  %s = call @sw(%c5) : (i64) -> !coro.handle<i64>
  %s0, %s1 = call @two(%s) : (!coro.handle<i64>) -> (i64, i64)
  %r = call @rc(%c5) : (i64) -> !coro.handle<i64>
  %r0, %r1 = call @two(%r) : (!coro.handle<i64>) -> (i64, i64)
  %a = call @as(%c5) : (i64) -> !coro.handle<i64>
  %a0, %a1 = call @two(%a) : (!coro.handle<i64>) -> (i64, i64)
  %n = arith.constant 100000 : i64
  %l = call @scoped(%n) : (i64) -> !coro.handle<i64>
  "coro.resume"(%l) : (!coro.handle<i64>) -> ()
  %l0, %l1 = call @two(%l) : (!coro.handle<i64>) -> (i64, i64)
  return %s0, %s1, %r0, %r1, %a0, %a1, %l0, %l1 : i64, i64, i64, i64, i64, i64, i64, i64
}
