// RUN: coro-opt %s --coro-lower --coro-split --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s
// RUN: coro-opt %s --coro-lower --coro-split --remarks-filter=coro-split -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: coro-opt %s --coro-lower --coro-split | FileCheck %s --check-prefix=PARTS
// RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
// RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
// RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

// A value kept across a suspension is recomputed after it through a chain
// of cheap ops whose own values no suspension keeps there, as long as
// every value the chain starts from is kept there anyway (so the frame
// only shrinks) and the chain is at most four ops long. In each loop %y =
// %x + %b crosses the second suspension, %x = %i + %a does not, and %i,
// %a and %b cross it: %y is rebuilt from %i and %a through %x. LLVM's
// CoroSplit rebuilds such chains too (its frames for @sw and @rc are as
// small).

// A clone recomputes a value only where it uses it, and reloads what the
// recomputation needs only then: @sw.destroy and @sw.cleanup, which never
// go on after a suspension, read nothing from the frame.
// PARTS-LABEL: llvm.func internal fastcc @sw.destroy(
// PARTS-NOT: llvm.load
// PARTS: llvm.call @free
// PARTS-LABEL: llvm.func internal fastcc @sw.cleanup(
// PARTS-NOT: llvm.load
// PARTS-LABEL: llvm.func internal @sw.elided(

// SPLIT-DAG: remark: Split 'sw' (frame_size=64, align=16)
// SPLIT-DAG: remark: Split 'rc.coro.ramp' (frame_size=24, align=8)
// SPLIT-DAG: remark: Split 'as.coro.async' (frame_size=24, align=8)

func.func @sw(%n: i64, %a: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %b = arith.muli %a, %n : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:8: remark: no frame field in 'sw': value of i64, recomputed after suspensions 0{{$}}
  %x = arith.addi %i, %a : i64
  "coro.yield"(%x) : (i64) -> i1
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:8: remark: no frame field in 'sw': value of i64, recomputed after suspensions 1{{$}}
  %y = arith.addi %x, %b : i64
  "coro.yield"(%y) : (i64) -> i1
  %z = arith.addi %y, %b : i64
  "coro.yield"(%z) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @rc(%n: i64, %a: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %b = arith.muli %a, %n : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %x = arith.addi %i, %a : i64
  "coro.yield"(%x) : (i64) -> i1
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:8: remark: no frame field in 'rc.coro.ramp': value of i64, recomputed after suspensions 1{{$}}
  %y = arith.addi %x, %b : i64
  "coro.yield"(%y) : (i64) -> i1
  %z = arith.addi %y, %b : i64
  "coro.yield"(%z) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @as(%n: i64, %a: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %b = arith.muli %a, %n : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %x = arith.addi %i, %a : i64
  "coro.yield"(%x) : (i64) -> i1
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:8: remark: no frame field in 'as.coro.async': value of i64, recomputed after suspensions 1{{$}}
  %y = arith.addi %x, %b : i64
  "coro.yield"(%y) : (i64) -> i1
  %z = arith.addi %y, %b : i64
  "coro.yield"(%z) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// Chains of up to four ops are rebuilt (%f4 through %c4 .. %c1), longer
// ones are not (%f5 through %c5 .. %c1): %f5 keeps its field. Two values
// recomputed through one chain value (%s1 and %s2 through %x) rebuild it
// once. A chain that starts from a value the suspension does not keep
// (%w from the block argument %q) is not rebuilt: %v keeps its field
// rather than adding %q's.
func.func @limits(%p: i64, %r: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c1 = arith.muli %p, %p : i64
  %c2 = arith.addi %c1, %p : i64
  %c3 = arith.muli %c2, %p : i64
  %c4 = arith.addi %c3, %r : i64
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:9: remark: no frame field in 'limits': value of i64, recomputed after suspensions 0, 1{{$}}
  %f4 = arith.addi %c4, %p : i64
  %c5 = arith.muli %c4, %r : i64
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:9: remark: frame field of 'limits' at offset {{[0-9]+}} (size 8, align 8): value of i64, kept across suspensions 0, 1{{$}}
  %f5 = arith.addi %c5, %p : i64
  %x = arith.subi %p, %r : i64
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:9: remark: no frame field in 'limits': value of i64, recomputed after suspensions 0, 1{{$}}
  %s1 = arith.muli %x, %r : i64
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:9: remark: no frame field in 'limits': value of i64, recomputed after suspensions 0, 1{{$}}
  %s2 = arith.addi %x, %p : i64
  %pp = arith.addi %p, %p : i64
  "coro.yield"(%pp) : (i64) -> i1
  cf.br ^mid(%pp : i64)
^mid(%q: i64):
  %w = arith.muli %q, %r : i64
// CHECK-DAG: remat-chain.mlir:[[@LINE+1]]:8: remark: frame field of 'limits' at offset {{[0-9]+}} (size 8, align 8): value of i64, kept across suspensions 1{{$}}
  %v = arith.addi %w, %p : i64
  "coro.yield"(%w) : (i64) -> i1
  %t1 = arith.addi %f4, %f5 : i64
  %t2 = arith.addi %s1, %s2 : i64
  %t3 = arith.addi %t1, %t2 : i64
  %t4 = arith.addi %t3, %v : i64
  %t5 = arith.addi %t4, %p : i64
  %t6 = arith.addi %t5, %r : i64
  "coro.yield"(%t6) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// Each driver sums what its coroutine yields (the promise after each
// resume) and destroys it; @main adds them up. @sw and @rc with (n, a) =
// (3, 2) yield x, x + 6 and x + 12 for x = 2, 3, 4: 81 each; @as with
// (3, 4) x, x + 12 and x + 24 for x = 4, 5, 6: 153; @limits with (p, r)
// = (3, 5) yields 6, 30 and f4 + f5 + s1 + s2 + v + p + r = 44 + 208 - 10
// + 1 + 33 + 3 + 5 = 284: 320. In all 635.
// OUT: 635
func.func @drive(%h: !coro.handle<i64>) -> i64 {
  %c0 = arith.constant 0 : i64
  cf.br ^l(%c0 : i64)
^l(%s: i64):
  %d = "coro.done"(%h) : (!coro.handle<i64>) -> i1
  cf.cond_br %d, ^e, ^r
^r:
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  %t = arith.addi %s, %v : i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  cf.br ^l(%t : i64)
^e:
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %s : i64
}

func.func @main() -> i64 {
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %h0 = func.call @sw(%c3, %c2) : (i64, i64) -> !coro.handle<i64>
  %r0 = func.call @drive(%h0) : (!coro.handle<i64>) -> i64
  %h1 = func.call @rc(%c3, %c2) : (i64, i64) -> !coro.handle<i64>
  %r1 = func.call @drive(%h1) : (!coro.handle<i64>) -> i64
  %h2 = func.call @as(%c3, %c4) : (i64, i64) -> !coro.handle<i64>
  %r2 = func.call @drive(%h2) : (!coro.handle<i64>) -> i64
  %h3 = func.call @limits(%c3, %c5) : (i64, i64) -> !coro.handle<i64>
  %r3 = func.call @drive(%h3) : (!coro.handle<i64>) -> i64
  %s0 = arith.addi %r0, %r1 : i64
  %s1 = arith.addi %s0, %r2 : i64
  %s2 = arith.addi %s1, %r3 : i64
  return %s2 : i64
}
