; RUN: coro-translate %s --route=mlir-split -O2 --emit=llvm --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-translate %s --route=mlir-split -O2 --emit=llvm | FileCheck %s --check-prefix=IR
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm -O2 | FileCheck %s --check-prefix=OUT

; At -O2 route B's pre-split trip keeps from inlining only the calls that
; allocate and free the frame (the one whose result llvm.coro.begin takes,
; the one given llvm.coro.free's result), which --coro-split looks for.
; Other functions of the same types inline as in LLVM's pipeline: here
; @init and @bump (a C++ constructor and method have a deallocator's type,
; void (ptr)), so %x becomes a value and the frame keeps an i64, not the
; alloca (LLVM folds it away: 5 + 7 is stored); @alloc_frame stays a call
; the split sees.

; CHECK-NOT: alloca of i64
; CHECK: frame field of 'f' at offset 16 (size 8, align 8): value of !llvm.ptr, kept across suspensions 0
; CHECK-NOT: alloca of i64
; IR-NOT: @init
; IR-NOT: @bump
; IR: call {{.*}}ptr @alloc_frame(i64 32)
; OUT: 12

declare ptr @malloc(i64)
declare void @free(ptr)

define internal ptr @alloc_frame(i64 %n) {
  %m = call ptr @malloc(i64 %n)
  ret ptr %m
}

define internal void @free_frame(ptr %p) {
  call void @free(ptr %p)
  ret void
}

define internal void @init(ptr %p) {
  store i64 5, ptr %p
  ret void
}

define internal void @bump(ptr %p) {
  %v = load i64, ptr %p
  %w = add i64 %v, 7
  store i64 %w, ptr %p
  ret void
}

define ptr @f(ptr %out) presplitcoroutine {
entry:
  %x = alloca i64
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @alloc_frame(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @init(ptr %x)
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %suspend [i8 0, label %resume
                                i8 1, label %cleanup]
resume:
  call void @bump(ptr %x)
  %v = load i64, ptr %x
  store i64 %v, ptr %out
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free_frame(ptr %m)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
  %out = alloca i64
  store i64 0, ptr %out
  %h = call ptr @f(ptr %out)
  call void @llvm.coro.resume(ptr %h)
  %r = load i64, ptr %out
  %t = trunc i64 %r to i32
  ret i32 %t
}
