; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; The ramp's return slot %ret, as clang's get_return_object_on_allocation_
; failure leaves it: written on the failure path before llvm.coro.begin (no
; frame exists there) and after it, read in %return, which the resumed
; parts reach only through the fallthrough llvm.coro.end (after which they
; return). A use there runs only in the ramp, as LLVM's SuspendCrossingInfo
; has it, so %ret lives across no suspension and stays in the ramp: it used
; to be kept in the frame and refused for its store before llvm.coro.begin.

declare ptr @malloc(i64)
declare void @free(ptr)

; CHECK-LABEL: llvm.func @f(
; CHECK: %[[RET:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
; CHECK: llvm.store %{{.+}}, %[[RET]]
; CHECK: llvm.load %[[RET]] {{.*}}: !llvm.ptr -> !llvm.ptr
; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK: llvm.return
define ptr @f(ptr %out) presplitcoroutine {
entry:
  %ret = alloca ptr
  %id = call token @llvm.coro.id(i32 16, ptr null, ptr null, ptr null)
  %need = call i1 @llvm.coro.alloc(token %id)
  br i1 %need, label %alloc, label %begin
alloc:
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %got = icmp ne ptr %mem, null
  br i1 %got, label %begin, label %fail
fail:
  store ptr null, ptr %ret
  br label %return
begin:
  %m = phi ptr [ null, %entry ], [ %mem, %alloc ]
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %m)
  store ptr %hdl, ptr %ret
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  store i32 7, ptr %out
  br label %cleanup
cleanup:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  br label %return
return:
  %r = load ptr, ptr %ret
  ret ptr %r
}

; OUT: 7
define i32 @main() {
  %out = alloca i32
  store i32 0, ptr %out
  %h = call ptr @f(ptr %out)
  call void @llvm.coro.resume(ptr %h)
  %v = load i32, ptr %out
  ret i32 %v
}
