// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: coro-opt --coro-lower-nvvm --remarks-filter=coro-elide %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: coro-opt --coro-lower-nvvm %s | FileCheck %s --check-prefix=NVVM
// RUN: sed '/^func.func @kernel/,$d' %s > %t.cpu.mlir
// RUN: cat %S/Inputs/tasks-main.mlir >> %t.cpu.mlir
// RUN: coro-run %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split -O2 %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// (tasks-kernel.test validates the PTX with ptxas and runs it on a GPU.)

// Awaiting tasks in a kernel: @root(t) awaits two @node tasks, each
// awaiting two lazy @leaf tasks. Every frame is nested in its awaiter's
// (the root's in the kernel's stack). Without musttail, an await hands the
// awaited handle back to the resume loop __coro_device_run, and a final
// suspension hands back its awaiter: the parts return the handle to run
// next, and the loop calls each by comparing function pointers.
// root(t) = node(t) + node(t + 10), node(x) = leaf(x) + leaf(x + 1) = 2x + 1,
// so root(t) = 4t + 22.
// REMARK-DAG: remark: 'leaf' elided in 'node'
// REMARK-DAG: remark: 'node' elided in 'root'
// REMARK-DAG: remark: 'root' elided in 'run'
// NVVM-LABEL: llvm.func internal fastcc @node.resume(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// NVVM-LABEL: llvm.func internal @__coro_device_run(
// NVVM: llvm.icmp "eq"
// NVVM-NOT: llvm.call %
// PTX-NOT: prototype
// PTX-NOT: malloc
// PTX: .visible .entry kernel(
// VALUES: 22
// VALUES-NEXT: 26
// VALUES-NEXT: 30
// VALUES-NEXT: 34

// suspends once (lazy), then ends with x
func.func @leaf(%x: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  "coro.end"(%h, %x) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @node(%x: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  %c1 = arith.constant 1 : i64
  %y = arith.addi %x, %c1 : i64
  %a = call @leaf(%x) : (i64) -> !coro.handle<i64>
  %b = call @leaf(%y) : (i64) -> !coro.handle<i64>
  %ra = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  %rb = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %s = arith.addi %ra, %rb : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @root(%t: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c10 = arith.constant 10 : i64
  %u = arith.addi %t, %c10 : i64
  %a = call @node(%t) : (i64) -> !coro.handle<i64>
  %ra = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %b = call @node(%u) : (i64) -> !coro.handle<i64>
  %rb = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %s = arith.addi %ra, %rb : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// drives root(t) to its end
func.func @run(%t: i64) -> i64 {
  %r = call @root(%t) : (i64) -> !coro.handle<i64>
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

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.extui %tid : i32 to i64
  %v = call @run(%t) : (i64) -> i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %p : i64, !llvm.ptr
  return
}
