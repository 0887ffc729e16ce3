// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: coro-opt --coro-lower-nvvm %s | FileCheck %s --check-prefix=NVVM
// The CPU computes the same with heap frames (the module without its
// kernel and without coro.alloc = "arena", which only the device has).
// RUN: sed -e '/^func.func @kernel/,$d' -e 's/, coro.alloc = "arena"//' %s > %t.cpu.mlir
// RUN: cat %S/Inputs/arena-main.mlir >> %t.cpu.mlir
// RUN: coro-run %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// (arena-kernel.test validates the PTX with ptxas and runs it on a GPU.)

// Frames that cannot live in their caller (recursion) come from the
// thread's arena: coro.alloc = "arena". @fib(n) awaits fib(n-1) and
// fib(n-2); @link(n) starts lazily and awaits link(n-1), so a chain of
// 100 * t awaits runs through the resume loop in O(1) stack, its frames
// in the arena, freed last in, first out. Thread t stores
// fib(t) * 100000 + link(100 * t) = fib(t) * 100000 + 100 * t.
// NVVM-DAG: llvm.mlir.global external @__coro_arena(0 : i64)
// NVVM-DAG: llvm.mlir.global external @__coro_arena_size(0 : i64)
// NVVM-DAG: llvm.func internal @__coro_arena_alloc(%{{.*}}: i64) -> !llvm.ptr
// NVVM-DAG: llvm.call @__coro_arena_alloc(
// NVVM-DAG: llvm.call @__coro_arena_free(
// NVVM-DAG: llvm.call @vprintf(
// The frame sizes, for the host to size the arena (NAME_frame_size, read
// with cuModuleGetGlobal; coroFrameSize in the C API).
// NVVM-DAG: llvm.mlir.global external constant @fib_frame_size({{[0-9]+}} : i64)
// NVVM-DAG: llvm.mlir.global external constant @link_frame_size({{[0-9]+}} : i64)
// PTX-NOT: malloc
// PTX-NOT: prototype
// PTX-DAG: .visible .global .align 8 .u64 fib_frame_size = {{[0-9]+}};
// PTX-DAG: .visible .global .align 8 .u64 __coro_arena;
// PTX-DAG: .visible .entry kernel(
// VALUES: 0
// VALUES-NEXT: 100100
// VALUES-NEXT: 100200
// VALUES-NEXT: 200300
// VALUES-NEXT: 300400
// VALUES-NEXT: 500500
// (On an H100: 16 threads with 256 KiB of arena and 16 KiB of stack each
// gave fib(15) * 100000 + 1500 = 61001500 for the last.)

func.func @fib(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "arena"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi slt, %n, %c2 : i64
  cf.cond_br %small, ^leaf, ^rec
^leaf:
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^rec:
  %n1 = arith.subi %n, %c1 : i64
  %n2 = arith.subi %n, %c2 : i64
  %a = call @fib(%n1) : (i64) -> !coro.handle<i64>
  %ra = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %b = call @fib(%n2) : (i64) -> !coro.handle<i64>
  %rb = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %s = arith.addi %ra, %rb : i64
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @link(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "arena"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %last = arith.cmpi eq, %n, %c0 : i64
  cf.cond_br %last, ^end(%c0 : i64), ^more
^more:
  %m = arith.subi %n, %c1 : i64
  %l = call @link(%m) : (i64) -> !coro.handle<i64>
  %r = "coro.await"(%l) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%l) : (!coro.handle<i64>) -> ()
  %r1 = arith.addi %r, %c1 : i64
  cf.br ^end(%r1 : i64)
^end(%v: i64):
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// runs a coroutine to its end and returns its result
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

func.func @both(%t: i64) -> i64 {
  %f = call @fib(%t) : (i64) -> !coro.handle<i64>
  %fv = call @finish(%f) : (!coro.handle<i64>) -> i64
  %c100 = arith.constant 100 : i64
  %n = arith.muli %t, %c100 : i64
  %l = call @link(%n) : (i64) -> !coro.handle<i64>
  %lv = call @finish(%l) : (!coro.handle<i64>) -> i64
  %c100000 = arith.constant 100000 : i64
  %f5 = arith.muli %fv, %c100000 : i64
  %r = arith.addi %f5, %lv : i64
  return %r : i64
}

func.func @kernel(%out: !llvm.ptr) attributes {gpu.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %t = arith.extui %tid : i32 to i64
  %v = call @both(%t) : (i64) -> i64
  %p = llvm.getelementptr %out[%t] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %p : i64, !llvm.ptr
  return
}
