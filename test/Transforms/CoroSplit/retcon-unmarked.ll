; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; A retcon (and retcon.once, async) coroutine need not be marked
; presplitcoroutine: LLVM's CoroEarly marks a function whose body holds
; such an id, and so does coro, before its checks and its split (LLVM's
; tests of those ABIs leave the mark out). A switch coroutine's frontend
; writes the mark itself (and coro.id alone does not make one). Route A
; at -O0 only: at -O2 LLVM's own pipeline takes the unsplit coroutine,
; which has no return, for one that never returns (tools/
; llvm-ir-vararg-intrinsics.test).

; CHECK-LABEL: llvm.func @f(
; CHECK-NOT: presplitcoroutine
; CHECK-NOT: llvm.coro
; CHECK: llvm.return
; OUT: 456

define {ptr, i32} @f(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 8, i32 4, ptr %buffer, ptr @prototype, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %inc, %resume ]
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n.val)
  br i1 %unwind, label %cleanup, label %resume

resume:
  %inc = add i32 %n.val, 1
  br label %loop

cleanup:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

declare {ptr, i32} @prototype(ptr, i1 zeroext)

define ptr @allocate(i32 %size) {
  %w = zext i32 %size to i64
  %p = call ptr @malloc(i64 %w)
  ret ptr %p
}

define void @deallocate(ptr %p) {
  call void @free(ptr %p)
  ret void
}

define i32 @main() {
  %buf = alloca [8 x i8], align 8
  %r0 = call {ptr, i32} @f(ptr %buf, i32 4)
  %k0 = extractvalue {ptr, i32} %r0, 0
  %v0 = extractvalue {ptr, i32} %r0, 1
  %r1 = call {ptr, i32} %k0(ptr %buf, i1 false)
  %k1 = extractvalue {ptr, i32} %r1, 0
  %v1 = extractvalue {ptr, i32} %r1, 1
  %r2 = call {ptr, i32} %k1(ptr %buf, i1 false)
  %k2 = extractvalue {ptr, i32} %r2, 0
  %v2 = extractvalue {ptr, i32} %r2, 1
  %r3 = call {ptr, i32} %k2(ptr %buf, i1 true)
  %a = mul i32 %v0, 100
  %b = mul i32 %v1, 10
  %s = add i32 %a, %b
  %t = add i32 %s, %v2
  ret i32 %t
}

declare ptr @malloc(i64)
declare void @free(ptr)
