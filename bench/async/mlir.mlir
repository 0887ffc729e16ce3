// mlir.mlir - MLIR's side of bench/async.sh: the same two programs as
// coro.mlir in MLIR's async dialect, lowered by mlir-opt's async passes
// (async.sh names them), compiled with clang -O2 and linked with
// libmlir_async_runtime, whose thread pool runs every async.execute.
// Driven by mlir-main.c.
//
//   @fanout(n)    n tasks, task i stores i % 7 in slot i of a buffer; each
//                 token joins one group; after await_all the slots are
//                 summed
//   @fib(n)       a task computing fib(n): for n >= 2 it calls fib(n-1)
//                 and fib(n-2) (each spawns its own task) and awaits both
//                 values; a leaf yields n
//   @fib_main(n)  awaits fib(n) (blocking: the caller is no task)

func.func @fanout(%n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = memref.alloc(%n) : memref<?xi64>
  %g = async.create_group %n : !async.group
  scf.for %i = %c0 to %n step %c1 {
    %t = async.execute {
      %ii = arith.index_cast %i : index to i64
      %c7 = arith.constant 7 : i64
      %v = arith.remui %ii, %c7 : i64
      memref.store %v, %out[%i] : memref<?xi64>
      async.yield
    }
    %rank = async.add_to_group %t, %g : !async.token
  }
  async.await_all %g
  %z = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i64) {
    %v = memref.load %out[%i] : memref<?xi64>
    %a2 = arith.addi %a, %v : i64
    scf.yield %a2 : i64
  }
  memref.dealloc %out : memref<?xi64>
  return %s : i64
}

func.func @fib(%n: i64) -> !async.value<i64> {
  %t, %v = async.execute -> !async.value<i64> {
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %small = arith.cmpi ult, %n, %c2 : i64
    %r = scf.if %small -> i64 {
      scf.yield %n : i64
    } else {
      %n1 = arith.subi %n, %c1 : i64
      %n2 = arith.subi %n, %c2 : i64
      %a = func.call @fib(%n1) : (i64) -> !async.value<i64>
      %b = func.call @fib(%n2) : (i64) -> !async.value<i64>
      %x = async.await %a : !async.value<i64>
      %y = async.await %b : !async.value<i64>
      %s = arith.addi %x, %y : i64
      scf.yield %s : i64
    }
    async.yield %r : i64
  }
  return %v : !async.value<i64>
}

func.func @fib_main(%n: i64) -> i64 {
  %v = call @fib(%n) : (i64) -> !async.value<i64>
  %r = async.await %v : !async.value<i64>
  return %r : i64
}
