; RUN: coro-opt %s --coro-split --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Allocas whose address escapes (here to @keep, which could hold on to it)
; and whose lifetime markers bound where they live, as clang emits them for
; C++ locals and temporaries: an alloca is kept across a suspension only
; within its lifetime, as LLVM's CoroSplit decides. %a lives and dies
; before the first suspension (not in the frame); %b across the first
; only, %c across the second only (in a loop, started again each time
; round); %d has no markers, so its escape keeps it across both. %b and
; %c are never alive at once (a destroy ends the lifetime of what is alive
; at its suspension, as clang's cleanups do): they share frame memory.

; CHECK-NOT: alloca of i32
; CHECK: lifetime-frame.ll:[[@LINE+18]]:3: remark: frame field of 'f' at offset [[B:[0-9]+]] (size 8, align 8): alloca of i64, in the frame across suspensions 0{{$}}
; CHECK: lifetime-frame.ll:[[@LINE+18]]:3: remark: frame field of 'f' at offset [[B]] (size 8, align 8): alloca of i64, in the frame across suspensions 1{{$}}
; CHECK: lifetime-frame.ll:[[@LINE+18]]:3: remark: frame field of 'f' at offset {{[0-9]+}} (size 1, align 1): alloca of i8, in the frame across suspensions 0, 1{{$}}
; CHECK-NOT: alloca of i32
; OUT: 1234
declare ptr @malloc(i64)
declare void @free(ptr)

@kept = internal global ptr null

define internal void @keep(ptr %p) noinline {
  store ptr %p, ptr @kept
  ret void
}

define ptr @f(ptr %out) presplitcoroutine {
entry:
  %a = alloca i32
  %b = alloca i64
  %c = alloca i64
  %d = alloca i8
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @llvm.lifetime.start.p0(ptr %a)
  call void @keep(ptr %a)
  store i32 7, ptr %a
  call void @llvm.lifetime.end.p0(ptr %a)
  call void @keep(ptr %d)
  store i8 4, ptr %d
  call void @llvm.lifetime.start.p0(ptr %b)
  call void @keep(ptr %b)
  store i64 1, ptr %b
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %first
                                 i8 1, label %destroy0]
first:
  %bv = load i64, ptr %b
  call void @llvm.lifetime.end.p0(ptr %b)
  %b32 = trunc i64 %bv to i32
  %t1 = mul i32 %b32, 1000
  br label %loop
loop:
  %i = phi i32 [ 0, %first ], [ %i1, %next ]
  %acc = phi i32 [ %t1, %first ], [ %acc1, %next ]
  call void @llvm.lifetime.start.p0(ptr %c)
  call void @keep(ptr %c)
  %i64 = zext i32 %i to i64
  %w = add i64 %i64, 2
  store i64 %w, ptr %c
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %second
                                 i8 1, label %destroy1]
second:
  %cv = load i64, ptr %c
  call void @llvm.lifetime.end.p0(ptr %c)
  %c32 = trunc i64 %cv to i32
  %cx = mul i32 %c32, 100
  %acc1 = add i32 %acc, %cx
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 1
  br i1 %more, label %next, label %done
next:
  br label %loop
done:
  %dv = load i8, ptr %d
  %d32 = zext i8 %dv to i32
  %sum = add i32 %acc1, %d32
  %x = add i32 %sum, 30
  store i32 %x, ptr %out
  br label %cleanup
destroy0:
  call void @llvm.lifetime.end.p0(ptr %b)
  br label %cleanup
destroy1:
  call void @llvm.lifetime.end.p0(ptr %c)
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
  %out = alloca i32
  store i32 0, ptr %out
  %h = call ptr @f(ptr %out)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  %r = load i32, ptr %out
  ret i32 %r
}
