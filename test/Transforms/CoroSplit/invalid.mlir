// RUN: coro-opt --coro-split --split-input-file --verify-diagnostics %s

// Input LLVM's CoroSplit aborts on gets a located error from --coro-split.

// A token live across a suspension.
llvm.func @sink_token(!llvm.token)
llvm.func @token_across() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.intr.coro.begin %id, %null : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{a token value is live across a suspension}}
  %t = llvm.call_intrinsic "llvm.experimental.convergence.anchor"() : () -> !llvm.token
  %u = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  %s = llvm.intr.coro.suspend %u, %false : i8
  llvm.switch %s : i8, ^end [
    0: ^use,
    1: ^end
  ]
^use:
  llvm.call @sink_token(%t) : (!llvm.token) -> ()
  llvm.br ^end
^end:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

// -----

// A suspend with no coro.id or coro.begin.
// expected-error @+1 {{a coroutine to split needs exactly one llvm.coro.id}}
llvm.func @no_id() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %none = llvm.mlir.none : !llvm.token
  %false = llvm.mlir.constant(false) : i1
  %null = llvm.mlir.zero : !llvm.ptr
  %s = llvm.intr.coro.suspend %none, %false : i8
  llvm.return %null : !llvm.ptr
}

// -----

// expected-error @+1 {{a coroutine to split needs exactly one llvm.coro.begin}}
llvm.func @no_begin() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  llvm.return %null : !llvm.ptr
}

// -----

// Two fall-through coro.ends.
llvm.func @two_ends(%c: i1) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.intr.coro.begin %id, %null : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
^b:
  // expected-error @+1 {{a second fall-through llvm.coro.end}}
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

// -----

// Malformed operands: a final flag that is not a constant, a save from
// elsewhere, an intrinsic of another ABI.
llvm.func @final_flag(%f: i1) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.intr.coro.begin %id, %null : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{the final flag of llvm.coro.suspend must be a constant}}
  %s = llvm.intr.coro.suspend %none, %f : i8
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

// -----

llvm.func @after_save(%x: i32) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.intr.coro.begin %id, %null : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %save = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  // A pure op there moves above the save (save-hoist.ll); a division,
  // which may trap, stays.
  // expected-error @+1 {{this value lives across a suspension but is computed after its llvm.coro.save}}
  %late = llvm.sdiv %x, %x : i32
  %s = llvm.intr.coro.suspend %save, %false : i8
  llvm.switch %s : i8, ^end [
    0: ^use,
    1: ^end
  ]
^use:
  llvm.store %late, %null : i32, !llvm.ptr
  llvm.br ^end
^end:
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

// -----

// A switch coroutine (its coro.id is the switch one) using an intrinsic of
// another ABI.
llvm.func @mixed_intrinsics() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  // expected-error @+1 {{'llvm.coro.suspend.retcon' is not an intrinsic of the switched-resume ABI}}
  %s = llvm.call_intrinsic "llvm.coro.suspend.retcon"() : () -> i1
  llvm.return %null : !llvm.ptr
}

// -----

// A name --coro-split needs is taken.
// expected-error @+1 {{'taken.resume' is already a symbol of the module}}
llvm.func @taken() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.intr.coro.begin %id, %null : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  llvm.return %hdl : !llvm.ptr
}
llvm.func @taken.resume() {
  llvm.return
}

// -----

// An alloca the frame keeps (read after the suspension), whose address
// escapes before the frame exists (stores into it there are copied into
// the frame after llvm.coro.begin: copy-in.ll; its address would be left
// behind). One that nothing reads after a suspension stays on the ramp's
// stack, escaped or not (test/Integration/Elide/before-begin.mlir).
llvm.mlir.global external @escaped() : !llvm.ptr
llvm.func @early_use() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %g = llvm.mlir.addressof @escaped : !llvm.ptr
  %a = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  llvm.store %c0, %a : i32, !llvm.ptr
  // expected-error @+1 {{this use of an alloca the coroutine keeps in its frame runs before llvm.coro.begin and lets its address escape}}
  llvm.store %a, %g : !llvm.ptr, !llvm.ptr
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.intr.coro.begin %id, %null : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  %save = llvm.intr.coro.save %hdl : (!llvm.ptr) -> !llvm.token
  %s = llvm.intr.coro.suspend %save, %false : i8
  llvm.switch %s : i8, ^end [
    0: ^use,
    1: ^end
  ]
^use:
  %v = llvm.load %a : !llvm.ptr -> i32
  llvm.store %v, %g : i32, !llvm.ptr
  llvm.br ^end
^end:
  %none = llvm.mlir.none : !llvm.token
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

// -----

// A suspension intrinsic outside a coroutine.
llvm.func @not_a_coroutine() {
  %none = llvm.mlir.none : !llvm.token
  %false = llvm.mlir.constant(false) : i1
  // expected-error @+1 {{'llvm.coro.suspend' outside a coroutine --coro-split splits}}
  %s = llvm.intr.coro.suspend %none, %false : i8
  llvm.return
}

// -----

// The suspend result used outside its block, which does not end in an
// llvm.switch on it (one that does: suspend-result-kept.ll).
llvm.func @result_escapes() -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %false = llvm.mlir.constant(false) : i1
  %none = llvm.mlir.none : !llvm.token
  %id = llvm.intr.coro.id %c0, %null, %null, %null : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
  %hdl = llvm.intr.coro.begin %id, %null : (!llvm.token, !llvm.ptr) -> !llvm.ptr
  // expected-error @+1 {{the result of llvm.coro.suspend is used outside its block}}
  %s = llvm.intr.coro.suspend %none, %false : i8
  llvm.br ^next
^next:
  %z = llvm.zext %s : i8 to i32
  llvm.call_intrinsic "llvm.coro.end"(%hdl, %false, %none) : (!llvm.ptr, i1, !llvm.token) -> ()
  llvm.return %hdl : !llvm.ptr
}

// -----

// An llvm.coro.id of no ABI LLVM has.
llvm.func @unknown_id() attributes {passthrough = ["presplitcoroutine"]} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  // expected-error @+1 {{'llvm.coro.id.custom' is not an intrinsic --coro-split lowers}}
  %id = llvm.call_intrinsic "llvm.coro.id.custom"(%c0) : (i32) -> !llvm.token
  llvm.return
}
