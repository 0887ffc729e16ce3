; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; NAME.cleanup is NAME.destroy with llvm.coro.free giving null: the split
; copies NAME.destroy once it is made, folds the branch on coro.free and
; erases what only the freeing path used. Here that path hands the frame
; and a value kept across the suspension to @release: NAME.destroy reloads
; the value and calls both @dtor and @release, NAME.cleanup calls @dtor and
; reads nothing from the frame. main destroys a suspended coroutine whose
; frame is on the heap (NAME.destroy).

; CHECK-LABEL: llvm.func internal fastcc @fn.destroy(
; CHECK: llvm.call @dtor()
; CHECK: llvm.call @release(
; CHECK: llvm.load {{.*}} -> i32
; CHECK-LABEL: llvm.func internal fastcc @fn.cleanup(
; CHECK-NOT: -> i32
; CHECK-NOT: llvm.icmp
; CHECK-NOT: @release
; CHECK: llvm.call @dtor()
; CHECK-NOT: -> i32
; CHECK-NOT: @release
; CHECK: llvm.unreachable
; CHECK-NEXT: }
; OUT: dtor
; OUT-NEXT: release 42
; OUT-NEXT: done

@hdl = global ptr null
@fmt.dtor = private constant [6 x i8] c"dtor\0A\00"
@fmt.release = private constant [12 x i8] c"release %d\0A\00"
@fmt.done = private constant [6 x i8] c"done\0A\00"

define void @fn(i32 %n) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 16, ptr null, ptr null, ptr null)
  %alloc = call i1 @llvm.coro.alloc(token %id)
  br i1 %alloc, label %coro.alloc, label %coro.init
coro.alloc:
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  br label %coro.init
coro.init:
  %0 = phi ptr [ null, %entry ], [ %mem, %coro.alloc ]
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %0)
  store ptr %hdl, ptr @hdl
  %v = mul i32 %n, %n
  %v1 = add i32 %v, %n
  %save = call token @llvm.coro.save(ptr null)
  %sp = call i8 @llvm.coro.suspend(token %save, i1 false)
  switch i8 %sp, label %suspend [i8 0, label %resume
                                 i8 1, label %cleanup]
resume:
  br label %cleanup
cleanup:
  call void @dtor()
  %mem1 = call ptr @llvm.coro.free(token %id, ptr %hdl)
  %heap = icmp ne ptr %mem1, null
  br i1 %heap, label %release, label %suspend
release:
  call void @release(ptr %mem1, i32 %v1)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr null, i1 false, token none)
  ret void
}

define void @dtor() {
  call i32 (ptr, ...) @printf(ptr @fmt.dtor)
  ret void
}

define void @release(ptr %p, i32 %v) {
  call i32 (ptr, ...) @printf(ptr @fmt.release, i32 %v)
  call void @free(ptr %p)
  ret void
}

define i32 @main() {
  call void @fn(i32 6)
  %h = load ptr, ptr @hdl
  call void @llvm.coro.destroy(ptr %h)
  call i32 (ptr, ...) @printf(ptr @fmt.done)
  ret i32 0
}

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.coro.destroy(ptr)
