// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: coro-translate %s --emit=ptx -O2 --mcpu=sm_80 | FileCheck %s --check-prefix=PTX2
// RUN: coro-translate %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: coro-translate %s --emit=llvm -O2 | FileCheck %s --check-prefix=LLVM2
// RUN: coro-opt --coro-lower-nvvm --remarks-filter=coro-elide %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The CPU computes the same: the module without its kernel, with a main
// that returns sum(0), ..., sum(7).
// RUN: sed '/^func.func @kernel/,$d' %s > %t.cpu.mlir
// RUN: cat %S/Inputs/sum-main.mlir >> %t.cpu.mlir
// RUN: coro-run %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// (generator-kernel.test validates the PTX with ptxas and runs it on a GPU.)

// The device path: the generator's frame is an alloca of the kernel's
// thread (@sum's stack), its parts are called directly, no malloc and no
// indirect call (an indirect call in PTX needs a .callprototype).
// PTX: .target sm_90
// PTX-NOT: malloc
// PTX-NOT: prototype
// PTX-NOT: free
// PTX-DAG: call.uni (retval0), range_$_elided,
// PTX-DAG: call.uni (retval0), range_$_resume,
// PTX-DAG: call.uni (retval0), range_$_cleanup,
// PTX-DAG: .visible .entry kernel(
// At -O2 LLVM inlines the parts: the generator becomes the kernel's loop.
// PTX2: .target sm_80
// PTX2-NOT: call
// PTX2: .visible .entry kernel(
// PTX2-NOT: call
// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM-NOT: @malloc
// LLVM: define ptx_kernel void @kernel(
// At -O2, LLVM's pre-split simplification runs before coro's split (as
// LLVM's pipeline runs it before its CoroSplit): indvars rewrites the
// generator's exit test against its trip count, so the value the kernel
// adds after each resume needs no min with the bound; and it runs again
// once the parts are inlined into the kernel (as LLVM's pipeline revisits
// a split coroutine's callers), which turns the kernel's loop into its
// closed form: no loop is left (26 registers before, 12 now, as clang's
// C++20 coroutine: bench/gpu.sh). coro-elide's decision survives the trip
// through LLVM IR, also in the copy of @sum LLVM inlines into the kernel.
// LLVM2-NOT: @malloc
// LLVM2-LABEL: define ptx_kernel void @kernel(
// LLVM2-NOT: smin
// LLVM2-NOT: !llvm.loop
// LLVM2: ret void
// LLVM2-NOT: @malloc
// REMARK: remark: 'range' elided in 'sum'
// VALUES: 0
// VALUES-NEXT: 11
// VALUES-NEXT: 32
// VALUES-NEXT: 63
// VALUES-NEXT: 104
// VALUES-NEXT: 155
// VALUES-NEXT: 216
// VALUES-NEXT: 287

// A kernel that runs a generator per thread: thread t sums what @range(t)
// yields (0 + 1 + ... + t-1) plus its final result t, times 10, plus the
// number of values it pulled. The generator's frame lives in the kernel's
// own stack (coro-elide), its parts are called directly.
func.func @range(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %destroyed = "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.cond_br %destroyed, ^done, ^loop(%next : i64)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// The sum and count for n, as the CPU computes it too (@main below).
func.func @sum(%n: i64) -> i64 {
  %g = call @range(%n) : (i64) -> !coro.handle<i64>
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %true = arith.constant true
  %r:2 = scf.while (%acc = %zero, %k = %zero) : (i64, i64) -> (i64, i64) {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc, %k : i64, i64
  } do {
  ^bb0(%acc: i64, %k: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %s = arith.addi %acc, %v : i64
    %k1 = arith.addi %k, %one : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %s, %k1 : i64, i64
  }
  %final = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %c10 = arith.constant 10 : i64
  %t = arith.addi %r#0, %final : i64
  %t10 = arith.muli %t, %c10 : i64
  %res = arith.addi %t10, %r#1 : i64
  return %res : i64
}

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %ctaid = nvvm.read.ptx.sreg.ctaid.x : i32
  %ntid = nvvm.read.ptx.sreg.ntid.x : i32
  %base = arith.muli %ctaid, %ntid : i32
  %t32 = arith.addi %base, %tid : i32
  %t = arith.extui %t32 : i32 to i64
  %v = call @sum(%t) : (i64) -> i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %p : i64, !llvm.ptr
  return
}
