// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefixes=CHECK,A
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefixes=CHECK,B
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefixes=CHECK,B
// RUN: coro-run --route=mlir-split --checked %s | FileCheck %s --check-prefixes=CHECK,B

// The cases --coro-elide decides, run: each entry of main's results is one
// case's value, then the number of frames it took from @count_alloc.
// Route A at -O0 allocates every frame; route B allocates only the frames
// --coro-elide could not prove local (at -O0 and -O2 alike).
//
// 1. a loop that creates, drives and destroys a generator each time
//    (elided: one frame in main, reused): sum over 5 rounds of 0+1+2 = 15
// CHECK: 15
// A-NEXT: 5
// B-NEXT: 0
// 2. a handle passed to a helper that only resumes it and reads it
//    (elided): 0 + 1 + 2 = 3
// CHECK: 3
// A-NEXT: 1
// B-NEXT: 0
// 3. a handle destroyed in the caller on one path only (heap): the other
//    path leaves it to a helper that destroys it only when told to (and
//    is told to, so nothing leaks); values 0 then 0
// CHECK: 0
// A-NEXT: 2
// B-NEXT: 2
// 4. recursive tasks, fib(6) = 8: the outer call's frame is elided, the 24
//    recursive calls keep the heap (a frame cannot hold itself)
// CHECK: 8
// A-NEXT: 25
// B-NEXT: 24
llvm.mlir.global internal @allocs(0 : i64) : i64
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

func.func @count_alloc(%size: i64) -> !llvm.ptr {
  %g = llvm.mlir.addressof @allocs : !llvm.ptr
  %n = llvm.load %g : !llvm.ptr -> i64
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  llvm.store %n1, %g : i64, !llvm.ptr
  %p = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  return %p : !llvm.ptr
}
func.func @count_free(%p: !llvm.ptr) {
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  return
}
func.func @allocs_since(%before: i64) -> i64 {
  %g = llvm.mlir.addressof @allocs : !llvm.ptr
  %n = llvm.load %g : !llvm.ptr -> i64
  %d = arith.subi %n, %before : i64
  return %d : i64
}
func.func @allocs_now() -> i64 {
  %g = llvm.mlir.addressof @allocs : !llvm.ptr
  %n = llvm.load %g : !llvm.ptr -> i64
  return %n : i64
}

// yields 0, 1, 2
func.func @three() -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  "coro.yield"(%c0) : (i64) -> i1
  "coro.yield"(%c1) : (i64) -> i1
  "coro.yield"(%c2) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// resumes, then reads the value: drives but keeps nothing
func.func @next(%g: !coro.handle<i64>) -> i64 {
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  return %v : i64
}

func.func @sum_three(%g: !coro.handle<i64>) -> i64 {
  %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  %b = call @next(%g) : (!coro.handle<i64>) -> i64
  %c = call @next(%g) : (!coro.handle<i64>) -> i64
  %s = arith.addi %a, %b : i64
  %t = arith.addi %s, %c : i64
  return %t : i64
}

func.func @loop() -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %z) -> (i64) {
    %g = func.call @three() : () -> !coro.handle<i64>
    %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    %b = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    %c = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
    %s = arith.addi %a, %b : i64
    %t = arith.addi %s, %c : i64
    %u = arith.addi %acc, %t : i64
    scf.yield %u : i64
  }
  return %r : i64
}

func.func @helper() -> i64 {
  %g = call @three() : () -> !coro.handle<i64>
  %v = call @sum_three(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %v : i64
}

func.func @some_paths(%kill: i1) -> i64 {
  %g = call @three() : () -> !coro.handle<i64>
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  cf.cond_br %kill, ^kill, ^keep
^kill:
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %v : i64
^keep:
  %true = arith.constant true
  call @maybe_finish(%g, %true) : (!coro.handle<i64>, i1) -> ()
  return %v : i64
}

func.func @maybe_finish(%g: !coro.handle<i64>, %kill: i1) {
  cf.cond_br %kill, ^kill, ^keep
^kill:
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
^keep:
  return
}

// fib(n) as a task: awaits fib(n-1) and fib(n-2) for n >= 2
func.func @fib(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
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

func.func @run_fib() -> i64 {
  %c6 = arith.constant 6 : i64
  %t = call @fib(%c6) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  return %v : i64
}

func.func @main() -> (i64, i64, i64, i64, i64, i64, i64, i64) {
  %true = arith.constant true
  %false = arith.constant false
  %n0 = call @allocs_now() : () -> i64
  %v1 = call @loop() : () -> i64
  %a1 = call @allocs_since(%n0) : (i64) -> i64
  %n1 = call @allocs_now() : () -> i64
  %v2 = call @helper() : () -> i64
  %a2 = call @allocs_since(%n1) : (i64) -> i64
  %n2 = call @allocs_now() : () -> i64
  %v3a = call @some_paths(%true) : (i1) -> i64
  %v3b = call @some_paths(%false) : (i1) -> i64
  %v3 = arith.addi %v3a, %v3b : i64
  %a3 = call @allocs_since(%n2) : (i64) -> i64
  %n3 = call @allocs_now() : () -> i64
  %v4 = call @run_fib() : () -> i64
  %a4 = call @allocs_since(%n3) : (i64) -> i64
  return %v1, %a1, %v2, %a2, %v3, %a3, %v4, %a4 : i64, i64, i64, i64, i64, i64, i64, i64
}
