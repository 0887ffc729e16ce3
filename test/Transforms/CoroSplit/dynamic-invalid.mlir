// RUN: coro-opt --coro-split %s --split-input-file --verify-diagnostics

// Allocas of dynamic size live across a suspension that route B cannot give
// heap memory: located errors from --coro-split.

// An alignment that is not a power of two (LLVM's verifier would reject
// the alloca; the split must not round it).
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @aligned24(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{an llvm.alloca of dynamic size live across a suspension is aligned to 24, not a power of two}}
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
llvm.func @use(i32)

// -----

// Before llvm.coro.begin there is no frame to own it.
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @early(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  // expected-error @+1 {{an llvm.alloca of dynamic size live across a suspension runs before llvm.coro.begin, when the frame that owns its memory does not exist yet}}
  %buf = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
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
llvm.func @use(i32)

// -----

// malloc and free are called by name: another function of that name is an error.
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr) -> i32
llvm.func @taken(%n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %true = llvm.mlir.constant(true) : i1
  %id = llvm.call_intrinsic "llvm.coro.id"(%c0, %null, %null, %null) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %size = llvm.call_intrinsic "llvm.coro.size.i64"() : () -> i64
  %m = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %m) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{'free' is a symbol of the module of another type: --coro-split calls it for the dynamic allocas this coroutine keeps}}
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
  %r = llvm.call @free(%f) : (!llvm.ptr) -> i32
  llvm.br ^suspend
^suspend:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}
llvm.func @use(i32)
