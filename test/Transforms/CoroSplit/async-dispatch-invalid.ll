; RUN: not coro-opt %s --coro-split 2>&1 | FileCheck %s
; RUN: not coro-translate %s --emit=obj --route=mlir-split -o %t.o 2>&1 | FileCheck %s

; The must-tail function of an async suspension (@apply) can be neither a
; musttail call from the coroutine's parts (swiftcc, two parameters where
; they take one) nor put in the call's place by --coro-split (it has three
; blocks): a located error, where the module failed to translate
; (unlocated) before.

; CHECK: async-dispatch-invalid.ll:[[#@LINE+38]]:3: error: the must-tail function of llvm.coro.suspend.async cannot be called musttail from the coroutine's parts (another calling convention, or another prototype than theirs and neither tailcc nor swifttailcc), nor put in the call's place (it has more than one block)

@f_fp = constant <{ i32, i32 }>
  <{ i32 trunc (i64 sub (i64 ptrtoint (ptr @f to i64),
                         i64 ptrtoint (ptr getelementptr inbounds (<{ i32, i32 }>, ptr @f_fp, i32 0, i32 1) to i64)) to i32),
     i32 128 }>

define swiftcc void @apply(ptr %fn, ptr %ctx) {
  %null = icmp eq ptr %fn, null
  br i1 %null, label %done, label %call
call:
  tail call swiftcc void %fn(ptr %ctx)
  br label %done
done:
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
