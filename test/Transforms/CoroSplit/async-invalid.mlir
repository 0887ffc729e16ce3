// RUN: coro-opt %s --coro-split --split-input-file --verify-diagnostics

// What LLVM's CoroSplit aborts on (or asserts on) in an async coroutine:
// located errors from --coro-split.

// The record must be a global of the module whose member 1 its initializer sets.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @no_record(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %pf = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{the async function pointer record must be the address of an llvm.mlir.global of the module, a struct whose member 1 (the context size) its initializer sets with llvm.insertvalue}}
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %pf) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// An async coroutine returns nothing: its parts end in tail calls.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
// expected-error @+1 {{an async coroutine returns nothing: its parts end in tail calls}}
llvm.func swifttailcc @returns(%ctx: !llvm.ptr) -> i64 attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The context argument index names a ptr argument.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @bad_index(%ctx: !llvm.ptr, %x: i64) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  // expected-error @+1 {{the context argument index of llvm.coro.id.async does not name a ptr argument of the coroutine}}
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c1, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The context's alignment is a power of two.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @bad_align(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  // expected-error @+1 {{llvm.coro.id.async takes the context header's constant size and alignment (a power of two), the constant index of the context argument and the async function pointer record}}
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c3, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The resume function operand is llvm.coro.async.resume's result.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @no_resume(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %proj = llvm.mlir.addressof @project : !llvm.ptr
  %park = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{the resume function of llvm.coro.suspend.async must be the result of llvm.coro.async.resume}}
  %r = llvm.call_intrinsic "llvm.coro.suspend.async"(%c0, %null, %proj, %park, %ctx) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(ptr)>
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The context index of a suspension is a constant.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @var_index(%ctx: !llvm.ptr, %i: i32) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %rf = llvm.call_intrinsic "llvm.coro.async.resume"() : () -> !llvm.ptr
  %proj = llvm.mlir.addressof @project : !llvm.ptr
  %park = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{llvm.coro.suspend.async takes the constant index of the context among the resume function's parameters, the resume function (llvm.coro.async.resume), the context projection function, the must-tail function and its arguments}}
  %r = llvm.call_intrinsic "llvm.coro.suspend.async"(%i, %rf, %proj, %park, %ctx) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(ptr)>
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The projection function takes a ptr and returns one.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @bad_projection(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %rf = llvm.call_intrinsic "llvm.coro.async.resume"() : () -> !llvm.ptr
  %proj = llvm.mlir.addressof @project : !llvm.ptr
  %park = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{the context projection function of llvm.coro.suspend.async must be the address of an llvm.func of the module taking one ptr and returning a ptr}}
  %r = llvm.call_intrinsic "llvm.coro.suspend.async"(%c0, %rf, %park, %park, %ctx) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(ptr)>
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The suspension returns a struct whose member at the context index is a ptr.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @bad_result(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %rf = llvm.call_intrinsic "llvm.coro.async.resume"() : () -> !llvm.ptr
  %proj = llvm.mlir.addressof @project : !llvm.ptr
  %park = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{llvm.coro.suspend.async returns the resume function's parameters as a struct, whose member at the context index is a ptr}}
  %r = llvm.call_intrinsic "llvm.coro.suspend.async"(%c0, %rf, %proj, %park, %ctx) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(i64)>
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The must-tail function takes the arguments after it.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @bad_tail(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %rf = llvm.call_intrinsic "llvm.coro.async.resume"() : () -> !llvm.ptr
  %proj = llvm.mlir.addressof @project : !llvm.ptr
  %park = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{the must-tail function of llvm.coro.suspend.async returns nothing and takes the arguments after it, of their types (2)}}
  %r = llvm.call_intrinsic "llvm.coro.suspend.async"(%c0, %rf, %proj, %park, %ctx, %ctx) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.struct<(ptr)>
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// The must-tail function of llvm.coro.end.async as well.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @bad_end(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %park = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{the must-tail function of llvm.coro.end.async returns nothing and takes the arguments after it, of their types (0)}}
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false, %park) : (!llvm.ptr, i1, !llvm.ptr) -> ()
  llvm.unreachable
}

// -----

// A switched-resume intrinsic in an async coroutine.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func swifttailcc @wrong_abi(%ctx: !llvm.ptr) attributes {passthrough = ["presplitcoroutine"]} {
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %fp = llvm.mlir.addressof @fp : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.async"(%c16, %c16, %c0, %fp) : (i32, i32, i32, !llvm.ptr) -> !llvm.token
  %null = llvm.mlir.zero : !llvm.ptr
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %none = llvm.mlir.none : !llvm.token
  %f = llvm.mlir.constant(false) : i1
  // expected-error @+1 {{'llvm.coro.suspend' is not an intrinsic of the async ABI, which the coroutine's llvm.coro.id.async chose}}
  %s = llvm.call_intrinsic "llvm.coro.suspend"(%none, %f) : (!llvm.token, i1) -> i8
  %false = llvm.mlir.constant(false) : i1
  llvm.call_intrinsic "llvm.coro.end.async"(%hdl, %false) : (!llvm.ptr, i1) -> ()
  llvm.unreachable
}

// -----

// llvm.coro.async.size.replace takes two records.
llvm.mlir.global internal @fp() : !llvm.struct<packed (i32, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
  %1 = llvm.mlir.constant(0 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<packed (i32, i32)>
  %3 = llvm.insertvalue %1, %2[1] : !llvm.struct<packed (i32, i32)>
  llvm.return %3 : !llvm.struct<packed (i32, i32)>
}
llvm.func @project(!llvm.ptr) -> !llvm.ptr
llvm.func swifttailcc @park(!llvm.ptr)
llvm.func @replace() {
  %a = llvm.mlir.addressof @fp : !llvm.ptr
  %b = llvm.mlir.addressof @park : !llvm.ptr
  // expected-error @+1 {{the async function pointer record must be the address of an llvm.mlir.global of the module, a struct whose member 1 (the context size) its initializer sets with llvm.insertvalue}}
  llvm.call_intrinsic "llvm.coro.async.size.replace"(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
