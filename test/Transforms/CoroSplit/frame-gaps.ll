; RUN: coro-opt %s --coro-split --remarks-filter='coro-frame|coro-split' -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Fields go by decreasing alignment, each at the lowest offset free at the
; suspensions it crosses; the bytes alignment skips are a gap that smaller
; fields placed later fill, as LLVM's frame layout fills them. The promise
; (one byte, as an empty C++ promise is) ends at 17, so %v (an i32 across
; both suspensions) goes at 20, and the one-byte fields take the gap: %b
; (an alloca across the first suspension) at 17, %bv (a value across the
; second) at 17 too (no suspension keeps both), the suspension index at
; 18. The frame is 24 bytes; above %v they made it 32.

; CHECK-DAG: remark: frame field of 'f' at offset 20 (size 4, align 4): value of i32, kept across suspensions 0, 1{{$}}
; CHECK-DAG: remark: frame field of 'f' at offset 17 (size 1, align 1): alloca of i8, in the frame across suspensions 0{{$}}
; CHECK-DAG: remark: frame field of 'f' at offset 17 (size 1, align 1): value of i8, kept across suspensions 1{{$}}
; CHECK-DAG: remark: Split 'f' (frame_size=24, align=8)
; OUT: 58

declare ptr @malloc(i64)
declare void @free(ptr)

@out = internal global i32 0

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %promise = alloca i8
  %b = alloca i8
  %id = call token @llvm.coro.id(i32 0, ptr %promise, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %v = mul i32 %n, 2
  store i8 9, ptr %b
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %first
                                 i8 1, label %cleanup]
first:
  %bv = load i8, ptr %b
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %second
                                 i8 1, label %cleanup]
second:
  ; 2n + b + b = 40 + 9 + 9
  %b32 = zext i8 %bv to i32
  %r0 = add i32 %v, %b32
  %r1 = add i32 %r0, %b32
  store i32 %r1, ptr @out
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
  %r = load i32, ptr @out
  ret i32 %r
}
