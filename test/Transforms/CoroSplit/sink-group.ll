; RUN: coro-opt %s --coro-split --remarks-filter='coro-frame|coro-split' -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; Values kept across a suspension that are each made by cheap ops over one
; input they share are kept as that input when that keeps no suspension
; more bytes: @steps adds up two fields of the object %obj points to, whose
; addresses LLVM's LICM hoists out of the loop (as clang's -O2 does for a
; member coroutine's `this`): the frame keeps %obj, not both addresses
; (48 bytes; 56 when it kept both).
; @narrow's two values are 4 bytes each, made of the 8-byte %obj: keeping
; %obj instead would take suspension 1 from 4 to 8 bytes, so both stay.

; CHECK-DAG: remark: Split 'steps' (frame_size=48, align=8)
; CHECK-DAG: sink-group.ll:{{[0-9]+}}:3: remark: frame field of 'narrow' at offset {{[0-9]+}} (size 4, align 4): value of i32, kept across suspensions 0{{$}}
; CHECK-DAG: sink-group.ll:{{[0-9]+}}:3: remark: frame field of 'narrow' at offset {{[0-9]+}} (size 4, align 4): value of i32, kept across suspensions 0, 1{{$}}
; CHECK-DAG: remark: Split 'narrow' (frame_size=40, align=8)

; 1000 + 7, then 1000 + 1007 more, then 1000 + 3014 more: 7028 (and 0
; from @narrow: an 8-aligned address's low bits).
; OUT: 7028

declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @steps(ptr %obj, i32 %n, ptr %out) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %pa = getelementptr inbounds i8, ptr %obj, i64 48
  %pb = getelementptr inbounds i8, ptr %obj, i64 56
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %go ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %cleanup
body:
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %go
                                i8 1, label %cleanup]
go:
  %a = load i64, ptr %pa
  %b = load i64, ptr %pb
  %o = load i64, ptr %out
  %ab = add i64 %a, %b
  %o1 = add i64 %o, %ab
  store i64 %o1, ptr %out
  store i64 %o1, ptr %pb
  %i1 = add i32 %i, 1
  br label %loop
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define ptr @narrow(ptr %obj, ptr %out) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %p = ptrtoint ptr %obj to i64
  %lo = trunc i64 %p to i32
  %hi8 = lshr i64 %p, 3
  %hi = trunc i64 %hi8 to i32
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %one
                                 i8 1, label %cleanup]
one:
  %x = and i32 %lo, 7
  store i32 %x, ptr %out
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %two
                                 i8 1, label %cleanup]
two:
  %y = and i32 %hi, 0
  store i32 %y, ptr %out
  br label %cleanup
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i64 @main() {
  %obj = alloca [8 x i64], align 8
  %pa = getelementptr inbounds i8, ptr %obj, i64 48
  %pb = getelementptr inbounds i8, ptr %obj, i64 56
  store i64 1000, ptr %pa
  store i64 7, ptr %pb
  %out = alloca i64
  store i64 0, ptr %out
  %h = call ptr @steps(ptr %obj, i32 3, ptr %out)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  %r = load i64, ptr %out
  %o2 = alloca i32
  %g = call ptr @narrow(ptr %obj, ptr %o2)
  call void @llvm.coro.resume(ptr %g)
  call void @llvm.coro.resume(ptr %g)
  %z = load i32, ptr %o2
  %zz = zext i32 %z to i64
  %rr = add i64 %r, %zz
  ret i64 %rr
}
