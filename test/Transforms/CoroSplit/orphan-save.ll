; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; An llvm.coro.save no suspend takes: LLVM's pre-split passes leave one
; when they delete the suspend that followed it, on a path they proved
; unreachable (LLVM's coro-split-musttail2 test at -O2: a fastcc call of a
; ccc function). It saves nothing and goes (it was left as it was:
; "'llvm.coro.save' outside a coroutine"). Here the coroutine runs to its
; end in the ramp, past a save of its own and one no suspend follows.

; CHECK-LABEL: llvm.func @f(
; CHECK-NOT: coro.save
; CHECK: llvm.return
; OUT: ran 5
; OUT-NEXT: ended

@fmt.ran = private constant [8 x i8] c"ran %d\0A\00"
@fmt.ended = private constant [7 x i8] c"ended\0A\00"

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i32 @llvm.coro.size.i32()
  %alloc = call ptr @malloc(i32 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %alloc)
  %save = call token @llvm.coro.save(ptr null)
  call i32 (ptr, ...) @printf(ptr @fmt.ran, i32 %n)
  %save2 = call token @llvm.coro.save(ptr %hdl)
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %mem)
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr null
}

define i32 @main() {
  %h = call ptr @f(i32 5)
  call i32 (ptr, ...) @printf(ptr @fmt.ended)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare noalias ptr @malloc(i32)
declare void @free(ptr)
