; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-translate %s --route=llvm --emit=llvm | FileCheck %s --check-prefix=META
; RUN: coro-translate %s --route=llvm --emit=obj -o %t.a.o && %cc %t.a.o -o %t.a && %t.a
; RUN: coro-translate %s --route=mlir-split --emit=obj -o %t.b.o && %cc %t.b.o -o %t.b && %t.b

; `!coro.outside.frame` (clang's, on the ramp's return-object holder), which
; MLIR's importer drops: the import keeps it as a call of
; __coro_outside_frame on the alloca, --coro-split leaves that alloca in
; the ramp instead of the frame (and erases the calls), and the
; translation to LLVM IR gives LLVM's CoroSplit the metadata back. Here
; the coroutine ends in the ramp, whose cleanup scribbles over the frame
; and frees it; then the ramp reads %gro: from the frame that is garbage
; (without the mark both routes return 0xABABABAB).

; CHECK-LABEL: llvm.func @f(
; CHECK: %[[GRO:.+]] = llvm.alloca %{{.+}} x i32
; CHECK-NOT: __coro_outside_frame
; CHECK: llvm.store %{{.+}}, %[[GRO]]
; CHECK: llvm.load %[[GRO]]
; CHECK-NOT: __coro_outside_frame
; OUT: 0
; META: %[[A:.+]] = alloca i32{{.*}}!coro.outside.frame
; META-NOT: __coro_outside_frame

declare ptr @malloc(i64)
declare void @free(ptr)

@ready = global i1 true

define i32 @f() presplitcoroutine {
entry:
  %gro = alloca i32, !coro.outside.frame !0
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store i32 42, ptr %gro
  %r = load i1, ptr @ready
  br i1 %r, label %cleanup, label %wait
wait:
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %ret [i8 0, label %cleanup
                            i8 1, label %cleanup]
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  %sz = call i64 @llvm.coro.size.i64()
  call void @llvm.memset.p0.i64(ptr %m, i8 -85, i64 %sz, i1 false)
  call void @free(ptr %m)
  br label %ret
ret:
  %v = load i32, ptr %gro
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret i32 %v
}

; 0 when @f returned what it stored, 1 when it read the scribbled frame
define i32 @main() {
  %v = call i32 @f()
  %bad = icmp ne i32 %v, 42
  %r = zext i1 %bad to i32
  ret i32 %r
}

!0 = !{}
