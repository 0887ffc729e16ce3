/* RUN: %capi_bin/diagnostics 2>&1 | FileCheck %s
 *
 * Locations and diagnostics helpers: finding file:line:col inside file,
 * name, call-site and fused locations, and severity names. */
#include "coro-c/Coro.h"

#include <stdio.h>

static void show(const char *what, MlirLocation loc) {
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  if (coroLocationGetFileLineCol(loc, &file, &line, &col))
    fprintf(stderr, "%s: %.*s:%u:%u\n", what, (int)file.length, file.data, line,
            col);
  else
    fprintf(stderr, "%s: none\n", what);
}

static MlirLocation fileLoc(MlirContext ctx, const char *file, unsigned line,
                            unsigned col) {
  return mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString(file),
                                    line, col);
}

static void testLocations(void) {
  fprintf(stderr, "@testLocations\n");
  MlirContext ctx = mlirContextCreate();
  MlirLocation file = fileLoc(ctx, "a.mlir", 3, 7);
  MlirLocation other = fileLoc(ctx, "b.mlir", 10, 2);
  MlirLocation unknown = mlirLocationUnknownGet(ctx);
  // CHECK-LABEL: @testLocations
  // CHECK: file: a.mlir:3:7
  show("file", file);
  // CHECK: name: a.mlir:3:7
  show("name",
       mlirLocationNameGet(ctx, mlirStringRefCreateFromCString("x"), file));
  // CHECK: bare name: none
  show("bare name",
       mlirLocationNameGet(ctx, mlirStringRefCreateFromCString("x"), unknown));
  // CHECK: callsite: b.mlir:10:2
  show("callsite", mlirLocationCallSiteGet(other, file));
  // CHECK: callsite unknown callee: a.mlir:3:7
  show("callsite unknown callee", mlirLocationCallSiteGet(unknown, file));
  MlirLocation parts[3] = {unknown, other, file};
  // CHECK: fused: b.mlir:10:2
  show("fused", mlirLocationFusedGet(ctx, 3, parts, (MlirAttribute){NULL}));
  // CHECK: fused unknown: none
  show("fused unknown",
       mlirLocationFusedGet(ctx, 1, parts, (MlirAttribute){NULL}));
  // CHECK: nested: b.mlir:10:2
  show("nested",
       mlirLocationNameGet(
           ctx, mlirStringRefCreateFromCString("n"),
           mlirLocationCallSiteGet(
               mlirLocationFusedGet(ctx, 2, parts, (MlirAttribute){NULL}),
               file)));
  // CHECK: unknown: none
  show("unknown", unknown);
  // CHECK: null: none
  show("null", (MlirLocation){NULL});
  mlirContextDestroy(ctx);
}

static void testSeverityNames(void) {
  fprintf(stderr, "@testSeverityNames\n");
  // CHECK-LABEL: @testSeverityNames
  // CHECK: error warning note remark
  fprintf(stderr, "%s %s %s %s\n",
          coroDiagnosticSeverityName(MlirDiagnosticError),
          coroDiagnosticSeverityName(MlirDiagnosticWarning),
          coroDiagnosticSeverityName(MlirDiagnosticNote),
          coroDiagnosticSeverityName(MlirDiagnosticRemark));
}

int main(void) {
  testLocations();
  testSeverityNames();
  return 0;
}
