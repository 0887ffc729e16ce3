// --mlir-print-debuginfo prints locations with the input's name, also for
// an input with several top-level ops (which gets an implicit module) and
// for stdin; --mlir-pretty-debuginfo prints them inline.
// RUN: coro-opt %s --mlir-print-debuginfo | FileCheck %s --implicit-check-not='loc("-"'
// CHECK: func.func @f() {
// CHECK: } loc(#[[LOC:loc[0-9]+]])
// CHECK: {{^}}} loc(#[[MODULE:loc[0-9]*]])
// CHECK-DAG: #[[MODULE]] = loc("{{.*}}print-debuginfo.mlir":0:0)
// CHECK-DAG: #[[LOC]] = loc("{{.*}}print-debuginfo.mlir":[[# @LINE + 6]]:1)
// RUN: coro-opt < %s --mlir-print-debuginfo | FileCheck %s --check-prefix=STDIN --implicit-check-not='loc("-"'
// STDIN: loc("<stdin>":[[# @LINE + 4]]:1)
// RUN: coro-opt %s --mlir-print-debuginfo --mlir-pretty-debuginfo | FileCheck %s --check-prefix=PRETTY
// PRETTY: } {{.*}}print-debuginfo.mlir:[[# @LINE + 2]]:1

func.func @f() {
  return
}

func.func @g() {
  return
}
