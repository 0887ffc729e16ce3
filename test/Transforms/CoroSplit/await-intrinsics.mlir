// RUN: coro-run --route=llvm %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split %s | FileCheck %s --check-prefix=OUT
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s --check-prefix=OUT
// RUN: coro-opt --coro-split %s | FileCheck %s

// The await.suspend intrinsics as clang emits them. `.bool`: the save, then
// the wrapper's answer decides in the IR whether the suspend runs at all
// (the save and the suspend are in different blocks); `.void`: the wrapper
// runs between the save and the final suspend. @maybe suspends every other
// time (calls 1..4: no, yes, no, yes), @record adds 100 at the final
// suspension: main resumes twice, so 2 * 1000 + 104.
// OUT: {{^}}2104{{$}}

// The wrappers are named (llvm.mlir.addressof): the split calls them
// directly.
// CHECK-LABEL: llvm.func @co(
// CHECK: %[[B:.*]] = llvm.call @maybe(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i1
// CHECK: llvm.cond_br %[[B]]
// CHECK-LABEL: llvm.func internal fastcc @co.resume(
// CHECK: llvm.call @maybe(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i1
// The final suspension clears the resume pointer before @record runs.
// CHECK: llvm.store %{{.*}}, %[[FR:.*]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.call @record(%{{.*}}, %[[FR]]) : (!llvm.ptr, !llvm.ptr) -> ()

llvm.mlir.global internal @calls(0 : i32) : i32
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

llvm.func @maybe(%awaiter: !llvm.ptr, %h: !llvm.ptr) -> i1 {
  %g = llvm.mlir.addressof @calls : !llvm.ptr
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %n = llvm.load %g : !llvm.ptr -> i32
  %m = llvm.add %n, %c1 : i32
  llvm.store %m, %g : i32, !llvm.ptr
  %odd = llvm.and %m, %c1 : i32
  %even = llvm.icmp "eq" %odd, %c0 : i32
  llvm.return %even : i1
}

llvm.func @record(%awaiter: !llvm.ptr, %h: !llvm.ptr) {
  %g = llvm.mlir.addressof @calls : !llvm.ptr
  %c100 = llvm.mlir.constant(100 : i32) : i32
  %n = llvm.load %g : !llvm.ptr -> i32
  %m = llvm.add %n, %c100 : i32
  llvm.store %m, %g : i32, !llvm.ptr
  llvm.return
}

llvm.func @co(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.intr.coro.size : i64
  %mem = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.intr.coro.begin %id, %mem : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %maybe = llvm.mlir.addressof @maybe : !llvm.ptr
  %record = llvm.mlir.addressof @record : !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%i: i32):
  %more = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %more, ^await, ^final
^await:
  %save = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  %go = llvm.call_intrinsic "llvm.coro.await.suspend.bool"(%null, %hdl, %maybe) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> i1
  llvm.cond_br %go, ^suspend, ^next
^suspend:
  %s = llvm.intr.coro.suspend %save, %false : i8
  llvm.switch %s : i8, ^ret [
    0: ^next,
    1: ^cleanup
  ]
^next:
  %i2 = llvm.add %i, %c1 : i32
  llvm.br ^loop(%i2 : i32)
^final:
  %fsave = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  llvm.call_intrinsic "llvm.coro.await.suspend.void"(%null, %hdl, %record) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fs = llvm.intr.coro.suspend %fsave, %true : i8
  llvm.switch %fs : i8, ^ret [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.intr.coro.free %id, %hdl : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^ret
^ret:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

llvm.func @main() -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c1000 = llvm.mlir.constant(1000 : i32) : i32
  %h = llvm.call @co(%c4) : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%count: i32):
  %done = llvm.call_intrinsic "llvm.coro.done"(%h) : (!llvm.ptr) -> i1
  llvm.cond_br %done, ^exit, ^body
^body:
  llvm.intr.coro.resume %h : !llvm.ptr
  %c2 = llvm.add %count, %c1 : i32
  llvm.br ^loop(%c2 : i32)
^exit:
  llvm.call_intrinsic "llvm.coro.destroy"(%h) : (!llvm.ptr) -> ()
  %g = llvm.mlir.addressof @calls : !llvm.ptr
  %calls = llvm.load %g : !llvm.ptr -> i32
  %k = llvm.mul %count, %c1000 : i32
  %r = llvm.add %k, %calls : i32
  llvm.return %r : i32
}
