// RUN: coro-translate --route=llvm %s --emit=split-llvm -O2 | FileCheck %s

// At -O2 LLVM's pipeline splits the generator, inlines the ramp and resume
// into the caller, elides the frame and folds the whole loop: the caller
// returns the constant sum and no malloc is left in it.
// CHECK-LABEL: define {{.*}}i32 @sum()
// CHECK-NOT: malloc
// CHECK-NOT: call
// CHECK: ret i32 45
// CHECK-NEXT: }
func.func @range(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^done
^body:
  %destroyed = "coro.yield"(%i) : (i32) -> i1
  %next = arith.addi %i, %c1 : i32
  cf.cond_br %destroyed, ^done, ^loop(%next : i32)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @sum() -> i32 {
  %n = arith.constant 10 : i32
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %g = call @range(%n) : (i32) -> !coro.handle<i32>
  %sum = scf.while (%acc = %zero) : (i32) -> i32 {
    %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i32
  } do {
  ^bb0(%acc: i32):
    %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
    %s = arith.addi %acc, %v : i32
    "coro.resume"(%g) : (!coro.handle<i32>) -> ()
    scf.yield %s : i32
  }
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %sum : i32
}
