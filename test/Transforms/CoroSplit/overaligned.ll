; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT

; llvm.coro.id's first operand is the alignment the frame's allocator
; guarantees (clang's __STDCPP_DEFAULT_NEW_ALIGNMENT__, 16): an alloca
; aligned to 64 that lives across the suspension gets room in the frame and
; is aligned at run time, as LLVM's CoroFrame does, rather than assuming a
; 64-aligned frame that malloc does not give. main checks the address the
; coroutine saw after resuming: 0 when it is 64-aligned. (LLVM's CoroSplit
; realigns such allocas only after its optimisations, so route A at -O0
; does not: this checks route B alone.)

declare ptr @malloc(i64)
declare void @free(ptr)

@misaligned = global i64 -1

; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK: llvm.ptrtoint
; CHECK: llvm.and %{{.+}}, %{{.+}} : i64
; CHECK: llvm.inttoptr
define ptr @f() presplitcoroutine {
entry:
  %x = alloca i64, align 64
  %id = call token @llvm.coro.id(i32 16, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store i64 5, ptr %x
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  %a = ptrtoint ptr %x to i64
  %low = and i64 %a, 63
  store i64 %low, ptr @misaligned
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

; OUT: 0
define i64 @main() {
  %h = call ptr @f()
  call void @llvm.coro.resume(ptr %h)
  %r = load i64, ptr @misaligned
  ret i64 %r
}
