// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s
// RUN: coro-run %s --route=mlir-split | FileCheck %s
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s
// RUN: coro-opt --coro-lower %s | FileCheck %s --check-prefix=IR
// RUN: sed 's/^func.func @main/func.func @unused_main/; s/^\/\/ ESCAPE: //' %s > %t.escape.mlir
// RUN: not coro-opt --coro-lower %t.escape.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR

// coro.alloc = "elide" on a retcon coroutine: the frontend asserts that
// every handle stays in its caller, coro-elide checks it, and the retcon
// conversion puts each control block (whose buffer holds the frame) in
// the caller: @sum calls @gen.elided on an alloca, and nothing is
// allocated. A caller that lets the handle escape is a located error.
// @gen(n) yields 0 .. n - 1; main sums two of them: 0+1+2+3 and 0+...+9.
// CHECK: {{^}}6{{$}}
// CHECK-NEXT: {{^}}45{{$}}
// IR-LABEL: llvm.func @sum(
// IR-NOT: @malloc
// IR: llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, struct<(ptr, i64)>, ptr, i8, array<4 x i64>)>
// IR-NOT: @malloc
// IR: llvm.call @gen.elided(
// IR-NOT: @malloc
// IR: llvm.return
// ERROR: escape.mlir:[[# @LINE + 3]]:3: error: coro.alloc = "elide" on 'gen' asserts that its frame can live in 'escape', but the handle is returned
// ESCAPE: func.func @escape(%n: i64) -> !coro.handle<i64> {
// ESCAPE:   %g = call @gen(%n) : (i64) -> !coro.handle<i64>
// ESCAPE:   return %g : !coro.handle<i64>
// ESCAPE: }

func.func @gen(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %d = "coro.yield"(%i) : (i64) -> i1
  %i1 = arith.addi %i, %c1 : i64
  cf.br ^loop(%i1 : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @sum(%n: i64) -> i64 {
  %g = call @gen(%n) : (i64) -> !coro.handle<i64>
  %true = arith.constant true
  %c0 = arith.constant 0 : i64
  %s = scf.while (%acc = %c0) : (i64) -> i64 {
    %dn = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %dn, %true : i1
    scf.condition(%go) %acc : i64
  } do {
  ^bb0(%acc: i64):
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    %a2 = arith.addi %acc, %v : i64
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield %a2 : i64
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %s : i64
}

func.func @main() -> (i64, i64) {
  %c4 = arith.constant 4 : i64
  %c10 = arith.constant 10 : i64
  %a = call @sum(%c4) : (i64) -> i64
  %b = call @sum(%c10) : (i64) -> i64
  return %a, %b : i64, i64
}
