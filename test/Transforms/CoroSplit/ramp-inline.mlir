// RUN: coro-opt %s --coro-lower | FileCheck %s --check-prefix=LOWER
// RUN: coro-opt %s --coro-lower --coro-split | FileCheck %s --check-prefix=SPLIT
// RUN: coro-opt %s --coro-lower --coro-split | FileCheck %s --check-prefix=NOMARK
// RUN: coro-translate %s --route=mlir-split --emit=split-llvm -O2 | FileCheck %s --check-prefix=O2
// RUN: coro-translate %s --route=llvm --emit=split-llvm -O2 | FileCheck %s --check-prefix=ROUTEA

// The retcon, retcon.once and async conversions mark each lowered body
// "noinline" for LLVM's CoroSplit (route A: a split ramp inlined into a
// coroutine not split yet would give it a second coro.begin), and say so
// with coro.noinline_until_split. Route B splits every coroutine at once
// and takes that "noinline" off with "presplitcoroutine", so that LLVM
// inlines the ramps into their callers: at -O2 the drivers fold to their
// results. A "noinline" of the producer's own (llvm.noinline here) stays.

// LOWER-LABEL: llvm.func @once.coro.ramp(
// LOWER-SAME: coro.noinline_until_split
// LOWER-SAME: passthrough = ["presplitcoroutine", "noinline"]
// LOWER-LABEL: llvm.func @kept.coro.ramp(
// LOWER-NOT: coro.noinline_until_split
// LOWER-SAME: llvm.noinline
// LOWER-LABEL: llvm.func swifttailcc @task.coro.async(
// LOWER-SAME: coro.noinline_until_split
// LOWER-SAME: passthrough = ["presplitcoroutine", "noinline"]

// SPLIT: llvm.func @once.coro.ramp({{.*}}) -> {{.*}} attributes {sym_visibility = "private"} {
// SPLIT: llvm.func @kept.coro.ramp({{.*}}) -> {{.*}} attributes {llvm.noinline, passthrough = ["noinline"], sym_visibility = "private"} {
// SPLIT: llvm.func swifttailcc @task.coro.async(%arg0: !llvm.ptr) attributes {sym_visibility = "private"} {
// NOMARK-NOT: coro.noinline_until_split

// Route B at -O2 (the trip through LLVM IR brings "noinline" back as
// no_inline, taken off too): the retcon.once driver is its result (2 + 2,
// then 4 * 2); the one whose ramp the producer made noinline still calls
// it; the async task's body runs inlined in its driver (its frame comes
// from the runtime, so the driver does not fold).
// O2-LABEL: define {{.*}}i64 @drive_once(
// O2-NEXT: {{^.*:$}}
// O2-NEXT: ret i64 12
// O2-LABEL: define {{.*}}i64 @drive_kept(
// O2: call {{.*}}@kept.coro.ramp(
// O2-LABEL: define {{.*}}i64 @drive_task(
// O2-NOT: call {{.*}}@task.coro.async(
// O2: store i64 9,
// O2-NOT: call {{.*}}@task.coro.async(
// O2: ret i64

// Route A keeps "noinline": its ramps stay out of line.
// ROUTEA-LABEL: define {{.*}}i64 @drive_once(
// ROUTEA: call {{.*}}@once.coro.ramp(
// ROUTEA-LABEL: define {{.*}}i64 @drive_task(
// ROUTEA: call {{.*}}@task.coro.async(

func.func @once(%a: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %x = arith.addi %a, %a : i64
  %d = "coro.yield"(%x) : (i64) -> i1
  %y = arith.muli %x, %a : i64
  "coro.end"(%h, %y) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @kept(%a: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once", llvm.noinline} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %d = "coro.yield"(%a) : (i64) -> i1
  "coro.end"(%h, %a) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @task(%a: i64) -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 5 : i64
  %y = arith.addi %a, %c : i64
  "coro.end"(%h, %y) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}

func.func @drive_once() -> i64 {
  %a = arith.constant 2 : i64
  %h = func.call @once(%a) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  %f = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  %s = arith.addi %v, %f : i64
  return %s : i64
}

func.func @drive_kept() -> i64 {
  %a = arith.constant 3 : i64
  %h = func.call @kept(%a) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %v : i64
}

func.func @drive_task() -> i64 {
  %a = arith.constant 4 : i64
  %h = func.call @task(%a) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  return %v : i64
}
