// --mlir-timing prints one report for the whole run, on stderr: parsing,
// each pass, printing the output, as mlir-opt's rows read; with
// --split-input-file the chunks add up in that one report.
// RUN: coro-opt %s --cse --mlir-timing 2>&1 >/dev/null | FileCheck %s
// RUN: coro-opt %s --cse --mlir-timing --split-input-file 2>&1 >/dev/null | FileCheck %s
// CHECK: Execution time report
// CHECK: Total Execution Time:
// CHECK: Wall Time
// CHECK: {{^}} {{.*}}  Parser
// CHECK-NEXT: {{^}} {{.*}}  CoroVerify
// CHECK-NEXT: {{^}} {{.*}}  CSE
// CHECK: {{^}} {{.*}}  Output
// CHECK: {{^}} {{.*}}  Total
// CHECK-NOT: Execution time report

// Without the flag, nothing.
// RUN: coro-opt %s --cse 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE --allow-empty
// NONE-NOT: Execution time report

func.func @f() {
  return
}

// -----

func.func @g() {
  return
}
