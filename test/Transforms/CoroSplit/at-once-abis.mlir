// RUN: coro-opt %s --coro-lower --coro-split > %t.threads.mlir
// RUN: coro-opt %s --coro-lower --coro-split --mlir-disable-threading > %t.one.mlir
// RUN: diff %t.threads.mlir %t.one.mlir
// RUN: FileCheck %s < %t.threads.mlir

// --coro-split splits coroutines of every ABI at once (at-once.mlir has
// the switch ones): a module with a switch, a retcon, a retcon.once and an
// async coroutine, none naming another, gives the one-at-a-time split's
// output byte for byte: each coroutine's parts in the order the split
// makes them, and the retcon coroutine's continuations numbered (its
// entries compare the state with numbers, not addresses), which the
// one-at-a-time path records for a coroutine the conversion marked.

// CHECK-LABEL: llvm.func internal fastcc @gen1.coro.resume(
// CHECK: llvm.inttoptr
// CHECK: llvm.call @gen1.coro.ramp.resume.0(
// CHECK-LABEL: llvm.func internal fastcc @gen3.coro.resume(
// CHECK-LABEL: llvm.func internal fastcc @gen0.resume(
// CHECK: llvm.func internal @gen1.coro.ramp.resume.0(
// CHECK: llvm.func internal @gen1.coro.ramp.resume.2(
// CHECK: llvm.func internal @gen2.coro.ramp.resume.0(
// CHECK: llvm.func internal swifttailcc @gen3.coro.async.resume.0(
// CHECK-NOT: presplitcoroutine

func.func @gen0(%n: i64, %a: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
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
func.func @drive0(%n: i64) -> i64 {
  %a = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %h = func.call @gen0(%n, %a) : (i64, i64) -> !coro.handle<i64>
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
func.func @gen1(%n: i64, %a: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
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
func.func @drive1(%n: i64) -> i64 {
  %a = arith.constant 2 : i64
  %c0 = arith.constant 0 : i64
  %h = func.call @gen1(%n, %a) : (i64, i64) -> !coro.handle<i64>
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
func.func @gen2(%n: i64, %a: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %b = arith.muli %a, %n : i64
  %x = arith.addi %a, %n : i64
  %d = "coro.yield"(%x) : (i64) -> i1
  cf.cond_br %d, ^abort, ^commit
^commit:
  %y = arith.addi %x, %b : i64
  %z = arith.addi %y, %b : i64
  %r = arith.addi %y, %z : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^abort:
  "coro.end"(%h, %x) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func @drive2(%n: i64) -> i64 {
  %a = arith.constant 3 : i64
  %h = func.call @gen2(%n, %a) : (i64, i64) -> !coro.handle<i64>
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %f = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  %s = arith.addi %v, %f : i64
  return %s : i64
}
func.func @gen3(%n: i64, %a: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
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
func.func @drive3(%n: i64) -> i64 {
  %a = arith.constant 4 : i64
  %c0 = arith.constant 0 : i64
  %h = func.call @gen3(%n, %a) : (i64, i64) -> !coro.handle<i64>
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
  %n = arith.constant 4 : i64
  %r0 = func.call @drive0(%n) : (i64) -> i64
  %r1 = func.call @drive1(%n) : (i64) -> i64
  %r2 = func.call @drive2(%n) : (i64) -> i64
  %r3 = func.call @drive3(%n) : (i64) -> i64
  %s1 = arith.addi %r0, %r1 : i64
  %s2 = arith.addi %s1, %r2 : i64
  %s3 = arith.addi %s2, %r3 : i64
  return %s3 : i64
}
