// The tasks of detach.test (driven by detach.c). Their frames come from
// the host's @counted_alloc and go back through @counted_free, which count
// them, so the host sees which tasks the runtime released.

func.func private @counted_alloc(i64) -> !llvm.ptr
func.func private @counted_free(!llvm.ptr)

// Parks at its start, then stores %i * 3 in %out[%i] and ends; fails
// ("leaf failed") when %i is negative.
func.func @leaf(%i: i64, %out: !llvm.ptr) -> !coro.handle<i64>
    attributes {coro.abi = "async", coro.alloc_fn = @counted_alloc,
                coro.free_fn = @counted_free} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %p = "coro.yield"() : () -> i1
  %zero = arith.constant 0 : i64
  %ok = arith.cmpi sge, %i, %zero : i64
  cf.assert %ok, "leaf failed"
  %c3 = arith.constant 3 : i64
  %v = arith.muli %i, %c3 : i64
  %slot = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  llvm.store %v, %slot : i64, !llvm.ptr
  "coro.end"(%h, %v) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
