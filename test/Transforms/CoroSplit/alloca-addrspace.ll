; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-translate %s --emit=split-llvm --route=mlir-split | FileCheck %s --check-prefix=LL
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Allocas of another address space (5: a GPU's private memory) kept in the
; frame: their uses get the field's address cast into that space, as
; LLVM's CoroSplit casts it (the field's generic address went in their
; place: a phi of ptr addrspace(5) took an !llvm.ptr, ill-typed IR). A
; shape of LLVM's coro-alloca-with-addrspace test; main resumes f once
; each way of the phi: 22 + 11, then 11 + 11.

; CHECK-LABEL: llvm.func @f(
; CHECK-COUNT-2: llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<5>
; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK: llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<5>
; LL-LABEL: define ptr @f(
; LL: addrspacecast ptr %{{.*}} to ptr addrspace(5)
; OUT: 3322
@out = global i64 0

define ptr @f(i1 %n) presplitcoroutine {
entry:
  %x = alloca i64, addrspace(5)
  %y = alloca i64, addrspace(5)
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %alloc)
  store i64 11, ptr addrspace(5) %x
  store i64 22, ptr addrspace(5) %y
  br i1 %n, label %flag_true, label %flag_false
flag_true:
  br label %merge
flag_false:
  br label %merge
merge:
  %alias_phi = phi ptr addrspace(5) [ %x, %flag_true ], [ %y, %flag_false ]
  %sp1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %sp1, label %suspend [i8 0, label %resume
  i8 1, label %cleanup]
resume:
  %v = load i64, ptr addrspace(5) %alias_phi
  %w = load i64, ptr addrspace(5) %x
  %s = add i64 %v, %w
  store i64 %s, ptr @out
  br label %cleanup
cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 0, token none)
  ret ptr %hdl
}

define i32 @main() {
  %h = call ptr @f(i1 false)
  call void @llvm.coro.resume(ptr %h)
  %a = load i64, ptr @out
  %h2 = call ptr @f(i1 true)
  call void @llvm.coro.resume(ptr %h2)
  %b = load i64, ptr @out
  %c = mul i64 %a, 100
  %d = add i64 %c, %b
  %r = trunc i64 %d to i32
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %r)
  ret i32 0
}
@fmt = private constant [4 x i8] c"%d\0A\00"
declare i32 @printf(ptr, ...)
declare void @llvm.coro.resume(ptr)
declare ptr @llvm.coro.free(token, ptr)
declare i32 @llvm.coro.size.i32()
declare i8  @llvm.coro.suspend(token, i1)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare void @llvm.coro.end(ptr, i1, token)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
