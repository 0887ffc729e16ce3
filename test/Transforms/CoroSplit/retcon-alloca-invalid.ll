; RUN: split-file %s %t
; RUN: not coro-opt %t/noalloc.ll --coro-split 2>&1 | FileCheck %s --check-prefix=NOALLOC
; RUN: not coro-opt %t/switch.ll --coro-split 2>&1 | FileCheck %s --check-prefix=SWITCH

; llvm.coro.alloca.alloc where --coro-split cannot lower it: located
; errors, never a crash. An allocation a suspension can follow takes its
; memory from the retcon id's allocator, which must be a function of an
; allocator's type (NOALLOC); the intrinsics belong to the
; returned-continuation ABIs (SWITCH).

; NOALLOC: noalloc.ll:9:3: error: an llvm.coro.alloca.alloc live across a suspension takes its memory from the coroutine's allocator, but llvm.coro.id.retcon names no function of an allocator's type
; SWITCH: switch.ll:7:3: error: 'llvm.coro.alloca.alloc{{.*}}' is not an intrinsic of the switched-resume ABI

;--- noalloc.ll
declare {ptr, ptr} @proto(ptr, i1)
declare ptr @allocate(i64, i64)
declare void @deallocate(ptr)

define {ptr, ptr} @f(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon(i32 64, i32 8, ptr %buffer, ptr @proto, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %tok = call token @llvm.coro.alloca.alloc.i32(i32 %n, i32 8)
  %p = call ptr @llvm.coro.alloca.get(token %tok)
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(ptr %p)
  call void @llvm.coro.alloca.free(token %tok)
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  unreachable
}

;--- switch.ll
define ptr @g(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %tok = call token @llvm.coro.alloca.alloc.i32(i32 %n, i32 8)
  %p = call ptr @llvm.coro.alloca.get(token %tok)
  call void @llvm.coro.alloca.free(token %tok)
  %s = call i8 @llvm.coro.suspend(token none, i1 true)
  switch i8 %s, label %out [i8 0, label %out
                            i8 1, label %out]
out:
  %f = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %f)
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

declare ptr @malloc(i64)
declare void @free(ptr)
