// The coro side of bench/gpu.sh's run-time rows: every thread t drains a
// generator of 0 .. n-1, n = 4096 + out[t] (the runner zeroes out[], so
// n is 4096, but no compiler can know it and fold the work away), and
// folds the values with
// acc = acc * 31 + v (no closed form), then stores acc + t. The same computation in CUDA C++ is
// bench_coro_kernel and bench_sm_kernel in bench/gpu_generator.cu.
func.func @range(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @fold(%n: i64) -> i64 {
  %g = call @range(%n) : (i64) -> !coro.handle<i64>
  %zero = arith.constant 0 : i64
  %c31 = arith.constant 31 : i64
  %true = arith.constant true
  %r = scf.while (%acc = %zero) : (i64) -> i64 {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %m = arith.muli %acc, %c31 : i64
    %s = arith.addi %m, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %s : i64
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %r : i64
}

func.func @bench_kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %ctaid = nvvm.read.ptx.sreg.ctaid.x : i32
  %ntid = nvvm.read.ptx.sreg.ntid.x : i32
  %base = arith.muli %ctaid, %ntid : i32
  %t32 = arith.addi %base, %tid : i32
  %t = arith.extui %t32 : i32 to i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  %extra = llvm.load %p : !llvm.ptr -> i64
  %c4096 = arith.constant 4096 : i64
  %n = arith.addi %c4096, %extra : i64
  %v = call @fold(%n) : (i64) -> i64
  %r = arith.addi %v, %t : i64
  llvm.store %r, %p : i64, !llvm.ptr
  return
}
