// RUN: coro-opt --coro-lower-nvvm %s | FileCheck %s --check-prefix=NVVM
// RUN: sed -e '/^func.func @kernel/,$d' -e 's/coro.alloc = "arena", //' %s > %t.cpu.mlir
// RUN: cat %S/Inputs/quad-main.mlir >> %t.cpu.mlir
// RUN: coro-run %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split -O2 %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// (emulated.test runs the device code on the host, retcon-kernel.test
// validates its PTX, retcon-kernel-run.test runs it on a GPU.)

// A retcon frame larger than its buffer (8 bytes here: four arguments live
// across the first yield) comes from the thread's arena when the coroutine
// takes its control blocks from there: the ramp calls the arena's
// allocator for the frame, and an end frees it. quad_frame_size counts
// the control block, the frame and the frame's 16-byte arena record. Thread
// t stores the sum of what @quad(t) publishes: 4t + 6, then 4t + 10.
// The ramp takes the frame from the arena, the last continuation gives it
// back:
// NVVM-LABEL: llvm.func internal @quad.coro.ramp(
// NVVM: llvm.call @__coro_arena_alloc(
// 56 (the control block, its buffer 8 bytes) + 16 (the frame's record) +
// 32 (the frame: four i64):
// NVVM: llvm.mlir.global external constant @quad_frame_size(104 : i64)
// NVVM-LABEL: llvm.func internal @quad(
// NVVM: llvm.call @__coro_arena_alloc(
// NVVM-LABEL: llvm.func internal @quad.coro.ramp.resume.1(
// NVVM: llvm.call @__coro_arena_free(
// VALUES: {{^}}16{{$}}
// VALUES-NEXT: {{^}}24{{$}}
// VALUES-NEXT: {{^}}32{{$}}
// VALUES-NEXT: {{^}}40{{$}}

func.func @quad(%t: i64, %a: i64, %b: i64, %c: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.alloc = "arena", coro.buffer = array<i64: 8, 8>} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %s0 = arith.addi %t, %a : i64
  %s1 = arith.addi %b, %c : i64
  %s = arith.addi %s0, %s1 : i64
  %d0 = "coro.yield"(%s) : (i64) -> i1
  %a1 = arith.addi %a, %c1 : i64
  %b1 = arith.addi %b, %c1 : i64
  %e0 = arith.addi %t, %a1 : i64
  %e1 = arith.addi %b1, %c : i64
  %e = arith.addi %e0, %e1 : i64
  %c2 = arith.constant 2 : i64
  %e2 = arith.addi %e, %c2 : i64
  %d1 = "coro.yield"(%e2) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @drain(%g: !coro.handle<i64>) -> i64 {
  %true = arith.constant true
  %c0 = arith.constant 0 : i64
  %s = scf.while (%acc = %c0) : (i64) -> i64 {
    %d = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %d, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %acc2 = arith.addi %acc, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %acc2 : i64
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %s : i64
}

func.func @run(%t: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %a = arith.addi %t, %c1 : i64
  %b = arith.addi %a, %c1 : i64
  %c = arith.addi %b, %c1 : i64
  %g = call @quad(%t, %a, %b, %c) : (i64, i64, i64, i64) -> !coro.handle<i64>
  %v = call @drain(%g) : (!coro.handle<i64>) -> i64
  return %v : i64
}

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.extui %tid : i32 to i64
  %v = call @run(%t) : (i64) -> i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %p : i64, !llvm.ptr
  return
}
