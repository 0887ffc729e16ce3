// RUN: coro-opt --coro-lower-nvvm --remarks-filter=coro-elide %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: coro-opt --coro-lower-nvvm %s | FileCheck %s --check-prefix=NVVM
// The CPU computes the same (the module without its kernel):
// RUN: sed '/^func.func @kernel/,$d' %s > %t.cpu.mlir
// RUN: grep -v '^//' %S/Inputs/run-main.mlir >> %t.cpu.mlir
// RUN: coro-run %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split -O2 %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --no-elide %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// A frame larger than its buffer is an error on the device:
// RUN: sed 's/, coro.buffer = array<i64: 160, 16>//' %s > %t.small.mlir
// RUN: not coro-opt --coro-lower-nvvm %t.small.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// (retcon-kernel.test validates the PTX with ptxas, emulated.test runs the
// device code on the host, retcon-kernel-run.test on a GPU.)

// retcon control blocks nested in other coroutines' frames, and awaits
// across ABIs, on the device. @task (switch) drives a retcon generator
// @gen across its own suspensions: @gen's control block is an alloca of
// @task that lives across them, so it goes in @task's frame. @wrap
// (retcon.once) awaits a @task, whose frame nests in @wrap's (hence its
// coro.buffer: the frame must fit the buffer on the device), and @top
// (switch) awaits a @wrap, whose control block nests in @top's frame.
// Thread t stores 1000 * (0 + ... + (t - 1)) + 7 * (0 + ... + (t - 1)).
// REMARK-DAG: retcon-mixed-kernel.mlir:[[# @LINE + 37]]:8: remark: 'gen' elided in 'task'
// REMARK-DAG: retcon-mixed-kernel.mlir:[[# @LINE + 58]]:8: remark: 'task' elided in 'wrap'
// REMARK-DAG: retcon-mixed-kernel.mlir:[[# @LINE + 68]]:8: remark: 'wrap' elided in 'top'
// No allocation but none: every control block and frame is in a caller.
// NVVM-NOT: llvm.call @malloc
// NVVM-NOT: llvm.call @aligned_alloc
// NVVM-DAG: llvm.call @gen.elided(
// NVVM-DAG: llvm.call @wrap.elided(
// NVVM-DAG: llvm.call @task.elided(
// SMALL: error: on the device a retcon frame lives in the coroutine's buffer, and this one ({{[0-9]+}} bytes, align 16) does not fit it (32, align 8): give the coroutine coro.buffer = array<i64: {{[0-9]+}}, 16>
// VALUES: {{^}}0{{$}}
// VALUES-NEXT: {{^}}0{{$}}
// VALUES-NEXT: {{^}}1007{{$}}
// VALUES-NEXT: {{^}}3021{{$}}
// VALUES-NEXT: {{^}}6042{{$}}
// VALUES-NEXT: {{^}}10070{{$}}

func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %d = "coro.yield"(%i) : (i64) -> i1
  %i1 = arith.addi %i, %c1 : i64
  cf.br ^loop(%i1 : i64)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// a switch task that drives a retcon generator across its own suspensions
func.func @task(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %g = call @gen(%n) : (i64) -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %true = arith.constant true
  cf.br ^loop(%c0 : i64)
^loop(%acc: i64):
  %dn = "coro.done"(%g) : (!coro.handle<i64>) -> i1
  cf.cond_br %dn, ^fin, ^step
^step:
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  %a2 = arith.addi %acc, %v : i64
  %y = "coro.yield"(%a2) : (i64) -> i1
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  cf.br ^loop(%a2 : i64)
^fin:
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  "coro.end"(%h, %acc) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// a retcon.once awaiting a switch task, awaited by a switch task
func.func @wrap(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once", coro.buffer = array<i64: 160, 16>} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %t = call @task(%n) : (i64) -> !coro.handle<i64>
  %r = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %c7 = arith.constant 7 : i64
  %r7 = arith.muli %r, %c7 : i64
  "coro.end"(%h, %r7) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @top(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %w = call @wrap(%n) : (i64) -> !coro.handle<i64>
  %r = "coro.await"(%w) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%w) : (!coro.handle<i64>) -> ()
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @finish(%r: !coro.handle<i64>) -> i64 {
  %true = arith.constant true
  scf.while : () -> () {
    %d = "coro.done"(%r) : (!coro.handle<i64>) -> i1
    %go = arith.xori %d, %true : i1
    scf.condition(%go)
  } do {
    "coro.resume"(%r) : (!coro.handle<i64>) -> ()
    scf.yield
  }
  %v = "coro.promise"(%r) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%r) : (!coro.handle<i64>) -> ()
  return %v : i64
}

func.func @run(%t: i64) -> i64 {
  %a = call @task(%t) : (i64) -> !coro.handle<i64>
  %av = call @finish(%a) : (!coro.handle<i64>) -> i64
  %b = call @top(%t) : (i64) -> !coro.handle<i64>
  %bv = call @finish(%b) : (!coro.handle<i64>) -> i64
  %k = arith.constant 1000 : i64
  %x = arith.muli %av, %k : i64
  %r = arith.addi %x, %bv : i64
  return %r : i64
}

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.extui %tid : i32 to i64
  %v = call @run(%t) : (i64) -> i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %p : i64, !llvm.ptr
  return
}
