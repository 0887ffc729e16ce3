; RUN: coro-opt %s --coro-split | FileCheck %s
; RUN: coro-opt %s --coro-split | FileCheck %s --check-prefix=MAIN
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; %x lives across both suspensions and is used in %j, which each resumed
; path reaches through an llvm.invoke: in @f.resume the reloads of the two
; landings meet there, and the SSA repair passes the right one as an
; operand of each invoke's normal destination. main resumes three times:
; 10 + 10 + 10.

; CHECK-LABEL: llvm.func internal fastcc @f.resume(
; CHECK: llvm.invoke @may_throw() to ^[[J:bb[0-9]+]](%{{.+}} : i32) unwind
; CHECK: llvm.invoke @may_throw() to ^[[J]](%{{.+}} : i32) unwind
; CHECK: ^[[J]](%{{.+}}: i32):
; OUT: 30

declare ptr @malloc(i64)
declare void @free(ptr)
declare i32 @__gxx_personality_v0(...)

@out = global i32 0

define internal void @may_throw() {
  ret void
}

define ptr @f(i32 %n) presplitcoroutine personality ptr @__gxx_personality_v0 {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
  %x = add i32 %n, 1
  %s1 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s1, label %suspend [i8 0, label %a
                                 i8 1, label %cleanup]
a:
  invoke void @may_throw() to label %j unwind label %lpad
b:
  invoke void @may_throw() to label %j unwind label %lpad
j:
  %o = load i32, ptr @out
  %o2 = add i32 %o, %x
  store i32 %o2, ptr @out
  %s2 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s2, label %suspend [i8 0, label %b
                                 i8 1, label %cleanup]
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  br label %cleanup
cleanup:
  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %m)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

; An invoked resume (what LLVM's inliner makes of a call that may unwind)
; is lowered to an invoke of the resume function: here the part itself,
; since the handle comes straight from a call of @f. (MLIR's importer drops
; the declaration of an intrinsic it turns calls of into ops; the import
; declares the invoked ones again, or route A's translation crashed.)
; MAIN-LABEL: llvm.func @main(
; MAIN: %[[H:.+]] = llvm.call @f(
; MAIN-NEXT: llvm.invoke fastcc @f.resume(%[[H]]) to ^{{bb[0-9]+}} unwind ^{{bb[0-9]+}}
; MAIN-NOT: llvm.coro
define i32 @main() personality ptr @__gxx_personality_v0 {
entry:
  %h = call ptr @f(i32 9)
  invoke void @llvm.coro.resume(ptr %h) to label %next unwind label %lpad
next:
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.resume(ptr %h)
  call void @llvm.coro.destroy(ptr %h)
  %o = load i32, ptr @out
  ret i32 %o
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 -1
}
