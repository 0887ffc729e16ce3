// RUN: coro-opt %s --coro-elide --remarks-filter=coro-elide --verify-diagnostics -o /dev/null
// RUN: coro-opt %s --coro-elide | FileCheck %s

// --coro-elide marks every call of a switch coroutine coro.elided = true or
// false and says why at the op that decided it. (--verify-diagnostics
// checks each remark's text and line; FileCheck the marks.)

func.func @gen(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.yield"(%n) : (i32) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// Used by consumer ops only and destroyed in the same block: elided.
// CHECK-LABEL: func.func @local
// CHECK: call @gen(%{{.*}}) {coro.elided = true}
func.func @local(%n: i32) -> i32 {
  // expected-remark@+1 {{'gen' elided in 'local'}}
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  %d = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %v : i32
}

// Returned: the frame would outlive the caller.
// CHECK-LABEL: func.func @returned
// CHECK: call @gen(%{{.*}}) {coro.elided = false}
func.func @returned(%n: i32) -> !coro.handle<i32> {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  // expected-remark@+1 {{'gen' not elided in 'returned': the handle is returned}}
  return %g : !coro.handle<i32>
}

// Stored to memory.
func.func @stored(%n: i32, %p: !llvm.ptr) {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  %c = builtin.unrealized_conversion_cast %g : !coro.handle<i32> to !llvm.ptr
  // expected-remark@-1 {{'gen' not elided in 'stored': the handle escapes through 'builtin.unrealized_conversion_cast'}}
  llvm.store %c, %p : !llvm.ptr, !llvm.ptr
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return
}

// Through a block argument (coro-elide follows direct uses only).
func.func @block_arg(%n: i32) {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  // expected-remark@+1 {{'gen' not elided in 'block_arg': the handle escapes through 'cf.br'}}
  cf.br ^next(%g : !coro.handle<i32>)
^next(%h: !coro.handle<i32>):
  "coro.destroy"(%h) : (!coro.handle<i32>) -> ()
  return
}

// A helper that only drives and reads the handle keeps it local: the call
// of @pull does not stop the elision.
func.func @pull(%h: !coro.handle<i32>) -> i32 {
  "coro.resume"(%h) : (!coro.handle<i32>) -> ()
  %v = "coro.promise"(%h) : (!coro.handle<i32>) -> i32
  return %v : i32
}
// CHECK-LABEL: func.func @through_helper
// CHECK: call @gen(%{{.*}}) {coro.elided = true}
func.func @through_helper(%n: i32) -> i32 {
  // expected-remark@+1 {{'gen' elided in 'through_helper'}}
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  %v = call @pull(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return %v : i32
}

// A helper that keeps it, a declaration, and a coroutine: each lets the
// handle go where coro-elide cannot follow. A helper that destroys it on
// every path of its own destroys it for the caller (@finish); one that
// destroys it on some paths only does not (@maybe_finish).
llvm.mlir.global internal @slot() : !llvm.ptr
func.func @keep(%h: !coro.handle<i32>) {
  %p = llvm.mlir.addressof @slot : !llvm.ptr
  %c = builtin.unrealized_conversion_cast %h : !coro.handle<i32> to !llvm.ptr
  llvm.store %c, %p : !llvm.ptr, !llvm.ptr
  return
}
func.func @finish(%h: !coro.handle<i32>) {
  "coro.destroy"(%h) : (!coro.handle<i32>) -> ()
  return
}
func.func private @unknown(!coro.handle<i32>)
func.func @watcher(%h: !coro.handle<i32>) -> !coro.handle<none> attributes {coro.abi = "switch"} {
  %me = "coro.begin"() : () -> !coro.handle<none>
  "coro.await"(%h) : (!coro.handle<i32>) -> i32
  "coro.end"(%me) : (!coro.handle<none>) -> ()
  return %me : !coro.handle<none>
}
func.func @helpers(%n: i32) {
  %a = call @gen(%n) : (i32) -> !coro.handle<i32>
  // expected-remark@+1 {{'gen' not elided in 'helpers': the handle is passed to 'keep', where the handle escapes through 'builtin.unrealized_conversion_cast'}}
  call @keep(%a) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%a) : (!coro.handle<i32>) -> ()
  // expected-remark@+1 {{'gen' elided in 'helpers'}}
  %b = call @gen(%n) : (i32) -> !coro.handle<i32>
  call @finish(%b) : (!coro.handle<i32>) -> ()
  %c = call @gen(%n) : (i32) -> !coro.handle<i32>
  // expected-remark@+1 {{'gen' not elided in 'helpers': the handle is passed to 'unknown', which has no body here and may keep it}}
  call @unknown(%c) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%c) : (!coro.handle<i32>) -> ()
  %d = call @gen(%n) : (i32) -> !coro.handle<i32>
  // expected-remark@+2 {{'gen' not elided in 'helpers': the handle is passed to the coroutine 'watcher', whose frame may outlive the caller}}
  // expected-remark@+1 {{'watcher' elided in 'helpers'}}
  %w = call @watcher(%d) : (!coro.handle<i32>) -> !coro.handle<none>
  "coro.destroy"(%w) : (!coro.handle<none>) -> ()
  "coro.destroy"(%d) : (!coro.handle<i32>) -> ()
  return
}

func.func @maybe_finish(%h: !coro.handle<i32>, %c: i1) {
  cf.cond_br %c, ^kill, ^keep
^kill:
  "coro.destroy"(%h) : (!coro.handle<i32>) -> ()
  return
^keep:
  return
}
func.func @maybe(%n: i32, %c: i1) {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  call @maybe_finish(%g, %c) : (!coro.handle<i32>, i1) -> ()
  // expected-remark@+1 {{'gen' not elided in 'maybe': the handle is not destroyed on every path: this 'func.return' is reached without coro.destroy}}
  return
}

// Destroyed on one path only: the other reaches the return without it.
func.func @some_paths(%n: i32, %c: i1) {
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  cf.cond_br %c, ^kill, ^keep
^kill:
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return
^keep:
  // expected-remark@+1 {{'gen' not elided in 'some_paths': the handle is not destroyed on every path: this 'func.return' is reached without coro.destroy}}
  return
}

// Destroyed on both paths, in other blocks: elided.
// CHECK-LABEL: func.func @both_paths
// CHECK: call @gen(%{{.*}}) {coro.elided = true}
func.func @both_paths(%n: i32, %c: i1) {
  // expected-remark@+1 {{'gen' elided in 'both_paths'}}
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  cf.cond_br %c, ^a, ^b
^a:
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  cf.br ^out
^b:
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  cf.br ^out
^out:
  return
}

// In a loop: created and destroyed in the body, elided (one frame reused
// by every iteration); destroyed only after the loop, the call would run
// again while the frame is still in use.
// CHECK-LABEL: func.func @loops
// CHECK: call @gen(%{{.*}}) {coro.elided = true}
// CHECK: call @gen(%{{.*}}) {coro.elided = false}
func.func @loops(%n: i32, %c: i1) {
  cf.br ^body
^body:
  // expected-remark@+1 {{'gen' elided in 'loops'}}
  %g = call @gen(%n) : (i32) -> !coro.handle<i32>
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  cf.cond_br %c, ^body, ^second
^second:
  // expected-remark@+1 {{'gen' not elided in 'loops': the handle is not destroyed before the call runs again}}
  %h = call @gen(%n) : (i32) -> !coro.handle<i32>
  cf.cond_br %c, ^second, ^out
^out:
  "coro.destroy"(%h) : (!coro.handle<i32>) -> ()
  return
}

// In an scf.for body with its destroy: elided.
// CHECK-LABEL: func.func @scf_loop
// CHECK: call @gen(%{{.*}}) {coro.elided = true}
func.func @scf_loop(%n: i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-remark@+1 {{'gen' elided in 'scf_loop'}}
    %g = func.call @gen(%n) : (i32) -> !coro.handle<i32>
    "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  }
  return
}

// A coroutine that lets its own handle escape: none of its calls is local.
func.func @selfish(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %me = "coro.self"() : () -> !coro.handle<i32>
  // expected-remark@+1 {{'selfish' not elided in 'calls_selfish': it lets its own handle escape: the handle is passed to 'keep', where the handle escapes through 'builtin.unrealized_conversion_cast'}}
  call @keep(%me) : (!coro.handle<i32>) -> ()
  "coro.yield"(%n) : (i32) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @calls_selfish(%n: i32) {
  %g = call @selfish(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return
}

// Nested frames: a coroutine's elided child lives in its frame. Recursion
// keeps the heap: a frame cannot hold itself.
// CHECK-LABEL: func.func @task
// CHECK: call @task(%{{.*}}) {coro.elided = false}
// CHECK: call @gen(%{{.*}}) {coro.elided = true}
func.func @task(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // expected-remark@+1 {{'task' not elided in 'task': a coroutine's frame cannot hold a frame of itself (recursion keeps the heap)}}
  %t = call @task(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%t) : (!coro.handle<i32>) -> ()
  // expected-remark@+1 {{'gen' elided in 'task'}}
  %c = call @gen(%n) : (i32) -> !coro.handle<i32>
  %v = "coro.await"(%c) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%c) : (!coro.handle<i32>) -> ()
  "coro.end"(%h, %v) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// Two coroutines that call each other: neither frame can hold the other.
func.func @ping(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // expected-remark@+1 {{'pong' not elided in 'ping': the frames would nest in a cycle}}
  %t = call @pong(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%t) : (!coro.handle<i32>) -> ()
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @pong(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  // expected-remark@+1 {{'ping' not elided in 'pong': the frames would nest in a cycle}}
  %t = call @ping(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%t) : (!coro.handle<i32>) -> ()
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// coro.alloc = "heap" is left alone. A retcon or retcon.once handle (its
// control block, whose buffer holds the frame) is decided as a switch
// frame is; an async task's context is the executor's.
func.func @heapy(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "switch", coro.alloc = "heap"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @rc(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @once(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %d = "coro.yield"(%n) : (i32) -> i1
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
func.func @atask(%n: i32) -> !coro.handle<i32> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %n) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}
// CHECK-LABEL: func.func @others(
// CHECK: call @rc(%{{.*}}) {coro.elided = true}
// CHECK: call @once(%{{.*}}) {coro.elided = true}
func.func @others(%n: i32) {
  // expected-remark@+1 {{'heapy' not elided in 'others': coro.alloc = "heap" asks for the heap}}
  %a = call @heapy(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%a) : (!coro.handle<i32>) -> ()
  // expected-remark@+1 {{'rc' elided in 'others'}}
  %b = call @rc(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%b) : (!coro.handle<i32>) -> ()
  // expected-remark@+1 {{'once' elided in 'others'}}
  %c = call @once(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%c) : (!coro.handle<i32>) -> ()
  // expected-remark@+1 {{'atask' not elided in 'others': an async task's context comes from the executor's allocator}}
  %t = call @atask(%n) : (i32) -> !coro.handle<i32>
  "coro.destroy"(%t) : (!coro.handle<i32>) -> ()
  return
}
func.func @keep_rc(%n: i32) -> !coro.handle<i32> {
  %b = call @rc(%n) : (i32) -> !coro.handle<i32>
  // expected-remark@+1 {{'rc' not elided in 'keep_rc': the handle is returned}}
  return %b : !coro.handle<i32>
}
