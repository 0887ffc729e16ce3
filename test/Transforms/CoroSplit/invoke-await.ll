; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Shapes clang emits for C++ coroutines built with exceptions: an
; await_suspend that may throw is an llvm.invoke of the await intrinsic at
; the end of the save's block, whose normal destination starts with the
; suspend; llvm.coro.is_in_ramp (true in the ramp only); landing pads,
; which every part that copies them can have only with the coroutine's
; personality. The wrapper is invoked with the same destinations, the
; parts take the personality, and the resumed part reads is_in_ramp as
; false: main returns 41 * 10 + 7.

; CHECK-LABEL: llvm.func @f(
; CHECK-SAME: personality = @__gxx_personality_v0
; CHECK: llvm.invoke @wrapper({{.*}}) to ^[[CONT:bb[0-9]+]] unwind ^[[LPAD:bb[0-9]+]]
; CHECK-NOT: llvm.coro
; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK-SAME: personality = @__gxx_personality_v0
; CHECK-NOT: llvm.coro
; CHECK: %[[FALSE:.+]] = llvm.mlir.constant(false) : i1
; CHECK: llvm.zext %[[FALSE]] : i1 to i32
; CHECK-LABEL: llvm.func internal fastcc @f.destroy(
; CHECK-SAME: personality = @__gxx_personality_v0
; CHECK-NOT: @llvm.coro.await.suspend
; OUT: 417

declare ptr @malloc(i64)
declare void @free(ptr)
declare i32 @__gxx_personality_v0(...)

@last = global i32 0
@out = global i32 0

; await_suspend's wrapper: it may throw (here it records the handle)
define internal void @wrapper(ptr %awaiter, ptr %hdl) {
  store i32 7, ptr @last
  ret void
}

define ptr @f(i32 %n) presplitcoroutine personality ptr @__gxx_personality_v0 {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %save = call token @llvm.coro.save(ptr null)
  invoke void @llvm.coro.await.suspend.void(ptr null, ptr %hdl, ptr @wrapper)
          to label %cont unwind label %lpad
cont:
  %s = call i8 @llvm.coro.suspend(token %save, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  %ramp = call i1 @llvm.coro.is_in_ramp()
  %r = zext i1 %ramp to i32
  %v = add i32 %n, %r
  store i32 %v, ptr @out
  br label %cleanup
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  %inramp = call i1 @llvm.coro.is_in_ramp()
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
  %h = call ptr @f(i32 41)
  call void @llvm.coro.resume(ptr %h)
  %l = load i32, ptr @last
  %o = load i32, ptr @out
  %o10 = mul i32 %o, 10
  %r = add i32 %o10, %l
  ret i32 %r
}
