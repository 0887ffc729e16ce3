// RUN: coro-translate %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: not coro-opt --coro-lower-nvvm %s 2>&1 | FileCheck %s --check-prefix=OPT
// (gpu-module.test validates the PTX with ptxas and runs it on a GPU.)

// MLIR's GPU form: the device code in a gpu.module, its kernel a gpu.func
// marked `kernel` (thread ids from gpu.thread_id and friends), and host
// code around it that launches the kernel with gpu.launch_func. The device
// path lowers the gpu.module's code as a device module (the gpu.func
// becomes a kernel, gpu.return a return) and leaves the host code out: the
// PTX holds the kernel and what it calls. The program is
// generator-kernel.mlir's.
// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM-NOT: @malloc
// LLVM-NOT: @host
// LLVM: define ptx_kernel void @kernel(
// LLVM-DAG: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// LLVM-DAG: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// LLVM-DAG: call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
// PTX-NOT: malloc
// PTX-NOT: prototype
// PTX: .visible .entry kernel(
// coro-opt's pipeline lowers a device module, not a gpu.module inside one:
// OPT: gpu-module.mlir:[[@LINE+3]]:3: error: a gpu.module: the device pipeline lowers a device module (kernels marked gpu.kernel at its top level); coro-translate --emit=ptx lowers a module's gpu.module

module attributes {gpu.container_module} {
  gpu.module @device {
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


    gpu.func @kernel(%out: !llvm.ptr) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %ti = arith.addi %base, %tid : index
      %t = arith.index_cast %ti : index to i64
      %v = func.call @sum(%t) : (i64) -> i64
      %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
      llvm.store %v, %p : i64, !llvm.ptr
      gpu.return
    }
  }

  // Host code (left out of the device code).
  func.func @host(%out: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @device::@kernel blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : !llvm.ptr)
    return
  }
}
