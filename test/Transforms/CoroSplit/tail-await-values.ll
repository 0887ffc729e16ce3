; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Values computed after a suspend whose await returns a handle (the clones
; end there in a tail call of what it returns), used in other blocks: a
; phi at the coroutine's end takes them (a shape of LLVM's
; coro-split-musttail7 test: "dead instructions in the way"). A landing
; copies them for the uses after the suspension; the tail call erased the
; originals, which the SSA repair then read (a segfault in every tool).
; Now they are poison on the path that returns. main runs the ramp, then
; resumes twice: the second resume reads the alloca and stores %foo, a
; nonzero address; then it frees the frame.

; CHECK-LABEL: llvm.func internal fastcc @g.resume(
; CHECK: llvm.call @await_suspend_function(
; CHECK-NEXT: llvm.load
; CHECK-NEXT: llvm.call {{.*}}musttail
; CHECK-NEXT: llvm.return
; OUT: ramp -1
; OUT-NEXT: read 5
; OUT-NEXT: end 1

@fmt.ramp = private constant [9 x i8] c"ramp %d\0A\00"
@fmt.read = private constant [9 x i8] c"read %d\0A\00"
@fmt.end = private constant [8 x i8] c"end %d\0A\00"
@out = global i64 -1

define ptr @await_suspend_function(ptr %awaiter, ptr %hdl) {
  %n = call ptr @llvm.coro.noop()
  ret ptr %n
}

define ptr @g() presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %alloc = call ptr @malloc(i64 %size)
  %alloc.var = alloca i64
  call void @llvm.lifetime.start.p0(ptr %alloc.var)
  %vFrame = call noalias nonnull ptr @llvm.coro.begin(token %id, ptr %alloc)
  store i64 5, ptr %alloc.var
  %save = call token @llvm.coro.save(ptr null)
  %suspend = call i8 @llvm.coro.suspend(token %save, i1 false)
  switch i8 %suspend, label %exit [
    i8 0, label %await.suspend
    i8 1, label %exit
  ]
await.suspend:
  %save2 = call token @llvm.coro.save(ptr null)
  call void @llvm.coro.await.suspend.handle(ptr null, ptr %vFrame, ptr @await_suspend_function)
  %suspend2 = call i8 @llvm.coro.suspend(token %save2, i1 false)
  %gep = getelementptr inbounds i64, ptr %alloc.var, i32 0
  %foo = ptrtoint ptr %gep to i64
  switch i8 %suspend2, label %exit [
    i8 0, label %await.ready
    i8 1, label %exit
  ]
await.ready:
  %v = load i64, ptr %alloc.var
  call i32 (ptr, ...) @printf(ptr @fmt.read, i64 %v)
  call void @llvm.lifetime.end.p0(ptr %alloc.var)
  store i64 %foo, ptr @out
  br label %exit
exit:
  %result = phi i64 [0, %entry], [0, %entry], [%foo, %await.suspend], [%foo, %await.suspend], [%foo, %await.ready]
  call void @llvm.coro.end(ptr null, i1 false, token none)
  ret ptr %vFrame
}

define i32 @main() {
  %h = call ptr @g()
  %r = load i64, ptr @out
  call i32 (ptr, ...) @printf(ptr @fmt.ramp, i64 %r)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  ; it ended at its coro.end, which frees nothing
  call void @free(ptr %h)
  %e = load i64, ptr @out
  %nz = icmp ne i64 %e, 0
  %nz32 = zext i1 %nz to i32
  call i32 (ptr, ...) @printf(ptr @fmt.end, i32 %nz32)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.coro.resume(ptr)
declare ptr @llvm.coro.noop()
declare void @llvm.coro.await.suspend.handle(ptr, ptr, ptr)
