// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=ELIDED
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=ELIDED
// RUN: coro-run --route=mlir-split --no-elide %s | FileCheck %s --check-prefix=HEAP
// RUN: coro-run --route=mlir-split --no-elide -O2 %s | FileCheck %s --check-prefix=HEAP
// RUN: sed 's/coro.abi = "switch"/coro.abi = "retcon"/' %s > %t.retcon.mlir
// RUN: coro-run --route=mlir-split %t.retcon.mlir | FileCheck %s --check-prefix=ELIDED
// RUN: coro-run --route=mlir-split -O2 %t.retcon.mlir | FileCheck %s --check-prefix=ELIDED
// RUN: coro-run --route=mlir-split --no-elide %t.retcon.mlir | FileCheck %s --check-prefix=HEAP

// A dynamic-size buffer live across a suspension of a coroutine with its
// own allocator (coro.alloc_fn / coro.free_fn, which count their calls):
// route B takes the buffer's memory from that allocator too, and gives it
// back through its deallocator. The coroutine yields the buffer's last
// element (n - 1 = 4) and ends with the sum 0 + 1 + 2 + 3 + 4 = 10; main
// returns those, then allocations and frees. The frame is elided into
// main (one allocation: the buffer), or, with --no-elide, allocated too
// (two). Under retcon the allocator is the id's (the conversion passes
// coro.alloc_fn there), which gives the buffer, and the control block
// (whose buffer holds the frame) is elided into main (one), or with
// --no-elide allocated too (two).
// ELIDED: {{^}}4{{$}}
// ELIDED-NEXT: {{^}}10{{$}}
// ELIDED-NEXT: {{^}}1{{$}}
// ELIDED-NEXT: {{^}}1{{$}}
// HEAP: {{^}}4{{$}}
// HEAP-NEXT: {{^}}10{{$}}
// HEAP-NEXT: {{^}}2{{$}}
// HEAP-NEXT: {{^}}2{{$}}
llvm.mlir.global internal @seen() : !llvm.ptr {
  %z = llvm.mlir.zero : !llvm.ptr
  llvm.return %z : !llvm.ptr
}
llvm.mlir.global internal @allocs(0 : i64) : i64
llvm.mlir.global internal @frees(0 : i64) : i64
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
  %g = llvm.mlir.addressof @frees : !llvm.ptr
  %n = llvm.load %g : !llvm.ptr -> i64
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  llvm.store %n1, %g : i64, !llvm.ptr
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  return
}

func.func @sum(%n: index) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %buf = memref.alloca(%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %buf[%i] : memref<?xi64>
  }
  // The buffer's address escapes (to @seen): at -O2, where LLVM's pre-split
  // passes run before route B's split, its values cannot be forwarded
  // across the suspension, so the buffer stays.
  %bi = memref.extract_aligned_pointer_as_index %buf : memref<?xi64> -> index
  %bw = arith.index_cast %bi : index to i64
  %bp = llvm.inttoptr %bw : i64 to !llvm.ptr
  %sa = llvm.mlir.addressof @seen : !llvm.ptr
  llvm.store %bp, %sa : !llvm.ptr, !llvm.ptr
  %last = arith.subi %n, %c1 : index
  %l = memref.load %buf[%last] : memref<?xi64>
  "coro.yield"(%l) : (i64) -> i1
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = memref.load %buf[%i] : memref<?xi64>
    %a = arith.addi %acc, %v : i64
    scf.yield %a : i64
  }
  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64, i64, i64) {
  %c5 = arith.constant 5 : index
  %g = call @sum(%c5) : (index) -> !coro.handle<i64>
  %y = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %f = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %ga = llvm.mlir.addressof @allocs : !llvm.ptr
  %a = llvm.load %ga : !llvm.ptr -> i64
  %gf = llvm.mlir.addressof @frees : !llvm.ptr
  %fr = llvm.load %gf : !llvm.ptr -> i64
  return %y, %f, %a, %fr : i64, i64, i64, i64
}
