; RUN: coro-opt %s --coro-split --remarks-filter=coro-frame -o /dev/null 2>&1 | FileCheck %s
; RUN: coro-run %s --route=mlir-split | FileCheck %s --check-prefix=OUT
; RUN: coro-run %s --route=llvm | FileCheck %s --check-prefix=OUT

; A division by a constant that cannot trap is recomputed after a
; suspension from what it divides, as LLVM's CoroSplit recomputes any
; binary operator: %q (sdiv by 7), %r (urem by 5) and %h (fdiv by 2.0)
; are recomputed from %x and %y, which the frame keeps anyway. A divisor
; that may be 0 (%d: an argument) or that is -1 for a signed division
; (%m: the least value's quotient overflows) keeps the result in the frame.

; OUT: 1730

declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @f(i64 %x, double %y, i64 %z, ptr %out) presplitcoroutine {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  %size = call i64 @llvm.coro.size.i64()
  %mem = call ptr @malloc(i64 %size)
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)
; CHECK-DAG: remat-divide.ll:[[@LINE+1]]:3: remark: no frame field in 'f': value of i64, recomputed after suspensions 0{{$}}
  %q = sdiv i64 %x, 7
; CHECK-DAG: remat-divide.ll:[[@LINE+1]]:3: remark: no frame field in 'f': value of i64, recomputed after suspensions 0{{$}}
  %r = urem i64 %x, 5
; CHECK-DAG: remat-divide.ll:[[@LINE+1]]:3: remark: no frame field in 'f': value of f64, recomputed after suspensions 0{{$}}
  %h = fdiv double %y, 2.0
; CHECK-DAG: remat-divide.ll:[[@LINE+1]]:3: remark: frame field of 'f' at offset {{[0-9]+}} (size 8, align 8): value of i64, kept across suspensions 0{{$}}
  %d = sdiv i64 %x, %z
; CHECK-DAG: remat-divide.ll:[[@LINE+1]]:3: remark: frame field of 'f' at offset {{[0-9]+}} (size 8, align 8): value of i64, kept across suspensions 0{{$}}
  %m = srem i64 %x, -1
  %s0 = call i8 @llvm.coro.suspend(token none, i1 false)
  switch i8 %s0, label %suspend [i8 0, label %resume
                                 i8 1, label %cleanup]
resume:
  ; (q 2 + r 4 + h 8 + d 3 + m 0) * 100 + x 14 + y 16 = 1730
  %hi = fptosi double %h to i64
  %yi = fptosi double %y to i64
  %a0 = add i64 %q, %r
  %a1 = add i64 %a0, %hi
  %a2 = add i64 %a1, %d
  %a3 = add i64 %a2, %m
  %a4 = mul i64 %a3, 100
  %a5 = add i64 %a4, %x
  %a7 = add i64 %a5, %yi
  %t = trunc i64 %a7 to i32
  store i32 %t, ptr %out
  br label %cleanup
cleanup:
  %fm = call ptr @llvm.coro.free(token %id, ptr %hdl)
  call void @free(ptr %fm)
  br label %suspend
suspend:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none)
  ret ptr %hdl
}

define i32 @main() {
  %out = alloca i32
  store i32 0, ptr %out
  %h = call ptr @f(i64 14, double 16.0, i64 4, ptr %out)
  call void @llvm.coro.resume(ptr %h)
  %r = load i32, ptr %out
  ret i32 %r
}
