// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefixes=CHECK,HEAP
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: coro-run --route=mlir-split --no-elide %s | FileCheck %s --check-prefixes=CHECK,HEAP
// RUN: coro-opt --coro-lower-switch --coro-split --remarks-filter=coro-elide %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A task tree with awaits: @root awaits four @node tasks one after the
// other, each awaiting two @leaf tasks; main drives @root to its end. Every frame comes from
// @count_alloc. --coro-elide proves every handle local to its creator and
// destroyed there, so under route B (at -O0 and -O2) the leaves' frames
// are nested in the nodes' frames, the nodes' in the root's, and the
// root's is on main's stack: one tree, no allocation. Route A at -O0, and
// route B with --no-elide, allocate all 13 (1 + 4 + 8); route A at -O2
// depends on LLVM's inliner.
// The value: a node x awaits leaves x and x + 1; the root sums its nodes
// 1, 10, 2 and 11: 3 + 21 + 5 + 23 = 52.
// CHECK: 52
// HEAP-NEXT: 13
// HEAP-NEXT: 13
// NONE-NEXT: 0
// NONE-NEXT: 0
// REMARK-DAG: remark: 'leaf' elided in 'node'
// REMARK-DAG: remark: 'node' elided in 'root'
// REMARK-DAG: remark: 'root' elided in 'main'
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

// yields once (lazy), then ends with x
func.func @leaf(%x: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  "coro.yield"() : () -> i1
  "coro.end"(%h, %x) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @node(%x: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
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

func.func @root() -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc_fn = @count_alloc, coro.free_fn = @count_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c10 = arith.constant 10 : i64
  %c11 = arith.constant 11 : i64
  %a = call @node(%c1) : (i64) -> !coro.handle<i64>
  %ra = "coro.await"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %b = call @node(%c10) : (i64) -> !coro.handle<i64>
  %rb = "coro.await"(%b) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%b) : (!coro.handle<i64>) -> ()
  %a2 = call @node(%c2) : (i64) -> !coro.handle<i64>
  %ra2 = "coro.await"(%a2) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a2) : (!coro.handle<i64>) -> ()
  %b2 = call @node(%c11) : (i64) -> !coro.handle<i64>
  %rb2 = "coro.await"(%b2) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%b2) : (!coro.handle<i64>) -> ()
  %s1 = arith.addi %ra, %rb : i64
  %s2 = arith.addi %ra2, %rb2 : i64
  %s3 = arith.addi %s1, %s2 : i64
  "coro.end"(%h, %s3) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @main() -> (i64, i64, i64) {
  %t = call @root() : () -> !coro.handle<i64>
  %true = arith.constant true
  scf.while : () -> () {
    %d = "coro.done"(%t) : (!coro.handle<i64>) -> i1
    %go = arith.xori %d, %true : i1
    scf.condition(%go)
  } do {
    "coro.resume"(%t) : (!coro.handle<i64>) -> ()
    scf.yield
  }
  %v = "coro.promise"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  %ga = llvm.mlir.addressof @allocs : !llvm.ptr
  %gf = llvm.mlir.addressof @frees : !llvm.ptr
  %na = llvm.load %ga : !llvm.ptr -> i64
  %nf = llvm.load %gf : !llvm.ptr -> i64
  return %v, %na, %nf : i64, i64, i64
}
