// host-api.mlir - coroutines of every ABI for a C host that drives them
// through coro-runtime/Runtime.h alone (../host-api.test,
// Inputs/host-api.c). Every coroutine takes host-friendly arguments (i64,
// pointers) and the host calls it by its own name.

// @count_<abi> yields 10 * k for k = 0 .. n-1, then ends with the sum of
// what it yielded; destroyed early, it ends with the sum so far.
func.func @count_switch(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c10 = arith.constant 10 : i64
  cf.br ^loop(%c0, %c0 : i64, i64)
^loop(%k: i64, %sum: i64):
  %more = arith.cmpi slt, %k, %n : i64
  cf.cond_br %more, ^body, ^done(%sum : i64)
^body:
  %v = arith.muli %k, %c10 : i64
  %d = "coro.yield"(%v) : (i64) -> i1
  %k1 = arith.addi %k, %c1 : i64
  %s1 = arith.addi %sum, %v : i64
  cf.cond_br %d, ^done(%sum : i64), ^loop(%k1, %s1 : i64, i64)
^done(%r: i64):
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @count_retcon(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c10 = arith.constant 10 : i64
  cf.br ^loop(%c0, %c0 : i64, i64)
^loop(%k: i64, %sum: i64):
  %more = arith.cmpi slt, %k, %n : i64
  cf.cond_br %more, ^body, ^done(%sum : i64)
^body:
  %v = arith.muli %k, %c10 : i64
  %d = "coro.yield"(%v) : (i64) -> i1
  %k1 = arith.addi %k, %c1 : i64
  %s1 = arith.addi %sum, %v : i64
  cf.cond_br %d, ^done(%sum : i64), ^loop(%k1, %s1 : i64, i64)
^done(%r: i64):
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @count_async(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c10 = arith.constant 10 : i64
  cf.br ^loop(%c0, %c0 : i64, i64)
^loop(%k: i64, %sum: i64):
  %more = arith.cmpi slt, %k, %n : i64
  cf.cond_br %more, ^body, ^done(%sum : i64)
^body:
  %v = arith.muli %k, %c10 : i64
  %d = "coro.yield"(%v) : (i64) -> i1
  %k1 = arith.addi %k, %c1 : i64
  %s1 = arith.addi %sum, %v : i64
  cf.cond_br %d, ^done(%sum : i64), ^loop(%k1, %s1 : i64, i64)
^done(%r: i64):
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// @cell_once (retcon.once): a yield-once accessor of *p. It yields *p; resumed
// with a value it stores it in *p and ends with old + new; destroyed
// instead, it leaves *p alone and ends with old.
func.func @cell_once(%p: !llvm.ptr) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %old = llvm.load %p : !llvm.ptr -> i64
  %d, %new = "coro.yield"(%old) : (i64) -> (i1, i64)
  cf.cond_br %d, ^abort, ^commit
^commit:
  llvm.store %new, %p : i64, !llvm.ptr
  %r = arith.addi %old, %new : i64
  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
^abort:
  "coro.end"(%h, %old) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Accumulators (retcon): each yields its running sum and adds the value it
// is resumed with; destroyed, it stores the sum in *log (the i64 one) and
// ends with it.
func.func @acc_i64(%log: !llvm.ptr) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  cf.br ^loop(%c0 : i64)
^loop(%sum: i64):
  %d, %x = "coro.yield"(%sum) : (i64) -> (i1, i64)
  cf.cond_br %d, ^cleanup, ^add
^add:
  %s = arith.addi %sum, %x : i64
  cf.br ^loop(%s : i64)
^cleanup:
  llvm.store %sum, %log : i64, !llvm.ptr
  "coro.end"(%h, %sum) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @acc_i32() -> !coro.handle<i32> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  cf.br ^loop(%c0 : i32)
^loop(%sum: i32):
  %d, %x = "coro.yield"(%sum) : (i32) -> (i1, i32)
  cf.cond_br %d, ^end, ^add
^add:
  %s = arith.addi %sum, %x : i32
  cf.br ^loop(%s : i32)
^end:
  "coro.end"(%h, %sum) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @acc_f64() -> !coro.handle<f64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<f64>
  %c0 = arith.constant 0.0 : f64
  cf.br ^loop(%c0 : f64)
^loop(%sum: f64):
  %d, %x = "coro.yield"(%sum) : (f64) -> (i1, f64)
  cf.cond_br %d, ^end, ^add
^add:
  %s = arith.addf %sum, %x : f64
  cf.br ^loop(%s : f64)
^end:
  "coro.end"(%h, %sum) : (!coro.handle<f64>, f64) -> ()
  return %h : !coro.handle<f64>
}

func.func @acc_f32() -> !coro.handle<f32> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<f32>
  %c0 = arith.constant 0.0 : f32
  cf.br ^loop(%c0 : f32)
^loop(%sum: f32):
  %d, %x = "coro.yield"(%sum) : (f32) -> (i1, f32)
  cf.cond_br %d, ^end, ^add
^add:
  %s = arith.addf %sum, %x : f32
  cf.br ^loop(%s : f32)
^end:
  "coro.end"(%h, %sum) : (!coro.handle<f32>, f32) -> ()
  return %h : !coro.handle<f32>
}

// Resumed with a pointer: adds the i64 it points to.
func.func @acc_ptr() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  cf.br ^loop(%c0 : i64)
^loop(%sum: i64):
  %d, %p = "coro.yield"(%sum) : (i64) -> (i1, !llvm.ptr)
  cf.cond_br %d, ^end, ^add
^add:
  %x = llvm.load %p : !llvm.ptr -> i64
  %s = arith.addi %sum, %x : i64
  cf.br ^loop(%s : i64)
^end:
  "coro.end"(%h, %sum) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// Resumed with an i16 (coro_rt_resume_with, by size and alignment): adds it
// sign-extended.
func.func @acc_i16() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  cf.br ^loop(%c0 : i64)
^loop(%sum: i64):
  %d, %x = "coro.yield"(%sum) : (i64) -> (i1, i16)
  cf.cond_br %d, ^end, ^add
^add:
  %w = arith.extsi %x : i16 to i64
  %s = arith.addi %sum, %w : i64
  cf.br ^loop(%s : i64)
^end:
  "coro.end"(%h, %sum) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// @walk (switch) publishes pointers: &base[k] for k = 0 .. n-1.
func.func @walk(%base: !llvm.ptr, %n: i64) -> !coro.handle<!llvm.ptr> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<!llvm.ptr>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%k: i64):
  %more = arith.cmpi slt, %k, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %p = llvm.getelementptr %base[%k] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  %d = "coro.yield"(%p) : (!llvm.ptr) -> i1
  %k1 = arith.addi %k, %c1 : i64
  cf.cond_br %d, ^done, ^loop(%k1 : i64)
^done:
  "coro.end"(%h, %base) : (!coro.handle<!llvm.ptr>, !llvm.ptr) -> ()
  return %h : !coro.handle<!llvm.ptr>
}

// @doubler (switch) reads its own promise, which the host sets while it is
// suspended, and yields twice that.
func.func @doubler() -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  cf.br ^loop(%c0 : i64)
^loop(%x: i64):
  %d = "coro.yield"(%x) : (i64) -> i1
  cf.cond_br %d, ^done, ^next
^next:
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  %x2 = arith.muli %v, %c2 : i64
  cf.br ^loop(%x2 : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// @wide (switch) publishes an i128 (aligned to 16 in the promise):
// (k << 64) | (k + 1) for k = 0 .. n-1.
func.func @wide(%n: i64) -> !coro.handle<i128> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i128>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i128
  cf.br ^loop(%c0 : i64)
^loop(%k: i64):
  %more = arith.cmpi slt, %k, %n : i64
  cf.cond_br %more, ^body, ^done
^body:
  %k1 = arith.addi %k, %c1 : i64
  %hi = arith.extui %k : i64 to i128
  %lo = arith.extui %k1 : i64 to i128
  %hs = arith.shli %hi, %c64 : i128
  %v = arith.ori %hs, %lo : i128
  %d = "coro.yield"(%v) : (i128) -> i1
  cf.cond_br %d, ^done, ^loop(%k1 : i64)
^done:
  "coro.end"(%h) : (!coro.handle<i128>) -> ()
  return %h : !coro.handle<i128>
}

// Resumed with an i128 (coro_rt_resume_with, aligned to 16): adds its high
// and low halves.
func.func @acc_i128() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c0 = arith.constant 0 : i64
  %c64 = arith.constant 64 : i128
  cf.br ^loop(%c0 : i64)
^loop(%sum: i64):
  %d, %x = "coro.yield"(%sum) : (i64) -> (i1, i128)
  cf.cond_br %d, ^end, ^add
^add:
  %hi128 = arith.shrui %x, %c64 : i128
  %hi = arith.trunci %hi128 : i128 to i64
  %lo = arith.trunci %x : i128 to i64
  %s0 = arith.addi %sum, %hi : i64
  %s = arith.addi %s0, %lo : i64
  cf.br ^loop(%s : i64)
^end:
  "coro.end"(%h, %sum) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
