; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; llvm.coro.alloca.alloc/get/free, the returned-continuation ABIs' memory
; of dynamic size, as LLVM's CoroFrame lowers them: an allocation that no
; suspension can follow before its free is a dynamic alloca between a
; stacksave and a stackrestore (@local); one that a suspension can follow
; takes its memory from the id's allocator and gives it back at its free,
; its pointer kept in the frame (@cross, and @once under retcon.once).
; @inner's allocation is sized by a block's argument: each part keeps it
; in that block (it moved to the part's entry, before its size).
; @live counts the allocator's blocks: none is left at the end. Route A
; at -O0 only (@inner never returns unsplit, and LLVM's -O2 pipeline takes
; its callers for unreachable: retcon-unmarked.ll); its run needs the
; void overload llvm.coro.suspend.retcon.isVoid made a call of a variadic
; declaration, as the others (capi/vararg_intrinsics.c).

; CHECK-LABEL: llvm.func @cross(
; CHECK: llvm.call @allocate(
; CHECK-NOT: llvm.coro
; CHECK-LABEL: llvm.func @local(
; CHECK-NOT: @allocate
; CHECK: llvm.intr.stacksave
; CHECK: llvm.alloca %{{.*}} x i8 {alignment = 16 : i64} : (i64)
; CHECK: llvm.intr.stackrestore
; CHECK-LABEL: llvm.func @inner(
; CHECK-LABEL: llvm.func @once(
; CHECK: llvm.call @allocate(
; CHECK-LABEL: llvm.func internal @cross.resume.0(
; CHECK: llvm.call @deallocate(
; CHECK-NOT: llvm.coro
; CHECK-LABEL: llvm.func internal @local.resume.0(
; CHECK-NOT: @allocate
; CHECK: llvm.intr.stacksave
; CHECK: llvm.intr.stackrestore
; OUT: 203141078022

@live = global i32 0
@sum = global i32 0

define ptr @allocate(i32 %size) {
  %w = zext i32 %size to i64
  %p = call ptr @malloc(i64 %w)
  %l = load i32, ptr @live
  %l1 = add i32 %l, 1
  store i32 %l1, ptr @live
  ret ptr %p
}

define void @deallocate(ptr %p) {
  call void @free(ptr %p)
  %l = load i32, ptr @live
  %l1 = sub i32 %l, 1
  store i32 %l1, ptr @live
  ret void
}

; Yields a block of n bytes, each n, and n; once resumed, adds the block's
; last byte to @sum and frees it, then goes on with n + 1.
declare {ptr, ptr, i32} @proto_cross(ptr, i1)
define {ptr, ptr, i32} @cross(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 64, i32 8, ptr %buffer, ptr @proto_cross, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %inc, %resume ]
  %tok = call token @llvm.coro.alloca.alloc.i32(i32 %n.val, i32 8)
  %p = call ptr @llvm.coro.alloca.get(token %tok)
  %byte = trunc i32 %n.val to i8
  %w = zext i32 %n.val to i64
  call void @llvm.memset.p0.i64(ptr %p, i8 %byte, i64 %w, i1 false)
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(ptr %p, i32 %n.val)
  %lasti = sub i64 %w, 1
  %lastp = getelementptr i8, ptr %p, i64 %lasti
  %x = load i8, ptr %lastp
  %x32 = zext i8 %x to i32
  %s = load i32, ptr @sum
  %s1 = add i32 %s, %x32
  store i32 %s1, ptr @sum
  call void @llvm.coro.alloca.free(token %tok)
  br i1 %unwind, label %cleanup, label %resume

resume:
  %inc = add i32 %n.val, 1
  br label %loop

cleanup:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

; Each round: a block of 16 * n bytes, aligned to 16, filled and summed
; before the suspension; yields the sum.
declare {ptr, i32} @proto_local(ptr, i1)
define {ptr, i32} @local(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 64, i32 8, ptr %buffer, ptr @proto_local, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %n16 = mul i32 %n, 16
  %w0 = zext i32 %n16 to i64
  br label %loop

loop:
  ; the size is the block's argument (each part keeps the alloca where it is)
  %w = phi i64 [ %w0, %entry ], [ %inc, %resume ]
  %bytes = trunc i64 %w to i32
  %tok = call token @llvm.coro.alloca.alloc.i64(i64 %w, i32 16)
  %p = call ptr @llvm.coro.alloca.get(token %tok)
  call void @llvm.memset.p0.i64(ptr %p, i8 1, i64 %w, i1 false)
  %pi = ptrtoint ptr %p to i64
  %mis = and i64 %pi, 15
  %misi = trunc i64 %mis to i32
  %lasti = sub i64 %w, 1
  %lastp = getelementptr i8, ptr %p, i64 %lasti
  %x = load i8, ptr %lastp
  %x32 = zext i8 %x to i32
  %v0 = mul i32 %x32, %bytes
  %v = add i32 %v0, %misi
  call void @llvm.coro.alloca.free(token %tok)
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %v)
  br i1 %unwind, label %cleanup, label %resume

resume:
  %inc = add i64 %w, 16
  br label %loop

cleanup:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

; After each resumption, an inner loop of blocks of k bytes (k = n, n / 2,
; ... down to 1), each freed in the same round: local, sized by the inner
; loop's block argument. Yields the count of their last bytes' ones.
declare {ptr, i32} @proto_inner(ptr)
define {ptr, i32} @inner(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 64, i32 8, ptr %buffer, ptr @proto_inner, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  br label %loop

loop:
  %n.val = phi i32 [ %n, %entry ], [ %next, %inner.done ]
  %acc.y = phi i32 [ 0, %entry ], [ %acc2, %inner.done ]
  call void (...) @llvm.coro.suspend.retcon.isVoid(i32 %acc.y)
  br label %inner.loop

inner.loop:
  %k = phi i32 [ %n.val, %loop ], [ %k2, %inner.loop ]
  %acc = phi i32 [ 0, %loop ], [ %acc2, %inner.loop ]
  %tok = call token @llvm.coro.alloca.alloc.i32(i32 %k, i32 8)
  %p = call ptr @llvm.coro.alloca.get(token %tok)
  %kw = zext i32 %k to i64
  call void @llvm.memset.p0.i64(ptr %p, i8 1, i64 %kw, i1 false)
  %lasti = sub i64 %kw, 1
  %lastp = getelementptr i8, ptr %p, i64 %lasti
  %x = load i8, ptr %lastp
  %x32 = zext i8 %x to i32
  %acc2 = add i32 %acc, %x32
  call void @llvm.coro.alloca.free(token %tok)
  %k2 = lshr i32 %k, 1
  %more = icmp ugt i32 %k, 1
  br i1 %more, label %inner.loop, label %inner.done

inner.done:
  %next = add i32 %n.val, 8
  br label %loop
}

; retcon.once: one suspension, the block across it.
declare void @proto_once(ptr, i1)
define {ptr, i32} @once(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 64, i32 8, ptr %buffer, ptr @proto_once, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %tok = call token @llvm.coro.alloca.alloc.i32(i32 %n, i32 4)
  %p = call ptr @llvm.coro.alloca.get(token %tok)
  store i32 %n, ptr %p
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n)
  %x = load i32, ptr %p
  %s = load i32, ptr @sum
  %s1 = add i32 %s, %x
  store i32 %s1, ptr @sum
  call void @llvm.coro.alloca.free(token %tok)
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

define i64 @main() {
  %buf = alloca [64 x i8], align 8
  ; @cross from 3: a block of 3 threes, then of 4 fours, then ended
  %r0 = call {ptr, ptr, i32} @cross(ptr %buf, i32 3)
  %k0 = extractvalue {ptr, ptr, i32} %r0, 0
  %p0 = extractvalue {ptr, ptr, i32} %r0, 1
  %b0 = load i8, ptr %p0
  %live0 = load i32, ptr @live
  %r1 = call {ptr, ptr, i32} %k0(ptr %buf, i1 false)
  %k1 = extractvalue {ptr, ptr, i32} %r1, 0
  %p1 = extractvalue {ptr, ptr, i32} %r1, 1
  %p1l = getelementptr i8, ptr %p1, i64 3
  %b1 = load i8, ptr %p1l
  %live1 = load i32, ptr @live
  %r2 = call {ptr, ptr, i32} %k1(ptr %buf, i1 true)
  %live2 = load i32, ptr @live
  %sum0 = load i32, ptr @sum
  ; @local from 2: 32 and 48 (+ 0: each block aligned to 16)
  %l0 = call {ptr, i32} @local(ptr %buf, i32 2)
  %lk0 = extractvalue {ptr, i32} %l0, 0
  %lv0 = extractvalue {ptr, i32} %l0, 1
  %l1 = call {ptr, i32} %lk0(ptr %buf, i1 false)
  %lk1 = extractvalue {ptr, i32} %l1, 0
  %lv1 = extractvalue {ptr, i32} %l1, 1
  %l2 = call {ptr, i32} %lk1(ptr %buf, i1 true)
  %llive = load i32, ptr @live
  ; @once with 5: @sum 7 + 5
  %o0 = call {ptr, i32} @once(ptr %buf, i32 5)
  %ok = extractvalue {ptr, i32} %o0, 0
  %olive = load i32, ptr @live
  call void %ok(ptr %buf, i1 false)
  %olive2 = load i32, ptr @live
  %sum1 = load i32, ptr @sum
  ; @inner from 8: 0, then 4 (8 4 2 1), then 5 (16 8 4 2 1)
  %i0 = call {ptr, i32} @inner(ptr %buf, i32 8)
  %ik0 = extractvalue {ptr, i32} %i0, 0
  %i1 = call {ptr, i32} %ik0(ptr %buf)
  %ik1 = extractvalue {ptr, i32} %i1, 0
  %iv1 = extractvalue {ptr, i32} %i1, 1
  %i2 = call {ptr, i32} %ik1(ptr %buf)
  %iv2 = extractvalue {ptr, i32} %i2, 1
  %iv = mul i32 %iv1, %iv2
  %ivw = zext i32 %iv to i64
  ; digits: b0 live0 b1 live1 live2 sum0 lv0 lv1 llive olive olive2 sum1
  %d = alloca [12 x i32]
  %a0 = zext i8 %b0 to i64
  %a1 = zext i32 %live0 to i64
  %a2 = zext i8 %b1 to i64
  %a3 = zext i32 %live1 to i64
  %a4 = zext i32 %live2 to i64
  %a5 = zext i32 %sum0 to i64
  %a6 = zext i32 %lv0 to i64
  %a7 = zext i32 %lv1 to i64
  %a8 = zext i32 %llive to i64
  %a9 = zext i32 %olive to i64
  %a10 = zext i32 %olive2 to i64
  %a11 = zext i32 %sum1 to i64
  ; 3 1 4 1 0 7, 32 + 48, 1, 0 + 0 + 12
  %e0 = mul i64 %a0, 1000000000
  %e1 = mul i64 %a1, 100000000
  %e2 = mul i64 %a2, 10000000
  %e3 = mul i64 %a3, 1000000
  %e4 = mul i64 %a4, 100000
  %e5 = mul i64 %a5, 10000
  %e6 = add i64 %a6, %a7
  %e7 = mul i64 %e6, 100
  %e8 = mul i64 %a9, 10
  %e9 = add i64 %a8, %a10
  %e10 = add i64 %e9, %a11
  %s0 = add i64 %e0, %e1
  %s1 = add i64 %s0, %e2
  %s2 = add i64 %s1, %e3
  %s3 = add i64 %s2, %e4
  %s4 = add i64 %s3, %e5
  %s5 = add i64 %s4, %e7
  %s6 = add i64 %s5, %e8
  %s7 = add i64 %s6, %e10
  %s8 = mul i64 %ivw, 10000000000
  %s9 = add i64 %s7, %s8
  ret i64 %s9
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
