// RUN: coro-opt %s --split-input-file --verify-diagnostics --coro-misuse-checks

// The checked mode reports through write(2): a symbol 'write' of another
// kind is a located error, not a call of the wrong function.
// expected-error@+1 {{the checked mode (--coro-misuse-checks) reports through write(2) and needs the symbol 'write' for it: this one is not an llvm.func of type !llvm.func<i64 (i32, ptr, i64)>}}
func.func @write(%x: i32) -> i32 {
  return %x : i32
}
func.func @drive(%h: !coro.handle<i32>) {
  "coro.resume"(%h) : (!coro.handle<i32>) -> ()
  return
}

// -----

// expected-error@+1 {{the checked mode (--coro-misuse-checks) needs the symbol '__coro_misuse' for its report function, but the module defines it}}
func.func @__coro_misuse() {
  return
}
func.func @drive(%h: !coro.handle<i32>) {
  "coro.resume"(%h) : (!coro.handle<i32>) -> ()
  return
}

// -----

// The table of destroyed handles has a name of its own too.
// expected-error@+1 {{the checked mode (--coro-misuse-checks) needs the symbol '__coro_destroyed_handles' for its table of destroyed handles, but the module defines it}}
llvm.mlir.global internal @__coro_destroyed_handles(0 : i64) : i64
func.func @drive(%h: !coro.handle<i32>) {
  "coro.destroy"(%h) : (!coro.handle<i32>) -> ()
  return
}
