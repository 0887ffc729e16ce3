; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; By-value parameters as clang passes them: %a and %b (a 16-byte struct in
; two registers) are stored into the alloca %p before llvm.coro.begin, and
; %big is byval, a pointer to the caller's copy. Both are read after the
; suspension. The stores before llvm.coro.begin go to an alloca of the ramp
; copied into the frame's %p after llvm.coro.begin, and the byval bytes are
; copied into the frame there: main changes its copy of %big before it
; resumes, and the coroutine still sees 100 (2 + 100).

%pair = type { i64, i64 }
%big = type { [8 x i64] }

declare ptr @malloc(i64)
declare void @free(ptr)

; CHECK-LABEL: llvm.func @f(
; CHECK: %[[EARLY:.+]] = llvm.alloca %{{.+}} x !llvm.struct<"pair", (i64, i64)>
; CHECK: llvm.store %{{.+}}, %{{.+}} : i64, !llvm.ptr
; CHECK: %[[HDL:.+]] = llvm.call @malloc(
; CHECK: "llvm.intr.memcpy"(%{{.+}}, %[[EARLY]], %{{.+}}) <{isVolatile = false}>
; CHECK: "llvm.intr.memcpy"(%{{.+}}, %arg2, %{{.+}}) <{isVolatile = false}>
; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK-NOT: %arg2
; CHECK: llvm.return
define ptr @f(i64 %a, i64 %b, ptr byval(%big) align 8 %big, ptr %out) presplitcoroutine {
entry:
  %p = alloca %pair
  %p0 = getelementptr %pair, ptr %p, i32 0, i32 0
  store i64 %a, ptr %p0
  %p1 = getelementptr %pair, ptr %p, i32 0, i32 1
  store i64 %b, ptr %p1
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  %x = load i64, ptr %p1
  %g = getelementptr [8 x i64], ptr %big, i64 0, i64 7
  %y = load i64, ptr %g
  %sum = add i64 %x, %y
  store i64 %sum, ptr %out
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

; OUT: 102
define i32 @main() {
  %copy = alloca %big
  %g = getelementptr [8 x i64], ptr %copy, i64 0, i64 7
  store i64 100, ptr %g
  %out = alloca i64
  %h = call ptr @f(i64 1, i64 2, ptr byval(%big) %copy, ptr %out)
  store i64 999, ptr %g
  call void @llvm.coro.resume(ptr %h)
  %r = load i64, ptr %out
  %t = trunc i64 %r to i32
  ret i32 %t
}
