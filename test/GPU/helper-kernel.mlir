// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: coro-opt --coro-lower-nvvm %s | FileCheck %s --check-prefix=NVVM
// RUN: sed '/^func.func @kernel/,$d' %s > %t.cpu.mlir
// RUN: cat %S/Inputs/pairs-main.mlir >> %t.cpu.mlir
// RUN: coro-run %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// (helper-kernel.test validates the PTX with ptxas and runs it on a GPU.)

// Handles of unknown origin on the device: @drive resumes and destroys
// handles it gets as parameters, of two coroutines (@ones and @squares),
// so --coro-split cannot name the callee. On the device it compares the
// header's function pointer with each coroutine's part and calls it
// directly: the PTX still has no indirect call (no .callprototype), and an
// unknown pointer traps.
// NVVM-LABEL: llvm.func internal @drive(
// NVVM: %[[FN:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// NVVM-DAG: llvm.mlir.addressof @ones.resume
// NVVM-DAG: llvm.mlir.addressof @squares.resume
// NVVM-DAG: llvm.call fastcc @ones.resume(
// NVVM-DAG: llvm.call fastcc @squares.resume(
// NVVM: llvm.intr.trap
// NVVM-NOT: llvm.call %
// PTX-NOT: prototype
// PTX-NOT: malloc
// PTX: .visible .entry kernel(
// VALUES: 0
// VALUES-NEXT: 1
// VALUES-NEXT: 1002
// VALUES-NEXT: 5003
// VALUES-NEXT: 14004
// VALUES-NEXT: 30005

// yields 1, t times
func.func @ones(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%c1) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// yields 0, 1, 4, ..., (n-1)^2
func.func @squares(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %sq = arith.muli %i, %i : i64
  "coro.yield"(%sq) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// sums what `g` yields, then destroys it
func.func @drive(%g: !coro.handle<i64>) -> i64 {
  %zero = arith.constant 0 : i64
  %true = arith.constant true
  %r = scf.while (%acc = %zero) : (i64) -> i64 {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %s = arith.addi %acc, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %s : i64
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %r : i64
}

// 1000 * (sum of squares below n) + (number of ones below n), from one
// helper driving both
func.func @pair(%n: i64) -> i64 {
  %a = call @ones(%n) : (i64) -> !coro.handle<i64>
  %b = call @squares(%n) : (i64) -> !coro.handle<i64>
  %x = call @drive(%a) : (!coro.handle<i64>) -> i64
  %y = call @drive(%b) : (!coro.handle<i64>) -> i64
  %c1000 = arith.constant 1000 : i64
  %y1000 = arith.muli %y, %c1000 : i64
  %r = arith.addi %y1000, %x : i64
  return %r : i64
}

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.extui %tid : i32 to i64
  %v = call @pair(%t) : (i64) -> i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %p : i64, !llvm.ptr
  return
}
