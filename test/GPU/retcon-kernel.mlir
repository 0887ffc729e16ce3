// RUN: coro-opt --coro-lower-nvvm %s > %t.nvvm.mlir
// RUN: FileCheck %s --check-prefix=NVVM < %t.nvvm.mlir
// RUN: FileCheck %s --check-prefix=CHAIN < %t.nvvm.mlir
// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: coro-translate %s --emit=ptx -O2 | FileCheck %s --check-prefix=PTX
// The CPU computes the same with heap control blocks (the module without
// its kernel and without coro.alloc = "arena", which only the device has).
// RUN: sed -e '/^func.func @kernel/,$d' -e 's/, coro.alloc = "arena"//' %s > %t.cpu.mlir
// RUN: cat %S/Inputs/run-main.mlir >> %t.cpu.mlir
// RUN: coro-run %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// RUN: coro-run --route=mlir-split -O2 %t.cpu.mlir | FileCheck %s --check-prefix=VALUES
// (retcon-kernel.test validates the PTX with ptxas, emulated.test runs the
// device code on the host, retcon-kernel-run.test on a GPU.)

// retcon and retcon.once coroutines on the device. A handle is the
// coroutine's control block (docs/retcon-lowering.md), and the frame lives
// in the block's buffer. The block comes from the thread's arena (@acc,
// coro.alloc = "arena") or, where coro-elide proves the handle stays in
// its caller, from the caller's stack (@steps and @cell in @run, whose
// handles only @run and the helper @drain use). @acc takes a value on
// every resume and publishes the running sum, @steps yields five times
// (five continuations, each tested and called directly: the CPU keeps an
// indirect call past four), @cell (retcon.once) yields once and ends with
// what it was resumed with. Thread t stores
// ((t + 1 + ... + (t + 3) + t) * 1000 + sum of @steps(t)) * 100000 + cell.
//
// The control block's bytes, for the host to size the arena:
// NVVM-DAG: llvm.mlir.global external constant @acc_frame_size(80 : i64)
// NVVM-DAG: llvm.mlir.global external constant @steps_frame_size(80 : i64)
// NVVM-DAG: llvm.mlir.global external constant @cell_frame_size(80 : i64)
// The entries return the handle to run next to the resume loop:
// NVVM-DAG: llvm.func internal fastcc @acc.coro.resume(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// NVVM-DAG: llvm.func internal fastcc @cell.coro.cleanup(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// A resume of a handle from a call of @acc calls its entry directly:
// NVVM-DAG: %[[A:.*]] = llvm.call @acc(%{{.*}}) {coro.elided = false}
// NVVM-DAG: %[[N:.*]] = llvm.call fastcc @acc.coro.resume(%[[A]])
// NVVM-DAG: llvm.call @__coro_device_run(%[[N]])
// NVVM-DAG: llvm.call @__coro_arena_alloc(
// The elided control blocks: allocas of @run, whose destroy entry
// (NAME.coro.cleanup) frees nothing.
// NVVM-DAG: %[[SB:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, struct<(ptr, i64)>, ptr, i8, array<4 x i64>)>
// NVVM-DAG: llvm.call @steps.elided(%[[SB]], %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// NVVM-DAG: llvm.call @cell.elided(%{{.*}}, %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// NVVM-DAG: llvm.call fastcc @cell.coro.cleanup(
// The control block keeps a state number, not a continuation's address
// (coro.continuation_state): the entry tests the numbers and calls each
// continuation directly.
// CHAIN-LABEL: llvm.func internal fastcc @steps.coro.resume(
// CHAIN: %[[S4:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHAIN-NEXT: %[[P4:.*]] = llvm.inttoptr %[[S4]] : i64 to !llvm.ptr
// CHAIN-NEXT: llvm.icmp "eq" %{{.*}}, %[[P4]] : !llvm.ptr
// CHAIN: llvm.call @steps.coro.ramp.resume.3(
// CHAIN: llvm.call @steps.coro.ramp.resume.4(
// RUN: not grep -n "addressof @[a-z]*.coro.ramp.resume" %t.nvvm.mlir
// The resume loop tests a handle against every resume entry:
// CHAIN-LABEL: llvm.func internal @__coro_device_run(
// CHAIN: llvm.mlir.addressof @acc.coro.resume
// CHAIN: llvm.mlir.addressof @steps.coro.resume
// CHAIN: llvm.mlir.addressof @cell.coro.resume
// CHAIN: llvm.intr.trap
// PTX-NOT: malloc
// PTX-NOT: prototype
// PTX-DAG: .visible .global .align 8 .u64 acc_frame_size = 80;
// PTX-DAG: .visible .entry kernel(
// VALUES: 603300007
// VALUES-NEXT: 1106301007
// VALUES-NEXT: 1710102007
// VALUES-NEXT: 2414703007
// VALUES-NEXT: 3220104007
// VALUES-NEXT: 4126305007

func.func @acc(%base: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.alloc = "arena"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  cf.br ^loop(%base : i64)
^loop(%sum: i64):
  %d, %x = "coro.yield"(%sum) : (i64) -> (i1, i64)
  cf.cond_br %d, ^done, ^add
^add:
  %s2 = arith.addi %sum, %x : i64
  cf.br ^loop(%s2 : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @steps(%t: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %d0 = "coro.yield"(%t) : (i64) -> i1
  %a = arith.addi %t, %c1 : i64
  %d1 = "coro.yield"(%a) : (i64) -> i1
  %b = arith.muli %a, %c2 : i64
  %d2 = "coro.yield"(%b) : (i64) -> i1
  %c = arith.addi %b, %c3 : i64
  %d3 = "coro.yield"(%c) : (i64) -> i1
  %e = arith.muli %c, %c : i64
  %d4 = "coro.yield"(%e) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @cell(%v: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d, %new = "coro.yield"(%v) : (i64) -> (i1, i64)
  cf.cond_br %d, ^abort, ^commit
^commit:
  %c1000 = arith.constant 1000 : i64
  %m = arith.muli %v, %c1000 : i64
  %r = arith.addi %m, %new : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^abort:
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// the sum of what a generator publishes until it ends
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
  %c3 = arith.constant 3 : i64
  %c7 = arith.constant 7 : i64
  %a = call @acc(%t) : (i64) -> !coro.handle<i64>
  %n = arith.addi %t, %c3 : i64
  %n1 = arith.addi %n, %c1 : i64
  scf.for %i = %c1 to %n1 step %c1 : i64 {
    "coro.resume"(%a, %i) : (!coro.handle<i64>, i64) -> ()
  }
  %av = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %s = call @steps(%t) : (i64) -> !coro.handle<i64>
  %sv = call @drain(%s) : (!coro.handle<i64>) -> i64
  %c = call @cell(%t) : (i64) -> !coro.handle<i64>
  "coro.resume"(%c, %c7) : (!coro.handle<i64>, i64) -> ()
  %cv = "coro.promise"(%c) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%c) : (!coro.handle<i64>) -> ()
  %k1000 = arith.constant 1000 : i64
  %k100000 = arith.constant 100000 : i64
  %x = arith.muli %av, %k1000 : i64
  %y = arith.addi %x, %sv : i64
  %z = arith.muli %y, %k100000 : i64
  %r = arith.addi %z, %cv : i64
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
