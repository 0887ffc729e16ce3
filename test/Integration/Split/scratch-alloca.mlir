// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm -O2 %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s
// RUN: coro-opt --coro-lower --coro-split --remarks-filter=coro-frame %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FRAME

// What a suspension keeps of an alloca is its memory, not its address: an
// alloca that each part writes before it reads (%scratch, as clang's
// exception slots are: written by a landing pad, read by the resume or the
// catch after it) keeps nothing, and each part has one of its own. It was
// kept in the frame, and an eager C++ coroutine's ramp read it after
// freeing the frame when an exception left the ramp. Its neighbours stay
// in the frame: %kept is written before the first suspension and read
// after the others, %carried is written at the end of the loop and read
// after the suspension at its top. Each ABI: switch, retcon, async. Each
// coroutine publishes n, then kept * 100 + carried * 1000 + scratch for
// carried = 0, 1: with n = 5, 5, 1105, 2105.
// (lines 36, 37 and 38: @sw's %scratch, %kept and %carried)
// FRAME-NOT: scratch-alloca.mlir:36:{{[0-9]+}}: remark: frame field of 'sw'
// FRAME-DAG: scratch-alloca.mlir:37:{{[0-9]+}}: remark: frame field of 'sw' {{.*}}: alloca of i64, in the frame across suspensions 0, 1{{$}}
// FRAME-DAG: scratch-alloca.mlir:38:{{[0-9]+}}: remark: frame field of 'sw' {{.*}}: alloca of i32, in the frame across suspensions 0, 1{{$}}
// FRAME-NOT: scratch-alloca.mlir:36:{{[0-9]+}}: remark: frame field of 'sw'

// CHECK: {{^}}5{{$}}
// CHECK-NEXT: {{^}}1105{{$}}
// CHECK-NEXT: {{^}}2105{{$}}
// CHECK-NEXT: {{^}}5{{$}}
// CHECK-NEXT: {{^}}1105{{$}}
// CHECK-NEXT: {{^}}2105{{$}}
// CHECK-NEXT: {{^}}5{{$}}
// CHECK-NEXT: {{^}}1105{{$}}
// CHECK-NEXT: {{^}}2105{{$}}

func.func @sw(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "switch"} {
  %c1 = arith.constant 1 : i64
  %scratch = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
  %kept = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
  %carried = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
  %h = "coro.begin"() : () -> !coro.handle<i64>
  llvm.store %n, %scratch : i64, !llvm.ptr
  %s0 = llvm.load %scratch : !llvm.ptr -> i64
  %c6 = arith.constant 6 : i64
  %k = arith.addi %n, %c6 : i64
  llvm.store %k, %kept : i64, !llvm.ptr
  %z = arith.constant 0 : i32
  llvm.store %z, %carried : i32, !llvm.ptr
  %r0 = "coro.yield"(%s0) : (i64) -> i1
  cf.cond_br %r0, ^done, ^loop
^loop:
  llvm.store %n, %scratch : i64, !llvm.ptr
  %s = llvm.load %scratch : !llvm.ptr -> i64
  %kv = llvm.load %kept : !llvm.ptr -> i64
  %cv = llvm.load %carried : !llvm.ptr -> i32
  %cw = arith.extui %cv : i32 to i64
  %c100 = arith.constant 100 : i64
  %c1000 = arith.constant 1000 : i64
  %a = arith.muli %kv, %c100 : i64
  %b = arith.muli %cw, %c1000 : i64
  %ab = arith.addi %a, %b : i64
  %v = arith.addi %ab, %s : i64
  %r = "coro.yield"(%v) : (i64) -> i1
  cf.cond_br %r, ^done, ^next
^next:
  %one = arith.constant 1 : i32
  %cv2 = llvm.load %carried : !llvm.ptr -> i32
  %cn = arith.addi %cv2, %one : i32
  llvm.store %cn, %carried : i32, !llvm.ptr
  %two = arith.constant 2 : i32
  %more = arith.cmpi slt, %cn, %two : i32
  cf.cond_br %more, ^loop, ^done
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @rc(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %c1 = arith.constant 1 : i64
  %scratch = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
  %kept = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
  %carried = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
  %h = "coro.begin"() : () -> !coro.handle<i64>
  llvm.store %n, %scratch : i64, !llvm.ptr
  %s0 = llvm.load %scratch : !llvm.ptr -> i64
  %c6 = arith.constant 6 : i64
  %k = arith.addi %n, %c6 : i64
  llvm.store %k, %kept : i64, !llvm.ptr
  %z = arith.constant 0 : i32
  llvm.store %z, %carried : i32, !llvm.ptr
  %r0 = "coro.yield"(%s0) : (i64) -> i1
  cf.cond_br %r0, ^done, ^loop
^loop:
  llvm.store %n, %scratch : i64, !llvm.ptr
  %s = llvm.load %scratch : !llvm.ptr -> i64
  %kv = llvm.load %kept : !llvm.ptr -> i64
  %cv = llvm.load %carried : !llvm.ptr -> i32
  %cw = arith.extui %cv : i32 to i64
  %c100 = arith.constant 100 : i64
  %c1000 = arith.constant 1000 : i64
  %a = arith.muli %kv, %c100 : i64
  %b = arith.muli %cw, %c1000 : i64
  %ab = arith.addi %a, %b : i64
  %v = arith.addi %ab, %s : i64
  %r = "coro.yield"(%v) : (i64) -> i1
  cf.cond_br %r, ^done, ^next
^next:
  %one = arith.constant 1 : i32
  %cv2 = llvm.load %carried : !llvm.ptr -> i32
  %cn = arith.addi %cv2, %one : i32
  llvm.store %cn, %carried : i32, !llvm.ptr
  %two = arith.constant 2 : i32
  %more = arith.cmpi slt, %cn, %two : i32
  cf.cond_br %more, ^loop, ^done
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

func.func @as(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %c1 = arith.constant 1 : i64
  %scratch = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
  %kept = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
  %carried = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
  %h = "coro.begin"() : () -> !coro.handle<i64>
  llvm.store %n, %scratch : i64, !llvm.ptr
  %s0 = llvm.load %scratch : !llvm.ptr -> i64
  %c6 = arith.constant 6 : i64
  %k = arith.addi %n, %c6 : i64
  llvm.store %k, %kept : i64, !llvm.ptr
  %z = arith.constant 0 : i32
  llvm.store %z, %carried : i32, !llvm.ptr
  %r0 = "coro.yield"(%s0) : (i64) -> i1
  cf.cond_br %r0, ^done, ^loop
^loop:
  llvm.store %n, %scratch : i64, !llvm.ptr
  %s = llvm.load %scratch : !llvm.ptr -> i64
  %kv = llvm.load %kept : !llvm.ptr -> i64
  %cv = llvm.load %carried : !llvm.ptr -> i32
  %cw = arith.extui %cv : i32 to i64
  %c100 = arith.constant 100 : i64
  %c1000 = arith.constant 1000 : i64
  %a = arith.muli %kv, %c100 : i64
  %b = arith.muli %cw, %c1000 : i64
  %ab = arith.addi %a, %b : i64
  %v = arith.addi %ab, %s : i64
  %r = "coro.yield"(%v) : (i64) -> i1
  cf.cond_br %r, ^done, ^next
^next:
  %one = arith.constant 1 : i32
  %cv2 = llvm.load %carried : !llvm.ptr -> i32
  %cn = arith.addi %cv2, %one : i32
  llvm.store %cn, %carried : i32, !llvm.ptr
  %two = arith.constant 2 : i32
  %more = arith.cmpi slt, %cn, %two : i32
  cf.cond_br %more, ^loop, ^done
^done:
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}

// The three values a coroutine of @sw's shape publishes.
func.func @three(%g: !coro.handle<i64>) -> (i64, i64, i64) {
  %a = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %b = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  %c = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %a, %b, %c : i64, i64, i64
}

func.func @main() -> (i64, i64, i64, i64, i64, i64, i64, i64, i64) {
  %c5 = arith.constant 5 : i64
  %s = call @sw(%c5) : (i64) -> !coro.handle<i64>
  %s0, %s1, %s2 = call @three(%s) : (!coro.handle<i64>) -> (i64, i64, i64)
  %r = call @rc(%c5) : (i64) -> !coro.handle<i64>
  %r0, %r1, %r2 = call @three(%r) : (!coro.handle<i64>) -> (i64, i64, i64)
  %a = call @as(%c5) : (i64) -> !coro.handle<i64>
  %a0, %a1, %a2 = call @three(%a) : (!coro.handle<i64>) -> (i64, i64, i64)
  return %s0, %s1, %s2, %r0, %r1, %r2, %a0, %a1, %a2 : i64, i64, i64, i64, i64, i64, i64, i64, i64
}
