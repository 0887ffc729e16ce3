// The retcon row of bench/run.sh: the generator of generator.mlir under
// coro.abi = "retcon" (the frame in the control block's buffer), drained
// through an opaque handle like @coro_sum_heap: one indirect resume call
// per value, through the control block's resume entry.
func.func private @bench_sink(i64)
func.func private @bench_launder(!coro.handle<i64>) -> !coro.handle<i64>

func.func @gen_retcon(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  "coro.yield"(%i) : (i64) -> i1
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @coro_sum_retcon(%n: i64) {
  %g0 = call @gen_retcon(%n) : (i64) -> !coro.handle<i64>
  %g = call @bench_launder(%g0) : (!coro.handle<i64>) -> !coro.handle<i64>
  %true = arith.constant true
  scf.while : () -> () {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go)
  } do {
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    func.call @bench_sink(%v) : (i64) -> ()
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}

// The "retcon local" rows: the same generator drained where it is made, so
// --coro-elide places its control block (which holds the frame) on this
// function's stack: no allocation, and the resume entry is known.
func.func @coro_sum_retcon_local(%n: i64) {
  %g = call @gen_retcon(%n) : (i64) -> !coro.handle<i64>
  %true = arith.constant true
  scf.while : () -> () {
    %done = "coro.done"(%g) : (!coro.handle<i64>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go)
  } do {
    %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
    func.call @bench_sink(%v) : (i64) -> ()
    "coro.resume"(%g) : (!coro.handle<i64>) -> ()
    scf.yield
  }
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return
}
