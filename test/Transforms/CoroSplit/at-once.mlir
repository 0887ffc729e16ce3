// RUN: rm -rf %t && split-file %s %t
// RUN: coro-opt %t/ok.mlir --coro-split > %t/threads.mlir
// RUN: coro-opt %t/ok.mlir --coro-split --mlir-disable-threading > %t/one.mlir
// RUN: diff %t/threads.mlir %t/one.mlir
// RUN: FileCheck %s < %t/threads.mlir
// RUN: not coro-opt %t/bad.mlir --coro-split -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR

// --coro-split splits the switch coroutines of a module at once, on MLIR's
// threads (one with --mlir-disable-threading), when none names another:
// the same output as one at a time, each coroutine's parts and the
// declarations it needs placed in the order the one-at-a-time split makes
// them, and the errors in the coroutines' order. Each coroutine keeps an
// alloca of dynamic size across a suspension, which the split gives heap
// memory (a helper that frees it, made once for all).

// CHECK-LABEL: llvm.func @a(
// CHECK-LABEL: llvm.func @b(
// CHECK-LABEL: llvm.func @c(
// CHECK-LABEL: llvm.func @d(
// CHECK: llvm.func internal @__coro_free_allocas(
// CHECK: llvm.func internal fastcc @a.resume(
// CHECK: llvm.func internal fastcc @a.destroy(
// CHECK: llvm.func internal fastcc @a.cleanup(
// CHECK: llvm.func internal fastcc @b.resume(
// CHECK: llvm.func internal fastcc @b.destroy(
// CHECK: llvm.func internal fastcc @b.cleanup(
// CHECK: llvm.func internal fastcc @c.resume(
// CHECK: llvm.func internal fastcc @d.resume(
// CHECK-NOT: llvm.func internal @__coro_free_allocas(

// ERR: bad.mlir:{{[0-9]+}}:{{[0-9]+}}: error: an llvm.alloca of dynamic size live across a suspension is aligned to 24, not a power of two
// ERR: bad.mlir:{{[0-9]+}}:{{[0-9]+}}: error: an llvm.alloca of dynamic size live across a suspension is aligned to 48, not a power of two

//--- ok.mlir
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @use(i32)
llvm.func @a(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @b(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @c(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @d(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

//--- bad.mlir
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @use(i32)
llvm.func @e(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @f(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 24 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @g(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @h(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %buf = llvm.alloca %n x i32 {alignment = 48 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %buf : i32, !llvm.ptr
  %save = llvm.call_intrinsic "llvm.coro.save"(%hdl) : (!llvm.ptr) -> !llvm.token
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%save, %false) : (!llvm.token, i1) -> i8
  llvm.switch %s : i8, ^suspend [
    0: ^resume,
    1: ^cleanup
  ]
^resume:
  %v = llvm.load %buf : !llvm.ptr -> i32
  llvm.call @use(%v) : (i32) -> ()
  %tok = llvm.mlir.none : !llvm.token
  %fs = llvm.call_intrinsic "llvm.coro.suspend"(%tok, %true) : (!llvm.token, i1) -> i8
  llvm.switch %fs : i8, ^suspend [
    0: ^trap,
    1: ^cleanup
  ]
^trap:
  llvm.unreachable
^cleanup:
  %f = llvm.call_intrinsic "llvm.coro.free"(%id, %hdl) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.call @free(%f) : (!llvm.ptr) -> ()
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
