; RUN: coro-opt %s --coro-split --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; An alloca's memory is live from a write to a read. In a loop that
; suspends, a read that the same block has written all of first (a store
; of the whole element, or a memcpy, memmove or memset of at least its
; size, after any suspension there) reads nothing an earlier iteration
; left: the alloca is not kept across the loop's suspension. clang at -O0
; copies a by-value argument (%tmp, a 32-byte struct) this way right
; before each call that takes it byval. An llvm.lifetime.start there
; counts as well (what the alloca held before is undefined): %aw, started
; at the top of each iteration and read by a captures(none) call before
; the suspension, as clang's awaiters are, is not kept either. %part is
; written only in part
; (8 of its 16 bytes) before its read, %src too (what %tmp copies): both
; are kept.

; CHECK-NOT: alloca of !llvm.array<4 x i64>
; CHECK-NOT: alloca of !llvm.array<3 x i8>
; CHECK-DAG: remark: frame field of 'f' at offset {{[0-9]+}} (size 40, align 8): alloca of !llvm.array<5 x i64>, in the frame across suspensions 0{{$}}
; CHECK-DAG: remark: frame field of 'f' at offset {{[0-9]+}} (size 16, align 8): alloca of !llvm.array<2 x i64>, in the frame across suspensions 0{{$}}
; CHECK-NOT: alloca of !llvm.array<4 x i64>
; CHECK-NOT: alloca of !llvm.array<3 x i8>
; OUT: 36

declare ptr @malloc(i64)
declare void @free(ptr)

@sum = internal global i64 0

define internal void @take(ptr byval([4 x i64]) %p, ptr %q) noinline {
  %a = load i64, ptr %p
  %b = load i64, ptr %q
  %s = load i64, ptr @sum
  %t = add i64 %s, %a
  %u = add i64 %t, %b
  store i64 %u, ptr @sum
  ret void
}

define internal void @look(ptr captures(none) %p) noinline {
  %v = load i8, ptr %p
  %w = zext i8 %v to i64
  %s = load i64, ptr @sum
  %t = add i64 %s, %w
  store i64 %t, ptr @sum
  ret void
}

define ptr @f(i32 %n) presplitcoroutine {
entry:
  %src = alloca [5 x i64]
  %tmp = alloca [4 x i64]
  %part = alloca [2 x i64]
  %aw = alloca [3 x i8]
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %src1 = getelementptr i64, ptr %src, i64 1
  store i64 0, ptr %src1
  %part1 = getelementptr i64, ptr %part, i64 1
  store i64 1, ptr %part1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %resume ]
  %i64 = zext i32 %i to i64
  store i64 %i64, ptr %src
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %src, i64 32, i1 false)
  store i64 %i64, ptr %part
  call void @take(ptr byval([4 x i64]) %tmp, ptr %part1)
  call void @llvm.lifetime.start.p0(ptr %aw)
  store i8 0, ptr %aw
  call void @look(ptr %aw)
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %resume
                                 i8 1, label %cleanup]
resume:
  call void @llvm.lifetime.end.p0(ptr %aw)
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %cleanup
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

; 8 iterations: sum of 0..7 (28) plus 8 times %part's second element (1)
define i32 @main() {
  %h = call ptr @f(i32 8)
  br label %drive
drive:
  %k = phi i32 [ 0, %0 ], [ %k1, %drive ]
  call void @llvm.coro.resume(ptr %h)
  %k1 = add i32 %k, 1
  %again = icmp slt i32 %k1, 7
  br i1 %again, label %drive, label %out
out:
  call void @llvm.coro.destroy(ptr %h)
  %r = load i64, ptr @sum
  %r32 = trunc i64 %r to i32
  ret i32 %r32
}
