// RUN: coro-opt %s --coro-misuse-checks | FileCheck %s

// The checked mode on the coro dialect: a flag slot after coro.begin, set
// after each yield whose destroy flag the coroutine uses and checked before
// every yield; a check of coro.done before every coro.resume. A yield whose
// flag is unused records nothing (its destroy path goes straight to the
// end). Reports call @__coro_misuse with a message naming the coroutine and
// the op's position, which writes it to stderr and traps.

// CHECK-LABEL: func.func @gen
// CHECK: %[[H:.*]] = "coro.begin"
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x i1
// CHECK-NEXT: %[[F:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT: llvm.store %[[F]], %[[SLOT]]
// CHECK: %[[D0:.*]] = llvm.load %[[SLOT]]
// CHECK-NEXT: scf.if %[[D0]] {
// CHECK-NEXT: %[[M0:.*]] = llvm.mlir.addressof @[[$MSG0:__coro_misuse_msg_[0-9]+]]
// CHECK-NEXT: %[[L0:.*]] = llvm.mlir.constant({{[0-9]+}} : i64)
// CHECK-NEXT: llvm.call @__coro_misuse(%[[M0]], %[[L0]])
// CHECK-NEXT: }
// CHECK-NEXT: %[[FLAG:.*]] = "coro.yield"
// CHECK-NEXT: %[[OLD:.*]] = llvm.load %[[SLOT]]
// CHECK-NEXT: %[[NEW:.*]] = llvm.or %[[OLD]], %[[FLAG]] : i1
// CHECK-NEXT: llvm.store %[[NEW]], %[[SLOT]]
// CHECK: scf.if
// CHECK: "coro.yield"
// CHECK-NOT: llvm.or
// CHECK: "coro.end"
func.func @gen() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  %c2 = arith.constant 2 : i32
  %x = arith.select %d, %c2, %c : i32
  %d2 = "coro.yield"(%x) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// A coroutine none of whose yields' flags is used gets no slot.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: llvm.alloca
// CHECK: "coro.yield"
func.func @plain() -> !coro.handle<i32> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  %d = "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// Resumes are checked wherever they are, inside scf regions too; the
// message names the coroutine when the handle's origin shows it.
// CHECK-LABEL: func.func @main
// CHECK: %[[G:.*]] = call @gen()
// CHECK: scf.for
// CHECK: %[[DONE:.*]] = "coro.done"(%[[G]])
// CHECK-NEXT: scf.if %[[DONE]] {
// CHECK: llvm.call @__coro_misuse
// CHECK: "coro.resume"(%[[G]])
func.func @main() -> i32 {
  %g = call @gen() : () -> !coro.handle<i32>
  %lo = arith.constant 0 : index
  %hi = arith.constant 3 : index
  %st = arith.constant 1 : index
  scf.for %i = %lo to %hi step %st {
    "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  }
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %z = arith.constant 0 : i32
  return %z : i32
}

// A handle of unknown origin: the message says "a coroutine".
// CHECK-LABEL: func.func @drive
// CHECK: "coro.done"
func.func @drive(%h: !coro.handle<i32>) {
  "coro.resume"(%h) : (!coro.handle<i32>) -> ()
  return
}

// CHECK: llvm.func @write(i32, !llvm.ptr, i64) -> i64
// CHECK: llvm.func internal @__coro_misuse(%[[MSG:.*]]: !llvm.ptr, %[[LEN:.*]]: i64)
// CHECK: llvm.call @write(%{{.*}}, %[[MSG]], %[[LEN]])
// CHECK-NEXT: llvm.intr.trap
// CHECK-NEXT: llvm.unreachable
// CHECK-DAG: llvm.mlir.global internal constant @[[$MSG0]]("coro: 'gen' yields again after coro.destroy (coro.yield at {{.*}}checks.mlir:33:8)\0A")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("coro: resuming 'gen' after it ended (coro.resume at {{.*}}checks.mlir:68:5)\0A")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("coro: resuming a coroutine that has ended (coro.resume at {{.*}}checks.mlir:79:3)\0A")
