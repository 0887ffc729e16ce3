// The coro side of bench/run.sh: a generator of 0, 1, ..., n-1 and two
// consumers that sum it, passing every value to @bench_sink (defined in
// bench.c, so no side can fold the loop away).
//  @coro_sum_heap    the handle goes through @bench_launder (opaque to
//                    LLVM), so the frame stays on the heap and each value
//                    costs an indirect resume call;
//  @coro_sum_elided  the generator is coro.alloc = "elide": LLVM inlines
//                    the ramp and resume and puts the frame on the stack
//                    (route A); coro's split puts it there (route B);
//  @coro_sum_local   no coro.alloc: --coro-elide proves the handle local,
//                    so route B puts the frame on the stack at every -O
//                    level and calls gen_local.resume directly;
//  @coro_sum_helper  the same through the helper @drain (the frame is
//                    still local; the resume is indirect under route B).
func.func private @bench_sink(i64)
func.func private @bench_launder(!coro.handle<i64>) -> !coro.handle<i64>

func.func @gen_heap(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
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

func.func @gen_elided(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch", coro.alloc = "elide"} {
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

func.func @gen_local(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
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

func.func @drain(%g: !coro.handle<i64>) {
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

func.func @coro_sum_heap(%n: i64) {
  %g0 = call @gen_heap(%n) : (i64) -> !coro.handle<i64>
  %g = call @bench_launder(%g0) : (!coro.handle<i64>) -> !coro.handle<i64>
  call @drain(%g) : (!coro.handle<i64>) -> ()
  return
}

// The stack rows drive the generator in the function that made it, as the
// C state machine's loop does.
func.func @coro_sum_elided(%n: i64) {
  %g = call @gen_elided(%n) : (i64) -> !coro.handle<i64>
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

func.func @coro_sum_local(%n: i64) {
  %g = call @gen_local(%n) : (i64) -> !coro.handle<i64>
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

// The same, driven by the helper @drain: the frame is still local
// (--coro-elide follows the handle into @drain), but route B calls resume
// through the header there (it sees no origin for a parameter).
func.func @coro_sum_helper(%n: i64) {
  %g = call @gen_local(%n) : (i64) -> !coro.handle<i64>
  call @drain(%g) : (!coro.handle<i64>) -> ()
  return
}
