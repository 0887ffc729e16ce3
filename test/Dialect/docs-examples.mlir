// RUN: coro-opt %s --split-input-file | FileCheck %s

// The valid examples shown in docs/dialect.md, kept here so that every one
// of them parses and passes the verifier (coro-opt runs --coro-verify on
// every module it loads). A change that breaks an example in the docs fails
// this test; the error examples are in docs-examples-invalid.mlir.

// docs/dialect.md, "The handle type".
// CHECK-LABEL: func.func @handles
// CHECK-SAME: !coro.handle<i32>, %{{.*}}: !coro.handle<none>,
// CHECK-SAME: %{{.*}}: !coro.handle<!llvm.struct<(i32, f64)>>
func.func @handles(%a: !coro.handle<i32>, %b: !coro.handle<none>,
                   %c: !coro.handle<!llvm.struct<(i32, f64)>>) {
  return
}

// -----

// docs/dialect.md, coro.begin, coro.yield, coro.end (switch).
// CHECK-LABEL: func.func @ticker
// CHECK: %[[H:.*]] = "coro.begin"() : () -> !coro.handle<i32>
// CHECK: "coro.yield"(%{{.*}}) : (i32) -> i1
// CHECK: "coro.end"(%[[H]], %{{.*}}) : (!coro.handle<i32>, i32) -> ()
func.func @ticker(%x: i32) -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %destroyed = "coro.yield"(%x) : (i32) -> i1
  cf.cond_br %destroyed, ^end, ^more
^more:
  %y = arith.addi %x, %x : i32
  "coro.end"(%h, %y) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
^end:
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

// -----

// docs/dialect.md, coro.yield with a resume value (retcon).
// CHECK-LABEL: func.func @accumulate
// CHECK: %{{.*}}:2 = "coro.yield"(%{{.*}}) : (i64) -> (i1, i64)
func.func @accumulate(%start: i64) -> !coro.handle<i64>
    attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %abnormal, %in = "coro.yield"(%start) : (i64) -> (i1, i64)
  %sum = arith.addi %start, %in : i64
  "coro.end"(%h, %sum) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

// -----

// docs/dialect.md, coro.yield with no value, coro.await, coro.self.
// CHECK-LABEL: func.func @child
// CHECK-LABEL: func.func @parent
// CHECK: "coro.yield"() : () -> i1
// CHECK: %{{.*}} = "coro.await"(%{{.*}}) : (!coro.handle<i32>) -> i32
// CHECK: "coro.await"(%{{.*}}) : (!coro.handle<none>) -> ()
// CHECK: "coro.self"() : () -> !coro.handle<i32>
func.func @child(%x: i32) -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  "coro.end"(%h, %x) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

func.func @parent(%x: i32, %t: !coro.handle<none>) -> !coro.handle<i32>
    attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %destroyed = "coro.yield"() : () -> i1
  %c = call @child(%x) : (i32) -> !coro.handle<i32>
  %r = "coro.await"(%c) : (!coro.handle<i32>) -> i32
  "coro.await"(%t) : (!coro.handle<none>) -> ()
  %me = "coro.self"() : () -> !coro.handle<i32>
  "coro.end"(%h, %r) : (!coro.handle<i32>, i32) -> ()
  return %h : !coro.handle<i32>
}

// -----

// docs/dialect.md, the consumer ops.
// CHECK-LABEL: func.func @drive
// CHECK: "coro.resume"(%{{.*}}) : (!coro.handle<i32>) -> ()
// CHECK: "coro.resume"(%{{.*}}, %{{.*}}) : (!coro.handle<i64>, i64) -> ()
// CHECK: "coro.done"(%{{.*}}) : (!coro.handle<i32>) -> i1
// CHECK: "coro.promise"(%{{.*}}) : (!coro.handle<i32>) -> i32
// CHECK: "coro.destroy"(%{{.*}}) : (!coro.handle<i32>) -> ()
// CHECK: "coro.noop"() : () -> !coro.handle<none>
func.func @drive(%g: !coro.handle<i32>, %acc: !coro.handle<i64>,
                 %v: i64) -> i32 {
  "coro.resume"(%g) : (!coro.handle<i32>) -> ()
  "coro.resume"(%acc, %v) : (!coro.handle<i64>, i64) -> ()
  %done = "coro.done"(%g) : (!coro.handle<i32>) -> i1
  %last = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  %n = "coro.noop"() : () -> !coro.handle<none>
  return %last : i32
}

// -----

// docs/dialect.md, function attributes.
// CHECK-LABEL: func.func @local
// CHECK-SAME: coro.alloc = "elide"
// CHECK-LABEL: func.func @custom
// CHECK-SAME: coro.alloc_fn = @my_alloc
// CHECK-SAME: coro.free_fn = @my_free
// CHECK-LABEL: func.func @buffered
// CHECK-SAME: coro.buffer = array<i64: 64, 8>
func.func @local() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.alloc = "elide"} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

func.func private @my_alloc(i64) -> !llvm.ptr
func.func private @my_free(!llvm.ptr)

func.func @custom() -> !coro.handle<none>
    attributes {coro.abi = "switch", coro.alloc_fn = @my_alloc,
                coro.free_fn = @my_free} {
  %h = "coro.begin"() : () -> !coro.handle<none>
  "coro.end"(%h) : (!coro.handle<none>) -> ()
  return %h : !coro.handle<none>
}

func.func @buffered() -> !coro.handle<i32>
    attributes {coro.abi = "retcon", coro.buffer = array<i64: 64, 8>} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c = arith.constant 1 : i32
  %abnormal = "coro.yield"(%c) : (i32) -> i1
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}
