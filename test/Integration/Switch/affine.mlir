// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: sed 's/coro.abi = "switch"/coro.abi = "retcon"/' %s > %t.retcon.mlir
// RUN: coro-run --route=llvm %t.retcon.mlir | FileCheck %s
// RUN: sed 's/coro.abi = "switch"/coro.abi = "async"/' %s > %t.async.mlir
// RUN: coro-run --route=llvm -O2 %t.async.mlir | FileCheck %s

// Suspensions inside affine.for and affine.if (coro-verify allows them):
// the pipelines lower affine to scf, then to a CFG, before the coroutine
// conversions. The generator yields i for i in [2, 6) and 100 * i for
// i = 4; @main sums what it yields: 2 + 3 + 4 + 400 + 5.
// CHECK: 414
func.func @g() -> !coro.handle<index> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<index>
  %c100 = arith.constant 100 : index
  affine.for %i = 2 to 6 {
    %d = "coro.yield"(%i) : (index) -> i1
    affine.if affine_set<(d0) : (d0 - 4 == 0)>(%i) {
      %x = arith.muli %i, %c100 : index
      %d2 = "coro.yield"(%x) : (index) -> i1
    }
  }
  "coro.end"(%h) : (!coro.handle<index>) -> ()
  return %h : !coro.handle<index>
}
func.func @main() -> index {
  %zero = arith.constant 0 : index
  %true = arith.constant true
  %g = call @g() : () -> !coro.handle<index>
  %sum = scf.while (%acc = %zero) : (index) -> index {
    %done = "coro.done"(%g) : (!coro.handle<index>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : index
  } do {
  ^bb0(%acc: index):
    %v = "coro.promise"(%g) : (!coro.handle<index>) -> index
    %s = arith.addi %acc, %v : index
    "coro.resume"(%g) : (!coro.handle<index>) -> ()
    scf.yield %s : index
  }
  "coro.destroy"(%g) : (!coro.handle<index>) -> ()
  return %sum : index
}
