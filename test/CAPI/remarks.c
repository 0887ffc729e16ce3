/* RUN: %capi_bin/remarks 2>&1 | FileCheck %s
 *
 * Diagnostics.h: coroContextEnableRemarks lets the remarks coro's passes
 * emit (through the internal emitter ir/remark.h, called here directly)
 * reach the context's handlers, as one remark diagnostic each carrying the
 * pass's text, for the categories its regular expression matches as a
 * whole; without it none arrive. coroContextSetPrintOpOnDiagnostic turns
 * MLIR's "see current operation" note on and off. A pass asks
 * coro_remark_category_enabled before building a costly remark. */
#include "coro-c/Coro.h"
#include "ir/remark.h"

#include <stdio.h>

static void printToStderr(MlirStringRef s, void *user) {
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

static void printOne(MlirDiagnostic d) {
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  fprintf(stderr,
          "%s: ", coroDiagnosticSeverityName(mlirDiagnosticGetSeverity(d)));
  if (coroLocationGetFileLineCol(mlirDiagnosticGetLocation(d), &file, &line,
                                 &col))
    fprintf(stderr, "%.*s:%u:%u: ", (int)file.length, file.data, line, col);
  mlirDiagnosticPrint(d, printToStderr, NULL);
  fprintf(stderr, "\n");
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *user) {
  printOne(d);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i)
    printOne(mlirDiagnosticGetNote(d, i));
  return mlirLogicalResultSuccess();
}

static MlirContext makeContext(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  coroDialectLoad(ctx);
  return ctx;
}

/* One remark of each kind, in three categories. */
static void emitAll(MlirContext ctx) {
  MlirLocation loc = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("r.mlir"), 4, 2);
  coro_emit_remark(loc, CORO_REMARK_PASSED, "coro-split", "split",
                   "Split 'f' (frame_size=24, align=8)");
  coro_emit_remark(loc, CORO_REMARK_MISSED, "coro-elide", "elide",
                   "'g' not elided in 'f': the handle is returned");
  coro_emit_remark(loc, CORO_REMARK_ANALYSIS, "coro-frame", "frame",
                   "field 0: offset 16, size 8, align 8");
  fprintf(stderr, "emitted\n");
}

static void testOffByDefault(void) {
  fprintf(stderr, "@testOffByDefault\n");
  MlirContext ctx = makeContext();
  // CHECK-LABEL: @testOffByDefault
  // CHECK-NOT: remark:
  // CHECK: emitted
  emitAll(ctx);
  mlirContextDestroy(ctx);
}

static void testOneCategory(void) {
  fprintf(stderr, "@testOneCategory\n");
  MlirContext ctx = makeContext();
  // CHECK-LABEL: @testOneCategory
  // CHECK: enabled: 1
  fprintf(stderr, "enabled: %d\n",
          mlirLogicalResultIsSuccess(coroContextEnableRemarks(
              ctx, mlirStringRefCreateFromCString("coro-split"))));
  // CHECK-NEXT: remark: r.mlir:4:2: Split 'f' (frame_size=24, align=8)
  // CHECK-NEXT: emitted
  emitAll(ctx);
  mlirContextDestroy(ctx);
}

static void testEveryKind(void) {
  fprintf(stderr, "@testEveryKind\n");
  MlirContext ctx = makeContext();
  coroContextEnableRemarks(ctx, mlirStringRefCreateFromCString("coro-.*"));
  // CHECK-LABEL: @testEveryKind
  // CHECK-NEXT: remark: r.mlir:4:2: Split 'f' (frame_size=24, align=8)
  // CHECK-NEXT: remark: r.mlir:4:2: 'g' not elided in 'f': the handle is
  // returned CHECK-NEXT: remark: r.mlir:4:2: field 0: offset 16, size 8, align
  // 8 CHECK-NEXT: emitted
  emitAll(ctx);
  mlirContextDestroy(ctx);
}

/* The expression matches the whole category; a later call replaces it. */
static void testWholeMatchAndReplace(void) {
  fprintf(stderr, "@testWholeMatchAndReplace\n");
  MlirContext ctx = makeContext();
  coroContextEnableRemarks(ctx, mlirStringRefCreateFromCString("split"));
  // CHECK-LABEL: @testWholeMatchAndReplace
  // CHECK-NEXT: emitted
  emitAll(ctx);
  coroContextEnableRemarks(
      ctx, mlirStringRefCreateFromCString("coro-(elide|frame)"));
  // CHECK-NEXT: remark: r.mlir:4:2: 'g' not elided in 'f': the handle is
  // returned CHECK-NEXT: remark: r.mlir:4:2: field 0: offset 16, size 8, align
  // 8 CHECK-NEXT: emitted
  emitAll(ctx);
  mlirContextDestroy(ctx);
}

static void testBadExpression(void) {
  fprintf(stderr, "@testBadExpression\n");
  MlirContext ctx = makeContext();
  // CHECK-LABEL: @testBadExpression
  // CHECK-NEXT: error: invalid remark category regular expression 'coro-(':
  // parentheses not balanced CHECK-NEXT: enabled: 0
  fprintf(stderr, "enabled: %d\n",
          mlirLogicalResultIsSuccess(coroContextEnableRemarks(
              ctx, mlirStringRefCreateFromCString("coro-("))));
  // CHECK-NEXT: emitted
  emitAll(ctx);
  mlirContextDestroy(ctx);
}

/* An op that breaks its IRDL definition: verifying it reports an error on
 * the op, with the note unless turned off. */
static void testPrintOpOnDiagnostic(void) {
  fprintf(stderr, "@testPrintOpOnDiagnostic\n");
  MlirContext ctx = makeContext();
  const char *text = "func.func @f(%x: i32) {\n"
                     "  %0 = \"coro.done\"(%x) : (i32) -> i1\n"
                     "  return\n"
                     "}\n";
  // CHECK-LABEL: @testPrintOpOnDiagnostic
  // CHECK-NEXT: error: -:2:8: expected base type 'coro.handle'
  // CHECK-NEXT: note: -:2:8: see current operation:
  // CHECK: parsed: 0
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  fprintf(stderr, "parsed: %d\n", !mlirModuleIsNull(m));
  coroContextSetPrintOpOnDiagnostic(ctx, false);
  // CHECK-NEXT: error: -:2:8: expected base type 'coro.handle'
  // CHECK-NEXT: parsed: 0
  m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  fprintf(stderr, "parsed: %d\n", !mlirModuleIsNull(m));
  mlirContextDestroy(ctx);
}

/* A pass may ask whether a category is shown before it builds a remark's
 * text: only the categories the filter matches are. */
static void testCategoryEnabled(void) {
  fprintf(stderr, "@testCategoryEnabled\n");
  MlirContext ctx = makeContext();
  // CHECK-LABEL: @testCategoryEnabled
  // CHECK-NEXT: off: 0 0
  fprintf(stderr, "off: %d %d\n",
          coro_remark_category_enabled(ctx, "coro-split"),
          coro_remark_category_enabled(ctx, "coro-frame"));
  coroContextEnableRemarks(ctx, mlirStringRefCreateFromCString("coro-split"));
  // CHECK-NEXT: coro-split: 1 0 0
  fprintf(stderr, "coro-split: %d %d %d\n",
          coro_remark_category_enabled(ctx, "coro-split"),
          coro_remark_category_enabled(ctx, "coro-frame"),
          coro_remark_category_enabled(ctx, "split"));
  coroContextEnableRemarks(
      ctx, mlirStringRefCreateFromCString("coro-(elide|frame)"));
  // CHECK-NEXT: coro-(elide|frame): 0 1 1
  fprintf(stderr, "coro-(elide|frame): %d %d %d\n",
          coro_remark_category_enabled(ctx, "coro-split"),
          coro_remark_category_enabled(ctx, "coro-frame"),
          coro_remark_category_enabled(ctx, "coro-elide"));
  mlirContextDestroy(ctx);
}

int main(void) {
  testOffByDefault();
  testOneCategory();
  testEveryKind();
  testWholeMatchAndReplace();
  testBadExpression();
  testPrintOpOnDiagnostic();
  testCategoryEnabled();
  return 0;
}
