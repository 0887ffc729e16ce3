; A retcon.once coroutine: yields n, then returns 3 * n (or 0 when
; unwound); main gives n = 7 and prints 100 * 7 + 21.

define {ptr, i32} @g(ptr %buffer, i32 %n) {
entry:
  %id = call token @llvm.coro.id.retcon.once(i32 8, i32 4, ptr %buffer, ptr @proto, ptr @allocate, ptr @deallocate)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)
  %unwind = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 %n)
  br i1 %unwind, label %cleanup, label %resume
resume:
  %m = mul i32 %n, 3
  br label %end
cleanup:
  br label %end
end:
  %r = phi i32 [ %m, %resume ], [ 0, %cleanup ]
  %tok = call token (...) @llvm.coro.end.results(i32 %r)
  call void @llvm.coro.end(ptr %hdl, i1 false, token %tok)
  unreachable
}
declare i32 @proto(ptr, i1 zeroext)
define ptr @allocate(i32 %size) {
  %w = zext i32 %size to i64
  %p = call ptr @malloc(i64 %w)
  ret ptr %p
}
define void @deallocate(ptr %p) {
  call void @free(ptr %p)
  ret void
}
define i32 @main() {
  %buf = alloca [8 x i8], align 8
  %r0 = call {ptr, i32} @g(ptr %buf, i32 7)
  %k0 = extractvalue {ptr, i32} %r0, 0
  %v0 = extractvalue {ptr, i32} %r0, 1
  %r1 = call i32 %k0(ptr %buf, i1 false)
  %a = mul i32 %v0, 100
  %t = add i32 %a, %r1
  ret i32 %t
}
declare ptr @malloc(i64)
declare void @free(ptr)
