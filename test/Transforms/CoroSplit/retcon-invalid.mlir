// RUN: coro-opt %s --coro-split --split-input-file --verify-diagnostics

// What LLVM's CoroSplit aborts on, or miscompiles, in a returned-continuation
// coroutine: located errors from --coro-split.

llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
llvm.func @wrong_count(%buf: !llvm.ptr) -> !llvm.struct<(ptr, i64)> attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{llvm.coro.suspend.retcon yields 0 values where the coroutine's result holds 1 after the continuation}}
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
llvm.func @wrong_type(%buf: !llvm.ptr, %x: i32) -> !llvm.struct<(ptr, i64)> attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{value 0 that llvm.coro.suspend.retcon yields is not of the type the coroutine's result holds there}}
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"(%x) : (i32) -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// The suspension's result is the prototype's parameters after the buffer.
llvm.func @p.proto(!llvm.ptr, i1, i64) -> !llvm.ptr
llvm.func @wrong_result(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{the result of llvm.coro.suspend.retcon is not the prototype's parameters after the buffer}}
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// The prototype must be a function of the module.
llvm.mlir.global external @not_a_function() : i64
llvm.func @bad_proto(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @not_a_function : !llvm.ptr
  // expected-error @+1 {{the prototype of llvm.coro.id.retcon must be the address of an llvm.func of the module}}
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// A retcon prototype returns what the coroutine returns.
llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.struct<(ptr, i64)>
llvm.func @proto_result(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  // expected-error @+1 {{the prototype of a retcon coroutine returns what the coroutine returns}}
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// A coroutine that does not return its continuation.
llvm.func @p.proto(!llvm.ptr, i1) -> i64
// expected-error @+1 {{a returned-continuation coroutine returns its continuation: a ptr, or a struct whose first member is one}}
llvm.func @no_continuation(%buf: !llvm.ptr) -> i64 attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon.once"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// A frame larger than the buffer, and no allocator.
llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.ptr
llvm.func @use(i64)
llvm.func @no_allocator(%buf: !llvm.ptr, %a: i64, %b: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  // expected-error @+1 {{the frame (16 bytes, align 8) does not fit the buffer (8, align 8) and llvm.coro.id.retcon gives no allocator}}
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  llvm.call @use(%a) : (i64) -> ()
  llvm.call @use(%b) : (i64) -> ()
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// A buffer size that is not a constant.
llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.ptr
llvm.func @dynamic_buffer(%buf: !llvm.ptr, %n: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  // expected-error @+1 {{llvm.coro.id.retcon takes the buffer's constant size and alignment}}
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%n, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// A switch intrinsic in a retcon coroutine.
llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.ptr
llvm.func @switch_suspend(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %none = llvm.mlir.none : !llvm.token
  %false = llvm.mlir.constant(false) : i1
  // expected-error @+1 {{'llvm.coro.suspend' is not an intrinsic of the returned-continuation ABIs, which the coroutine's llvm.coro.id.retcon chose}}
  %s = llvm.intr.coro.suspend %none, %false : i8
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// Results at the end of a retcon (not retcon.once) coroutine.
llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.ptr
llvm.func @retcon_results(%buf: !llvm.ptr, %x: i64) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %tok = llvm.call_intrinsic "llvm.coro.end.results"(%x) : (i64) -> !llvm.token
  %false = llvm.mlir.constant(false) : i1
  // expected-error @+1 {{an llvm.coro.end of a retcon coroutine takes no results}}
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %tok) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// retcon.once: the end's values do not make the prototype's result.
llvm.func @p.proto(!llvm.ptr, i1) -> i64
llvm.func @once_results(%buf: !llvm.ptr, %x: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon.once"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %tok = llvm.call_intrinsic "llvm.coro.end.results"(%x) : (i32) -> !llvm.token
  %false = llvm.mlir.constant(false) : i1
  // expected-error @+1 {{the values of llvm.coro.end.results do not make the prototype's result}}
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %tok) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// retcon.once: a fall-through end gives no results, but the prototype
// returns one (LLVM's CoroSplit asserts on it).
llvm.func @p.proto(!llvm.ptr, i1) -> i64
llvm.func @once_no_results(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon.once"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  // expected-error @+1 {{the values of llvm.coro.end.results do not make the prototype's result}}
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}

// -----

// A continuation's name is taken.
llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.ptr
// expected-error @+1 {{'taken.resume.0' is already a symbol of the module}}
llvm.func @taken(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}
llvm.func @taken.resume.0() {
  llvm.return
}

// -----

// A token live across a suspension.
llvm.func @p.proto(!llvm.ptr, i1) -> !llvm.ptr
llvm.func @take(!llvm.token)
llvm.func @token_across(%buf: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %proto = llvm.mlir.addressof @p.proto : !llvm.ptr
  %id = llvm.call_intrinsic "llvm.coro.id.retcon"(%c8, %c8, %buf, %proto, %null, %null) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.call_intrinsic "llvm.coro.begin"(%id, %null) : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{a token value is live across a suspension}}
  %t = llvm.call_intrinsic "llvm.stacksave"() : () -> !llvm.token
  %abn = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  llvm.call @take(%t) : (!llvm.token) -> ()
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.unreachable
}
