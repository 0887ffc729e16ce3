/* RUN: %capi_bin/driver 2>&1 | FileCheck %s
 *
 * What an mlir-opt-like driver needs beyond MLIR's C API: parsing with an
 * implicit module whose locations carry the file's name (Dialect.h), the
 * dialect listing (Dialect.h), telling a pass flag from an unknown one, and
 * one timing report for several pass managers (Passes.h). */
#include "coro-c/Coro.h"

#include <stdio.h>

static void printToStderr(MlirStringRef s, void *user) {
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *user) {
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  fprintf(stderr,
          "%s: ", coroDiagnosticSeverityName(mlirDiagnosticGetSeverity(d)));
  if (coroLocationGetFileLineCol(mlirDiagnosticGetLocation(d), &file, &line,
                                 &col))
    fprintf(stderr, "%.*s:%u:%u: ", (int)file.length, file.data, line, col);
  mlirDiagnosticPrint(d, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static MlirContext makeContext(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  coroDialectLoad(ctx);
  return ctx;
}

static MlirModule parseNamed(MlirContext ctx, const char *text) {
  return coroModuleCreateParseWithName(
      ctx, mlirStringRefCreateFromCString(text),
      mlirStringRefCreateFromCString("prog.mlir"));
}

static void showLocation(const char *what, MlirOperation op) {
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  coroLocationGetFileLineCol(mlirOperationGetLocation(op), &file, &line, &col);
  fprintf(stderr, "%s: %.*s:%u:%u\n", what, (int)file.length, file.data, line,
          col);
}

static void testParseWithName(void) {
  fprintf(stderr, "@testParseWithName\n");
  MlirContext ctx = makeContext();
  // Two top-level ops: an implicit module, named after the file too.
  MlirModule module = parseNamed(ctx, "func.func @a() {\n  return\n}\n"
                                      "func.func @b() {\n  return\n}\n");
  // CHECK-LABEL: @testParseWithName
  // CHECK-NEXT: module: prog.mlir:0:0
  // CHECK-NEXT: first: prog.mlir:1:1
  showLocation("module", mlirModuleGetOperation(module));
  showLocation("first", mlirBlockGetFirstOperation(mlirModuleGetBody(module)));
  mlirModuleDestroy(module);
  // A module of its own is the result.
  module = parseNamed(ctx, "\nmodule {\n}\n");
  // CHECK-NEXT: explicit: prog.mlir:2:1
  showLocation("explicit", mlirModuleGetOperation(module));
  mlirModuleDestroy(module);
  // CHECK-NEXT: error: prog.mlir:1:1: custom op 'nonsense' is unknown
  // CHECK-NEXT: bad: 1
  module = parseNamed(ctx, "nonsense\n");
  fprintf(stderr, "bad: %d\n", mlirModuleIsNull(module));
  // A coro op in custom form: MLIR's parser fails without a word (the
  // dialect is IRDL's, generic form only); the error says why, at the op.
  // CHECK-NEXT: error: prog.mlir:2:8: custom assembly form of 'coro.yield' is
  // not supported CHECK-NEXT: custom: 1
  module = parseNamed(ctx, "func.func @f(%x: i64) {\n  %d = coro.yield %x "
                           ": i64 -> i1\n  return\n}\n");
  fprintf(stderr, "custom: %d\n", mlirModuleIsNull(module));
  mlirContextDestroy(ctx);
}

static void countDialect(MlirStringRef name, void *user) {
  int *counts = user;
  counts[0]++;
  if (mlirStringRefEqual(name, mlirStringRefCreateFromCString("coro")))
    counts[1]++;
  if (mlirStringRefEqual(name, mlirStringRefCreateFromCString("arith")))
    counts[2]++;
}

static void testDialects(void) {
  fprintf(stderr, "@testDialects\n");
  MlirContext ctx = makeContext();
  int counts[3] = {0, 0, 0};
  coroContextForEachAvailableDialect(ctx, countDialect, counts);
  // CHECK-LABEL: @testDialects
  // CHECK-NEXT: many: 1 coro: 1 arith: 1
  fprintf(stderr, "many: %d coro: %d arith: %d\n", counts[0] > 20, counts[1],
          counts[2]);
  mlirContextDestroy(ctx);
}

static void testIsRegisteredPass(void) {
  fprintf(stderr, "@testIsRegisteredPass\n");
  coroRegisterPasses();
  // CHECK-LABEL: @testIsRegisteredPass
  // CHECK-NEXT: cse 1 coro-verify 1 coro-lower-switch 1 foo 0 test 0
  fprintf(
      stderr, "cse %d coro-verify %d coro-lower-switch %d foo %d ",
      coroIsRegisteredPass(mlirStringRefCreateFromCString("cse")),
      coroIsRegisteredPass(mlirStringRefCreateFromCString("coro-verify")),
      coroIsRegisteredPass(mlirStringRefCreateFromCString("coro-lower-switch")),
      coroIsRegisteredPass(mlirStringRefCreateFromCString("foo")));
  fprintf(stderr, "test %d\n",
          coroIsRegisteredPass(
              mlirStringRefCreateFromCString("test-coro-remarks")));
  coroRegisterTestPasses();
  // CHECK-NEXT: test after registering: 1
  fprintf(stderr, "test after registering: %d\n",
          coroIsRegisteredPass(
              mlirStringRefCreateFromCString("test-coro-remarks")));
}

/* Two pass managers and two phases in one report. */
static void testTimingReport(void) {
  fprintf(stderr, "@testTimingReport\n");
  MlirContext ctx = makeContext();
  CoroTimingReport report = coroTimingReportCreate();
  for (int i = 0; i < 2; ++i) {
    CoroTimer parse = coroTimingReportStartTimer(
        report, mlirStringRefCreateFromCString("Parser"));
    MlirModule module = parseNamed(ctx, "func.func @f() {\n  return\n}\n");
    coroTimerStop(parse);
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    mlirPassManagerAddOwnedPass(pm, coroCreateVerifyPass());
    coroPassManagerEnableTimingReport(pm, report);
    mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(module);
  }
  // CHECK-LABEL: @testTimingReport
  // CHECK-NEXT: before the report
  // CHECK-NEXT: ===-
  // CHECK-NEXT: ... Execution time report ...
  // CHECK: Parser
  // CHECK-NEXT: CoroVerify
  // CHECK: Total
  // CHECK-NOT: Execution time report
  // CHECK: after the report
  fprintf(stderr, "before the report\n");
  coroTimingReportDestroy(report);
  fprintf(stderr, "after the report\n");
  coroTimingReportDestroy((CoroTimingReport){NULL});
  coroTimerStop((CoroTimer){NULL});
  mlirContextDestroy(ctx);
}

int main(void) {
  testParseWithName();
  testDialects();
  testIsRegisteredPass();
  testTimingReport();
  return 0;
}
