// RUN: coro-opt %s --convert-coro-to-llvm-async | FileCheck %s --check-prefix=ASYNC
// RUN: coro-opt %s --convert-coro-to-llvm-switch | FileCheck %s --check-prefix=SWITCH
// RUN: coro-opt %s --convert-coro-to-llvm-async --convert-coro-to-llvm-switch --convert-func-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=BOTH

// A switch coroutine awaiting and destroying the handle of an async one:
// whichever conversion runs first, the other ABI's handle reaches it as a
// !coro.handle, read as !llvm.ptr through a cast that the second
// conversion (or reconcile-unrealized-casts) removes.
func.func @leaf() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 7 : i64
  "coro.end"(%h, %c) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// The async conversion retypes the call of its coroutine inside the switch
// coroutine (which it leaves alone) and lowers the coro.destroy of that
// handle; coro.await belongs to the switch coroutine.
// ASYNC-LABEL: func.func @sw() -> !coro.handle<i64> attributes {coro.abi = "switch"}
// ASYNC: %[[T:.*]] = call @leaf() : () -> !llvm.ptr
// ASYNC-NEXT: %[[H:.*]] = builtin.unrealized_conversion_cast %[[T]] : !llvm.ptr to !coro.handle<i64>
// ASYNC-NEXT: %{{.*}} = "coro.await"(%[[H]]) : (!coro.handle<i64>) -> i64
// ASYNC-NEXT: %[[P:.*]] = builtin.unrealized_conversion_cast %[[H]] : !coro.handle<i64> to !llvm.ptr
// ASYNC-NEXT: llvm.call_intrinsic "llvm.coro.destroy"(%[[P]]) : (!llvm.ptr) -> ()

// The switch conversion lowers the await of the async handle, whose call
// keeps the async callee's type (the async conversion has not retyped it
// yet) and is read through a cast, and the coro.destroy of that handle
// through the header every handle shares.
// SWITCH-LABEL: func.func @sw() -> !llvm.ptr
// SWITCH: %[[T:.*]] = call @leaf() : () -> !coro.handle<i64>
// SWITCH-NEXT: %[[P:.*]] = builtin.unrealized_conversion_cast %[[T]] : !coro.handle<i64> to !llvm.ptr
// SWITCH-NEXT: llvm.br ^[[CHECK:[^ ]*]]
// SWITCH-NEXT: ^[[CHECK]]:
// SWITCH-NEXT: llvm.call_intrinsic "llvm.coro.done"(%[[P]]) : (!llvm.ptr) -> i1
// SWITCH: llvm.call_intrinsic "llvm.coro.destroy"(%[[P]]) : (!llvm.ptr) -> ()

// Both: no cast and no coro op is left.
// BOTH-LABEL: llvm.func @sw() -> !llvm.ptr
// BOTH-NOT: unrealized_conversion_cast
// BOTH-NOT: "coro.
// BOTH: llvm.call @leaf() : () -> !llvm.ptr
// BOTH-NOT: unrealized_conversion_cast
// BOTH-NOT: "coro.
// BOTH: llvm.return
func.func @sw() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %t = func.call @leaf() : () -> !coro.handle<i64>
  %v = "coro.await"(%t) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
