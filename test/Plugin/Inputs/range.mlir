// A switch generator and a main that prints what it yields and their sum
// (printf through the LLVM dialect: func.call has no variadic form).
func.func @range(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^done
^body:
  %destroyed = "coro.yield"(%i) : (i32) -> i1
  %next = arith.addi %i, %c1 : i32
  cf.cond_br %destroyed, ^done, ^loop(%next : i32)
^done:
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

llvm.mlir.global internal constant @fmt("%s %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @yielded("yielded\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @total("sum\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @print(%what: !llvm.ptr, %v: i32) {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
  %r = llvm.call @printf(%fmt, %what, %v) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr, i32) -> i32
  return
}

func.func @main() -> i32 {
  %n = arith.constant 5 : i32
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %yielded = llvm.mlir.addressof @yielded : !llvm.ptr
  %total = llvm.mlir.addressof @total : !llvm.ptr
  %g = call @range(%n) : (i32) -> !coro.handle<i32>
  %sum = scf.while (%acc = %zero) : (i32) -> i32 {
    %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
    %go = arith.xori %done, %true : i1
    scf.condition(%go) %acc : i32
  } do {
  ^bb0(%acc: i32):
    %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
    func.call @print(%yielded, %v) : (!llvm.ptr, i32) -> ()
    %s = arith.addi %acc, %v : i32
    "coro.resume"(%g) : (!coro.handle<i32>) -> ()
    scf.yield %s : i32
  }
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  call @print(%total, %sum) : (!llvm.ptr, i32) -> ()
  return %zero : i32
}
