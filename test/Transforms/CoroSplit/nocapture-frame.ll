; RUN: coro-opt %s --coro-split --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; An alloca passed to a parameter marked captures(none) (what LLVM's
; function-attrs infers, and what clang's await_suspend wrappers get once
; await_suspend is inlined into them) does not escape: the callee reads
; and writes it while it runs and keeps no pointer to it. Such an alloca
; is kept across a suspension only when something after the suspension
; reads it. No lifetime markers here: without the attribute each of these
; allocas escapes and crosses every suspension.
;   %a (i16): given to @peek, a captures(none) callee, before the
;       suspension only: not in the frame.
;   %b (i32): the same, at a call site marked captures(none): not in the
;       frame.
;   %c (i64): given to @peek, and read after the suspension: in the frame.
;   %d (i8): given to @keep, which may hold on to it: in the frame.
;   %e ([4 x i64]): passed byval (the callee gets a copy) before the
;       suspension only: not in the frame.
;   %aw ([3 x i8]): the awaiter of an await intrinsic whose wrapper marks
;       it captures(none): not in the frame; %aw2 ([5 x i8]): the awaiter
;       of one whose wrapper stores it: in the frame (from its
;       escape on, which without markers is every suspension).

; CHECK-NOT: alloca of i16
; CHECK-NOT: alloca of i32
; CHECK-NOT: alloca of !llvm.array<3 x i8>
; CHECK-NOT: alloca of !llvm.array<4 x i64>
; CHECK-DAG: remark: frame field of 'f' at offset {{[0-9]+}} (size 8, align 8): alloca of i64, in the frame across suspensions 0, 1{{$}}
; CHECK-DAG: remark: frame field of 'f' at offset {{[0-9]+}} (size 1, align 1): alloca of i8, in the frame across suspensions 0, 1{{$}}
; CHECK-DAG: remark: frame field of 'f' at offset {{[0-9]+}} (size 5, align 1): alloca of !llvm.array<5 x i8>, in the frame across suspensions 0, 1{{$}}
; CHECK-NOT: alloca of i16
; CHECK-NOT: alloca of i32
; CHECK-NOT: alloca of !llvm.array<3 x i8>
; CHECK-NOT: alloca of !llvm.array<4 x i64>
; OUT: 1239

declare ptr @malloc(i64)
declare void @free(ptr)

@kept = internal global ptr null
@seen = internal global i32 0

define internal void @peek(ptr captures(none) %p) noinline {
  %v = load i8, ptr %p
  %w = zext i8 %v to i32
  %s = load i32, ptr @seen
  %t = add i32 %s, %w
  store i32 %t, ptr @seen
  ret void
}

define internal void @peek_any(ptr %p) noinline {
  %v = load i8, ptr %p
  %w = zext i8 %v to i32
  %s = load i32, ptr @seen
  %t = add i32 %s, %w
  store i32 %t, ptr @seen
  ret void
}

define internal void @take_copy(ptr byval([4 x i64]) %p) noinline {
  %v = load i8, ptr %p
  %w = zext i8 %v to i32
  %s = load i32, ptr @seen
  %t = add i32 %s, %w
  store i32 %t, ptr @seen
  ret void
}

define internal void @keep(ptr %p) noinline {
  store ptr %p, ptr @kept
  ret void
}

define internal void @wrap_nc(ptr captures(none) %aw, ptr %h) {
  %v = load i8, ptr %aw
  %w = zext i8 %v to i32
  %s = load i32, ptr @seen
  %t = add i32 %s, %w
  store i32 %t, ptr @seen
  ret void
}

define internal void @wrap_keep(ptr %aw, ptr %h) {
  store ptr %aw, ptr @kept
  ret void
}

define ptr @f(ptr %out) presplitcoroutine {
entry:
  %a = alloca i16
  %b = alloca i32
  %c = alloca i64
  %d = alloca i8
  %e = alloca [4 x i64]
  %aw = alloca [3 x i8]
  %aw2 = alloca [5 x i8]
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store i16 1, ptr %a
  call void @peek(ptr %a)
  store i32 2, ptr %b
  call void @peek_any(ptr captures(none) %b)
  store i64 200, ptr %c
  call void @peek(ptr %c)
  store i8 4, ptr %d
  call void @keep(ptr %d)
  store i64 5, ptr %e
  call void @take_copy(ptr byval([4 x i64]) %e)
  store i8 3, ptr %aw
  %save0 = call token @llvm.coro.save(ptr %hdl)
  call void @llvm.coro.await.suspend.void(ptr %aw, ptr %hdl, ptr @wrap_nc)
  %s0 = call i8 @llvm.coro.suspend(token %save0, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %first
                                 i8 1, label %cleanup]
first:
  store i8 0, ptr %aw2
  %save1 = call token @llvm.coro.save(ptr %hdl)
  call void @llvm.coro.await.suspend.void(ptr %aw2, ptr %hdl, ptr @wrap_keep)
  %s1 = call i8 @llvm.coro.suspend(token %save1, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %second
                                 i8 1, label %cleanup]
second:
  %p = load ptr, ptr @kept
  store i8 24, ptr %p
  %cv = load i64, ptr %c
  %dv = load i8, ptr %d
  %ev = load i8, ptr %aw2
  %seen = load i32, ptr @seen
  ; 200 * 5 + 4 + 24 (stored through the pointer @wrap_keep kept) + 211
  ; (what @peek, @peek_any, @take_copy and @wrap_nc saw: 1 + 2 + 200 + 5
  ; + 3) = 1239
  %c32 = trunc i64 %cv to i32
  %cx = mul i32 %c32, 5
  %d32 = zext i8 %dv to i32
  %e32 = zext i8 %ev to i32
  %sx = mul i32 %seen, 1
  %r0 = add i32 %cx, %d32
  %r1 = add i32 %r0, %e32
  %r2 = add i32 %r1, %sx
  store i32 %r2, ptr %out
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
