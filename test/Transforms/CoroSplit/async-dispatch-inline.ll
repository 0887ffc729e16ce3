; RUN: coro-translate %s --emit=split-llvm --route=mlir-split -o - | FileCheck %s
; RUN: coro-translate %s --emit=split-llvm --route=mlir-split -O2 -o - | FileCheck %s
; RUN: coro-translate %s --emit=split-llvm --route=llvm -o - | FileCheck %s

; The must-tail function of an async suspension (@apply) is swiftcc and
; takes two parameters where the coroutine's parts take one: LLVM cannot
; make a call of it musttail from them ("cannot guarantee tail call due to
; mismatched parameter counts", the module did not translate), so its body
; goes in the call's place, as LLVM's CoroSplit inlines every must-tail
; function (a shape of LLVM's coro-async-addr-lifetime-infinite-loop-bug
; test). A must-tail function of more than one block that cannot be called
; musttail is refused (async-dispatch-invalid.ll).

; CHECK-LABEL: define swiftcc void @f(
; CHECK-NOT: call {{.*}}@apply(
; CHECK: call void @store_resume(ptr {{.*}}@f.resume.0)
; CHECK: tail call swiftcc void @next(ptr
; CHECK-NEXT: ret void
; CHECK-LABEL: define {{.*}}swiftcc void @f.resume.0(
; CHECK-NOT: call {{.*}}@apply(
; CHECK: tail call swiftcc void @next(ptr
; CHECK-NEXT: ret void

@f_fp = constant <{ i32, i32 }>
  <{ i32 trunc (i64 sub (i64 ptrtoint (ptr @f to i64),
                         i64 ptrtoint (ptr getelementptr inbounds (<{ i32, i32 }>, ptr @f_fp, i32 0, i32 1) to i64)) to i32),
     i32 128 }>

define swiftcc void @apply(ptr %fn, ptr %ctx) {
  tail call swiftcc void %fn(ptr %ctx)
  ret void
}

define ptr @project(ptr %ctx) {
  %p = load ptr, ptr %ctx, align 8
  ret ptr %p
}

declare void @escape(ptr)
declare void @store_resume(ptr)
declare ptr @context_alloc()
declare swiftcc void @next(ptr)

define swiftcc void @f(ptr %ctx) presplitcoroutine {
entry:
  %local = alloca i64
  %id = call token @llvm.coro.id.async(i32 128, i32 16, i32 0, ptr @f_fp)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  call void @escape(ptr %local)
  br label %loop
loop:
  %callee = call ptr @context_alloc()
  %resume = call ptr @llvm.coro.async.resume()
  call void @store_resume(ptr %resume)
  %r = call {ptr} (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr %resume, ptr @project, ptr @apply, ptr @next, ptr %callee)
  br label %loop
}

declare {ptr} @llvm.coro.suspend.async(i32, ptr, ptr, ...)
declare token @llvm.coro.id.async(i32, i32, i32, ptr)
declare ptr @llvm.coro.begin(token, ptr)
declare ptr @llvm.coro.async.resume()
