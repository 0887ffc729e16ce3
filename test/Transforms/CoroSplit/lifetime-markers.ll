; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT
; RUN: coro-translate %s --route=mlir-split --emit=llvm | FileCheck %s --check-prefix=IR

; LLVM IR as input (the tools import .ll and .bc): a switch coroutine whose
; alloca %x lives across its suspension, with lifetime markers as clang's
; pre-split IR has them. %x moves into the frame, where LLVM takes no
; marker (only an alloca may have one): --coro-split drops them, as LLVM's
; CoroSplit does for the allocas it puts in the frame.

; CHECK-LABEL: llvm.func @f(
; CHECK-NOT: llvm.intr.lifetime
; CHECK: llvm.return
; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK-NOT: llvm.intr.lifetime
; CHECK: llvm.return
; OUT: 42
; IR-NOT: @llvm.lifetime
; IR: define i32 @main()
declare ptr @malloc(i64)
declare void @free(ptr)

define internal i32 @read(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}

define ptr @f(ptr %out) presplitcoroutine {
entry:
  %x = alloca i32
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @llvm.lifetime.start.p0(ptr %x)
  store i32 42, ptr %x
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  %v = call i32 @read(ptr %x)
  store i32 %v, ptr %out
  call void @llvm.lifetime.end.p0(ptr %x)
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
  %out = alloca i32
  store i32 0, ptr %out
  %h = call ptr @f(ptr %out)
  call void @llvm.coro.resume(ptr %h)
  %r = load i32, ptr %out
  ret i32 %r
}
