; RUN: coro-translate %s --route=mlir-split -O2 --emit=llvm --remarks-filter='coro-frame|coro-split' -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split -O2 | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm -O2 | FileCheck %s --check-prefix=OUT

; clang makes each await_suspend wrapper without its coroutine's target
; attributes (here @f has target-features, @f.wrapper has none, as clang
; emits them), and LLVM inlines no callee (@Awaiter.suspend, which has
; them) into a caller that lacks its target features. At -O2 route B's
; pre-split trip gives the wrapper its coroutine's: @Awaiter.suspend is
; inlined into it and LLVM's function-attrs marks the awaiter
; captures(none), since await_suspend only reads it. The awaiter, which
; nothing reads after the suspension, then stays out of the frame (before,
; the wrapper's call kept its address and so the whole awaiter across its
; suspension). Its lifetime markers span the suspension, as clang's do.

; CHECK-NOT: alloca of !llvm.struct<"struct.Awaiter"
; CHECK: remark: Split 'f'
; OUT: 42

%struct.Awaiter = type { i32, i32 }

@parked = internal global ptr null
@seen = internal global i32 0

declare ptr @malloc(i64)
declare void @free(ptr)

define linkonce_odr void @Awaiter.suspend(ptr %this, ptr %h) #0 {
  %in = load i32, ptr %this
  %s = load i32, ptr @seen
  %t = add i32 %s, %in
  store i32 %t, ptr @seen
  store ptr %h, ptr @parked
  ret void
}

define internal void @f.wrapper(ptr %aw, ptr %h) #1 {
  call void @Awaiter.suspend(ptr %aw, ptr %h)
  ret void
}

define ptr @f(i32 %n) presplitcoroutine #0 {
entry:
  %aw = alloca %struct.Awaiter, align 4
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  call void @llvm.lifetime.start.p0(ptr %aw)
  store i32 %n, ptr %aw
  %second = getelementptr inbounds i8, ptr %aw, i64 4
  store i32 0, ptr %second
  %save = call token @llvm.coro.save(ptr null)
  call void @llvm.coro.await.suspend.void(ptr %aw, ptr %hdl, ptr @f.wrapper)
  %s0 = call i8 @llvm.coro.suspend(token %save, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %resume
                                 i8 1, label %destroy]
resume:
  call void @llvm.lifetime.end.p0(ptr %aw)
  %v = load i32, ptr @seen
  %w = add i32 %v, %n
  store i32 %w, ptr @seen
  br label %cleanup
destroy:
  call void @llvm.lifetime.end.p0(ptr %aw)
  br label %cleanup
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() #0 {
  %h = call ptr @f(i32 21)
  %p = load ptr, ptr @parked
  call void @llvm.coro.resume(ptr %p)
  %r = load i32, ptr @seen
  ret i32 %r
}

attributes #0 = { "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
attributes #1 = { alwaysinline }
