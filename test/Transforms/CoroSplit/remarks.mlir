// RUN: coro-opt --coro-lower-switch --coro-split --remarks-filter=coro-split %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: coro-opt --coro-lower-switch --coro-split --remarks-filter=coro-frame %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FRAME
// RUN: coro-opt --coro-lower-switch --coro-split %s -o /dev/null 2>&1 | count 0

// --coro-split reports each split with LLVM's words at the coroutine and
// (category coro-frame) each value it keeps or recomputes, at the value.
// %a = %x * %x is recomputed after the first suspension from %x, which is
// kept there anyway; %b lives only across the second suspension and %x
// only across the first, so they share offset 32. The rest: header (16),
// promise (16 at 16), the conversion's i1 flag (40), the suspension index
// (41): 48 bytes, what LLVM's CoroSplit gives the same function (it
// rematerialises %a too).

// SPLIT: remarks.mlir:[[# @LINE + 7]]:1: remark: Split 'phases' (frame_size=48, align=16)
// SPLIT-NOT: remark
// FRAME-DAG: remarks.mlir:[[# @LINE + 5]]:19: remark: frame field of 'phases' at offset 32 (size 8, align 8): value of i64, kept across suspensions 0{{$}}
// FRAME-DAG: remarks.mlir:[[# @LINE + 5]]:8: remark: frame field of 'phases' at offset 40 (size 1, align 1): alloca of i1, in the frame across suspensions 0, 1
// FRAME-DAG: remarks.mlir:[[# @LINE + 5]]:8: remark: no frame field in 'phases': value of i64, recomputed after suspensions 0{{$}}
// FRAME-DAG: remarks.mlir:[[# @LINE + 7]]:8: remark: frame field of 'phases' at offset 32 (size 8, align 8): value of i64, kept across suspensions 1{{$}}
func.func private @sink(i64)
func.func @phases(%x: i64) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  %a = arith.muli %x, %x : i64
  %d1 = "coro.yield"() : () -> i1
  call @sink(%a) : (i64) -> ()
  %b = arith.addi %x, %x : i64
  %d2 = "coro.yield"() : () -> i1
  call @sink(%b) : (i64) -> ()
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}
