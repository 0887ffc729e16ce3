; A switch coroutine whose llvm.coro.id promise is a GEP into an alloca, not
; the alloca: LLVM takes it for no promise (route A read whatever was at the
; promise's place); llvm-ir.test expects a located error on both routes.
declare ptr @malloc(i64)
declare void @free(ptr)
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
declare i64 @llvm.coro.size.i64()
declare ptr @llvm.coro.begin(token, ptr)
declare i8 @llvm.coro.suspend(token, i1)
declare ptr @llvm.coro.free(token, ptr)
declare void @llvm.coro.end(ptr, i1, token)
declare ptr @llvm.coro.promise(ptr, i32, i1)
declare void @llvm.coro.destroy(ptr)

define ptr @gen(i64 %n) presplitcoroutine {
entry:
  %pa = alloca { i64, i64 }, align 8
  %p = getelementptr { i64, i64 }, ptr %pa, i32 0, i32 1
  %id = call token @llvm.coro.id(i32 0, ptr %p, ptr null, ptr null)
  %sz = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %sz)
  %h = call ptr @llvm.coro.begin(token %id, ptr %mem)
  store i64 %n, ptr %p
  %s = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s, label %sus [i8 0, label %cleanup
                            i8 1, label %cleanup]
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %h)
  call void @free(ptr %m)
  br label %sus
sus:
  call void @llvm.coro.end(ptr %h, i1 false, token none)
  ret ptr %h
}

define i64 @main() {
  %h = call ptr @gen(i64 42)
  %p = call ptr @llvm.coro.promise(ptr %h, i32 8, i1 false)
  %v = load i64, ptr %p
  call void @llvm.coro.destroy(ptr %h)
  ret i64 %v
}
