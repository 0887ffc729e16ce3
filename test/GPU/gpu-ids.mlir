// RUN: coro-opt --coro-lower-nvvm %s | FileCheck %s
// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX

// gpu.thread_id, gpu.block_id, gpu.block_dim and gpu.grid_dim in a device
// module's functions (outside a gpu.module) become NVVM's special
// registers: here a generator per thread, started at the thread's global
// index.
// CHECK-LABEL: llvm.func @kernel(
// CHECK-DAG: nvvm.read.ptx.sreg.tid.x : i32
// CHECK-DAG: nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-DAG: nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-DAG: nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NOT: gpu.
// PTX-DAG: %tid.x
// PTX-DAG: %ctaid.x
// PTX-DAG: %ntid.x
// PTX-DAG: %nctaid.y
func.func @from(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"(%n) : (i64) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = gpu.thread_id x
  %bid = gpu.block_id x
  %bdim = gpu.block_dim x
  %gy = gpu.grid_dim y
  %base = arith.muli %bid, %bdim : index
  %t0 = arith.addi %base, %tid : index
  %t1 = arith.muli %t0, %gy : index
  %t = arith.index_cast %t1 : index to i64
  %g = call @from(%t) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %p : i64, !llvm.ptr
  return
}
