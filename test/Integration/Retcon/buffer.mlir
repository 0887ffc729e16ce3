// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// Route B (coro's own --coro-split) gives the same results:
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s
// With the control blocks on the heap:
// RUN: coro-run --route=llvm %s --no-elide | FileCheck %s --check-prefix=HEAP
// RUN: coro-run %s --no-elide --route=mlir-split -O2 | FileCheck %s --check-prefix=HEAP

// coro.buffer sets the size of the buffer in the control block where LLVM
// keeps the frame. @small's frame (six i64 loaded before its yield and
// summed after it) does not fit its 8 bytes: the frame itself comes from
// coro.alloc_fn. @large's fits its 256 bytes. Each runs to its end and is
// destroyed; the allocator counts calls and bytes, and every allocation is
// freed. Both handles stay in @main, so --coro-elide puts their control
// blocks in @main's frame: small: 1 allocation, 1 free (its frame); large:
// none; both sums 21.
// CHECK: {{^}}1{{$}}
// CHECK-NEXT: {{^}}1{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: {{^}}21{{$}}
// CHECK-NEXT: {{^}}21{{$}}
// Without elision the control blocks come from the allocator too: small:
// 2 and 2, large: 1 and 1.
// HEAP: {{^}}2{{$}}
// HEAP-NEXT: {{^}}2{{$}}
// HEAP-NEXT: {{^}}1{{$}}
// HEAP-NEXT: {{^}}1{{$}}
// HEAP-NEXT: {{^}}21{{$}}
// HEAP-NEXT: {{^}}21{{$}}
llvm.mlir.global internal @allocs(0 : i64) : i64
llvm.mlir.global internal @frees(0 : i64) : i64
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

func.func @bump(%g: !llvm.ptr) {
  %n = llvm.load %g : !llvm.ptr -> i64
  %c1 = arith.constant 1 : i64
  %n1 = arith.addi %n, %c1 : i64
  llvm.store %n1, %g : i64, !llvm.ptr
  return
}

func.func @count_alloc(%size: i64) -> !llvm.ptr {
  %g = llvm.mlir.addressof @allocs : !llvm.ptr
  call @bump(%g) : (!llvm.ptr) -> ()
  %p = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  return %p : !llvm.ptr
}

func.func @count_free(%p: !llvm.ptr) {
  %g = llvm.mlir.addressof @frees : !llvm.ptr
  call @bump(%g) : (!llvm.ptr) -> ()
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  return
}

func.func @counts() -> (i64, i64) {
  %a = llvm.mlir.addressof @allocs : !llvm.ptr
  %f = llvm.mlir.addressof @frees : !llvm.ptr
  %na = llvm.load %a : !llvm.ptr -> i64
  %nf = llvm.load %f : !llvm.ptr -> i64
  %z = arith.constant 0 : i64
  llvm.store %z, %a : i64, !llvm.ptr
  llvm.store %z, %f : i64, !llvm.ptr
  return %na, %nf : i64, i64
}

func.func @small(%m: memref<6xi64>) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.buffer = array<i64: 8, 8>, coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  %i4 = arith.constant 4 : index
  %i5 = arith.constant 5 : index
  %a = memref.load %m[%i0] : memref<6xi64>
  %b = memref.load %m[%i1] : memref<6xi64>
  %c = memref.load %m[%i2] : memref<6xi64>
  %d = memref.load %m[%i3] : memref<6xi64>
  %e = memref.load %m[%i4] : memref<6xi64>
  %f = memref.load %m[%i5] : memref<6xi64>
  "coro.yield"(%a) : (i64) -> i1
  %s1 = arith.addi %a, %b : i64
  %s2 = arith.addi %s1, %c : i64
  %s3 = arith.addi %s2, %d : i64
  %s4 = arith.addi %s3, %e : i64
  %s5 = arith.addi %s4, %f : i64
  "coro.end"(%h, %s5) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @large(%m: memref<6xi64>) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.buffer = array<i64: 256, 16>, coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  %i4 = arith.constant 4 : index
  %i5 = arith.constant 5 : index
  %a = memref.load %m[%i0] : memref<6xi64>
  %b = memref.load %m[%i1] : memref<6xi64>
  %c = memref.load %m[%i2] : memref<6xi64>
  %d = memref.load %m[%i3] : memref<6xi64>
  %e = memref.load %m[%i4] : memref<6xi64>
  %f = memref.load %m[%i5] : memref<6xi64>
  "coro.yield"(%a) : (i64) -> i1
  %s1 = arith.addi %a, %b : i64
  %s2 = arith.addi %s1, %c : i64
  %s3 = arith.addi %s2, %d : i64
  %s4 = arith.addi %s3, %e : i64
  %s5 = arith.addi %s4, %f : i64
  "coro.end"(%h, %s5) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64, i64, i64, i64, i64) {
  %m = memref.alloca() : memref<6xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1 : i64
  scf.for %i = %c0 to %c6 step %c1 {
    %v = arith.index_cast %i : index to i64
    %v1 = arith.addi %v, %one : i64
    memref.store %v1, %m[%i] : memref<6xi64>
  }
  %s = call @small(%m) : (memref<6xi64>) -> !coro.handle<i64>
  "coro.resume"(%s) : (!coro.handle<i64>) -> ()
  %ss = "coro.promise"(%s) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%s) : (!coro.handle<i64>) -> ()
  %sa, %sf = call @counts() : () -> (i64, i64)
  %l = call @large(%m) : (memref<6xi64>) -> !coro.handle<i64>
  "coro.resume"(%l) : (!coro.handle<i64>) -> ()
  %ls = "coro.promise"(%l) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%l) : (!coro.handle<i64>) -> ()
  %la, %lf = call @counts() : () -> (i64, i64)
  return %sa, %sf, %la, %lf, %ss, %ls : i64, i64, i64, i64, i64, i64
}
