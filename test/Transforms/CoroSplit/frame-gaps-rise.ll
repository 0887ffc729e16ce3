; RUN: coro-opt %s --coro-split --remarks-filter='coro-frame|coro-split' -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; A field whose first free offset at a suspension is taken by an alloca
; it meets goes to the next offset free there, not above everything: each
; suspension keeps every gap below its bump (up to eight, the largest),
; and the offset rises through them until every suspension it crosses has
; room and no alloca it meets is there. %arr (16-aligned, across the
; second suspension) goes at 32, leaving 20..32 free there; %x (across the
; first) takes 20; %y (across the second), which meets %x in the part
; between the suspensions, cannot share 20 and goes at 24, in the same
; gap. It went at 64 (above %arr) before, and the frame was 80 bytes.

; CHECK-DAG: remark: frame field of 'f' at offset 20 (size 4, align 4): alloca of i32, in the frame across suspensions 0{{$}}
; CHECK-DAG: remark: frame field of 'f' at offset 24 (size 4, align 4): alloca of i32, in the frame across suspensions 1{{$}}
; CHECK-DAG: remark: frame field of 'f' at offset 32 (size 32, align 16): alloca of !llvm.array<4 x i64>, in the frame across suspensions 1{{$}}
; CHECK-DAG: remark: Split 'f' (frame_size=64, align=16)
; 20 + 1 + 20 + 100
; OUT: 141

declare ptr @malloc(i64)
declare void @free(ptr)

@out = internal global i64 0

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %promise = alloca i32
  %x = alloca i32
  %y = alloca i32
  %arr = alloca [4 x i64], align 16
  %id = call token @llvm.coro.id(i32 0, ptr %promise, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store i32 %n, ptr %x
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %first
                                 i8 1, label %cleanup]
first:
  %xv = load i32, ptr %x
  %xy = add i32 %xv, 1
  store i32 %xy, ptr %y
  %xw = sext i32 %xv to i64
  store i64 %xw, ptr %arr
  %a3 = getelementptr i64, ptr %arr, i64 3
  store i64 100, ptr %a3
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %second
                                 i8 1, label %cleanup]
second:
  %yv = load i32, ptr %y
  %y64 = sext i32 %yv to i64
  %e0 = load i64, ptr %arr
  %e3 = load i64, ptr %a3
  %r0 = add i64 %y64, %e0
  %r1 = add i64 %r0, %e3
  store i64 %r1, ptr @out
  br label %cleanup
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
  %h = call ptr @f(i32 20)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  %r = load i64, ptr @out
  %t = trunc i64 %r to i32
  ret i32 %t
}

declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare void @llvm.coro.end(ptr, i1, token)
declare void @llvm.coro.resume(ptr)
declare void @llvm.coro.destroy(ptr)
