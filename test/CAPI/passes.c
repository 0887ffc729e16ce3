/* RUN: %capi_bin/passes 2>&1 | FileCheck %s
 *
 * coro's passes through the C API: registering them (twice), naming them in
 * a textual pipeline, listing them, and running coro-verify from a pass
 * manager with diagnostics captured by a context handler. */
#include "coro-c/Coro.h"

#include <stdio.h>

static void printToStderr(MlirStringRef s, void *u) {
  (void)u;
  fwrite(s.data, 1, s.length, stderr);
}

static MlirContext makeContext(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coroDialectLoad(ctx)))
    fprintf(stderr, "load failed\n");
  return ctx;
}

static MlirModule parse(MlirContext ctx, const char *text) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
}

/* Prints each diagnostic as `severity: file:line:col: message`. */
static MlirLogicalResult captureDiagnostic(MlirDiagnostic diag, void *count) {
  ++*(int *)count;
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  coroLocationGetFileLineCol(mlirDiagnosticGetLocation(diag), &file, &line,
                             &col);
  fprintf(stderr, "captured %s: %.*s:%u:%u: ",
          coroDiagnosticSeverityName(mlirDiagnosticGetSeverity(diag)),
          (int)file.length, file.data, line, col);
  mlirDiagnosticPrint(diag, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

static void testRegisterAndParsePipeline(void) {
  fprintf(stderr, "@testRegisterAndParsePipeline\n");
  coroRegisterPasses();
  coroRegisterPasses(); /* harmless */
  MlirContext ctx = makeContext();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed =
      mlirParsePassPipeline(opm,
                            mlirStringRefCreateFromCString(
                                "builtin.module(coro-verify,canonicalize)"),
                            printToStderr, NULL);
  // CHECK-LABEL: @testRegisterAndParsePipeline
  // CHECK: parsed: 1
  fprintf(stderr, "parsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  // CHECK: pipeline: builtin.module(coro-verify,canonicalize{
  fprintf(stderr, "pipeline: ");
  mlirPrintPassPipeline(opm, printToStderr, NULL);
  fprintf(stderr, "\n");

  /* The parsed pipeline runs on a valid coroutine. */
  MlirModule module =
      parse(ctx, "func.func @c() -> !coro.handle<none> "
                 "attributes {coro.abi = \"switch\"} {\n"
                 "  %h = \"coro.begin\"() : () -> !coro.handle<none>\n"
                 "  \"coro.end\"(%h) : (!coro.handle<none>) -> ()\n"
                 "  return %h : !coro.handle<none>\n"
                 "}\n");
  // CHECK: run: 1
  fprintf(stderr, "run: %d\n",
          mlirLogicalResultIsSuccess(
              mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))));

  /* An unknown pass is reported through the error callback, not a crash. */
  MlirPassManager pm2 = mlirPassManagerCreate(ctx);
  // CHECK: coro-no-such-pass
  // CHECK: unknown parsed: 0
  MlirLogicalResult unknown = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm2),
      mlirStringRefCreateFromCString("builtin.module(coro-no-such-pass)"),
      printToStderr, NULL);
  fprintf(stderr, "\nunknown parsed: %d\n",
          mlirLogicalResultIsSuccess(unknown));
  mlirPassManagerDestroy(pm2);
  mlirModuleDestroy(module);
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
}

static void listPass(MlirStringRef argument, MlirStringRef description,
                     void *count) {
  ++*(int *)count;
  fprintf(stderr, "pass %.*s: %.*s\n", (int)argument.length, argument.data,
          (int)description.length, description.data);
}

static void testForEachPass(void) {
  fprintf(stderr, "@testForEachPass\n");
  int count = 0;
  // CHECK-LABEL: @testForEachPass
  // CHECK: pass coro-verify: {{.+}}
  coroForEachPass(listPass, &count);
  // CHECK: listed at least one: 1
  fprintf(stderr, "listed at least one: %d\n", count >= 1);
}

static const char brokenCoroutine[] =
    "func.func @broken() -> !coro.handle<none> "
    "attributes {coro.abi = \"switch\"} {\n"
    "  %h = \"coro.self\"() : () -> !coro.handle<none>\n"
    "  \"coro.end\"(%h) : (!coro.handle<none>) -> ()\n"
    "  return %h : !coro.handle<none>\n"
    "}\n";

/* coroCreateVerifyPass in a pass manager: a coroutine without coro.begin
 * fails the run, with an error at the function's location. */
static void testVerifyPassFails(void) {
  fprintf(stderr, "@testVerifyPassFails\n");
  MlirContext ctx = makeContext();
  int count = 0;
  MlirDiagnosticHandlerID id =
      mlirContextAttachDiagnosticHandler(ctx, captureDiagnostic, &count, NULL);
  MlirModule module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(brokenCoroutine));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, coroCreateVerifyPass());
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK-LABEL: @testVerifyPassFails
  // CHECK: captured error: {{.*}}:1:1: 'func.func' op is a coroutine without
  // 'coro.begin' CHECK: run failed: 1 diagnostics: 1
  fprintf(stderr, "run failed: %d diagnostics: %d\n",
          mlirLogicalResultIsFailure(result), count);

  /* coroVerify, without a pass manager, agrees. */
  count = 0;
  // CHECK: captured error: {{.*}}:1:1: 'func.func' op is a coroutine without
  // 'coro.begin' CHECK: coroVerify failed: 1 diagnostics: 1
  result = coroVerify(mlirModuleGetOperation(module));
  fprintf(stderr, "coroVerify failed: %d diagnostics: %d\n",
          mlirLogicalResultIsFailure(result), count);
  mlirContextDetachDiagnosticHandler(ctx, id);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* The same pass, anchored on any op, added to a nested func.func manager
 * with implicit nesting, accepts a valid coroutine silently. */
static void testVerifyPassSucceeds(void) {
  fprintf(stderr, "@testVerifyPassSucceeds\n");
  MlirContext ctx = makeContext();
  int count = 0;
  MlirDiagnosticHandlerID id =
      mlirContextAttachDiagnosticHandler(ctx, captureDiagnostic, &count, NULL);
  MlirModule module =
      parse(ctx, "func.func @gen(%n: i32) -> !coro.handle<i32> "
                 "attributes {coro.abi = \"switch\"} {\n"
                 "  %h = \"coro.begin\"() : () -> !coro.handle<i32>\n"
                 "  %d = \"coro.yield\"(%n) : (i32) -> i1\n"
                 "  \"coro.end\"(%h, %n) : (!coro.handle<i32>, i32) -> ()\n"
                 "  return %h : !coro.handle<i32>\n"
                 "}\n");
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  coroPassManagerEnableImplicitNesting(pm);
  MlirOpPassManager fpm = mlirPassManagerGetNestedUnder(
      pm, mlirStringRefCreateFromCString("func.func"));
  mlirOpPassManagerAddOwnedPass(fpm, coroCreateVerifyPass());
  MlirLogicalResult result =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK-LABEL: @testVerifyPassSucceeds
  // CHECK-NOT: captured
  // CHECK: run succeeded: 1 diagnostics: 0
  fprintf(stderr, "run succeeded: %d diagnostics: %d\n",
          mlirLogicalResultIsSuccess(result), count);
  mlirContextDetachDiagnosticHandler(ctx, id);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

static int hasSymbol(MlirOperation module, const char *name) {
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  int found = !mlirOperationIsNull(
      mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(name)));
  mlirSymbolTableDestroy(table);
  return found;
}

/* The retcon conversions from their C constructors, each lowering only the
 * coroutines of its ABI: the retcon one gives @r a ramp and leaves the
 * retcon.once coroutine @o to the second. */
static void testRetconPasses(void) {
  fprintf(stderr, "@testRetconPasses\n");
  MlirContext ctx = makeContext();
  MlirModule module =
      parse(ctx, "func.func @r() -> !coro.handle<i32> "
                 "attributes {coro.abi = \"retcon\"} {\n"
                 "  %h = \"coro.begin\"() : () -> !coro.handle<i32>\n"
                 "  %c = arith.constant 1 : i32\n"
                 "  %d = \"coro.yield\"(%c) : (i32) -> i1\n"
                 "  \"coro.end\"(%h) : (!coro.handle<i32>) -> ()\n"
                 "  return %h : !coro.handle<i32>\n"
                 "}\n"
                 "func.func @o() -> !coro.handle<i32> "
                 "attributes {coro.abi = \"retcon.once\"} {\n"
                 "  %h = \"coro.begin\"() : () -> !coro.handle<i32>\n"
                 "  %c = arith.constant 1 : i32\n"
                 "  %d = \"coro.yield\"(%c) : (i32) -> i1\n"
                 "  \"coro.end\"(%h, %c) : (!coro.handle<i32>, i32) -> ()\n"
                 "  return %h : !coro.handle<i32>\n"
                 "}\n");
  MlirOperation op = mlirModuleGetOperation(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, coroCreateConvertCoroToLLVMRetconPass());
  // CHECK-LABEL: @testRetconPasses
  // CHECK: retcon run: 1 r ramp: 1 o ramp: 0
  int ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  fprintf(stderr, "retcon run: %d r ramp: %d o ramp: %d\n", ok,
          hasSymbol(op, "r.coro.ramp"), hasSymbol(op, "o.coro.ramp"));
  MlirPassManager pm2 = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm2, coroCreateConvertCoroToLLVMRetconOncePass());
  // CHECK: once run: 1 o ramp: 1
  ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm2, op));
  fprintf(stderr, "once run: %d o ramp: %d\n", ok,
          hasSymbol(op, "o.coro.ramp"));
  mlirPassManagerDestroy(pm2);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* Routes: parsed by name; route A leaves LLVM's coroutine intrinsics for
 * LLVM, route B splits the coroutine itself (NAME.resume exists after). */
static void testRoutes(void) {
  fprintf(stderr, "@testRoutes\n");
  CoroRoute r = CoroRouteMLIRSplit;
  // CHECK-LABEL: @testRoutes
  // CHECK: llvm: 1 0 mlir-split: 1 1 other: 0
  int a = coroRouteParse(mlirStringRefCreateFromCString("llvm"), &r);
  fprintf(stderr, "llvm: %d %d ", a, (int)r);
  a = coroRouteParse(mlirStringRefCreateFromCString("mlir-split"), &r);
  fprintf(stderr, "mlir-split: %d %d ", a, (int)r);
  fprintf(stderr, "other: %d\n",
          coroRouteParse(mlirStringRefCreateFromCString("gcc"), &r));
  MlirContext ctx = makeContext();
  int count = 0;
  mlirContextAttachDiagnosticHandler(ctx, captureDiagnostic, &count, NULL);
  MlirModule module =
      parse(ctx, "func.func @g() -> !coro.handle<none> "
                 "attributes {coro.abi = \"switch\"} {\n"
                 "  %h = \"coro.begin\"() : () -> !coro.handle<none>\n"
                 "  \"coro.end\"(%h) : (!coro.handle<none>) -> ()\n"
                 "  return %h : !coro.handle<none>\n"
                 "}\n");
  // CHECK: route B: 1 diagnostics: 0 split: 1
  MlirModule copy = mlirModuleFromOperation(
      mlirOperationClone(mlirModuleGetOperation(module)));
  int ok = mlirLogicalResultIsSuccess(
      coroLowerToLLVMDialectWithRoute(module, CoroRouteMLIRSplit));
  fprintf(stderr, "route B: %d diagnostics: %d split: %d\n", ok, count,
          hasSymbol(mlirModuleGetOperation(module), "g.resume"));
  // CHECK: route A: 1 diagnostics: 0 split: 0
  ok = mlirLogicalResultIsSuccess(
      coroLowerToLLVMDialectWithRoute(copy, CoroRouteLLVM));
  fprintf(stderr, "route A: %d diagnostics: %d split: %d\n", ok, count,
          hasSymbol(mlirModuleGetOperation(copy), "g.resume"));
  mlirModuleDestroy(copy);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* An alloca of dynamic size live across a suspension: coroVerify rejects
 * it unless the module is marked for route B (coroSetRoute), route A's
 * lowering fails, route B's lowering gives it heap memory. */
static void testDynamicAllocaRoutes(void) {
  fprintf(stderr, "@testDynamicAllocaRoutes\n");
  // CHECK-LABEL: @testDynamicAllocaRoutes
  // CHECK: verify: 0 marked: 1 verify B: 1
  // CHECK: route A: 0 route B: 1 freed: 1
  MlirContext ctx = makeContext();
  int count = 0;
  mlirContextAttachDiagnosticHandler(ctx, captureDiagnostic, &count, NULL);
  const char *src =
      "func.func @g(%n: index) -> !coro.handle<i64> "
      "attributes {coro.abi = \"switch\"} {\n"
      "  %h = \"coro.begin\"() : () -> !coro.handle<i64>\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %m = memref.alloca(%n) : memref<?xi64>\n"
      "  %d = \"coro.yield\"() : () -> i1\n"
      "  %v = memref.load %m[%c0] : memref<?xi64>\n"
      "  \"coro.end\"(%h, %v) : (!coro.handle<i64>, i64) -> ()\n"
      "  return %h : !coro.handle<i64>\n"
      "}\n";
  MlirModule module = parse(ctx, src);
  MlirOperation op = mlirModuleGetOperation(module);
  int v = mlirLogicalResultIsSuccess(coroVerify(op));
  coroSetRoute(module, CoroRouteMLIRSplit);
  int marked = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("coro.route")));
  int vb = mlirLogicalResultIsSuccess(coroVerify(op));
  fprintf(stderr, "verify: %d marked: %d verify B: %d\n", v, marked, vb);
  mlirModuleDestroy(module);
  module = parse(ctx, src);
  int a = mlirLogicalResultIsSuccess(
      coroLowerToLLVMDialectWithRoute(module, CoroRouteLLVM));
  mlirModuleDestroy(module);
  module = parse(ctx, src);
  int b = mlirLogicalResultIsSuccess(
      coroLowerToLLVMDialectWithRoute(module, CoroRouteMLIRSplit));
  fprintf(stderr, "route A: %d route B: %d freed: %d\n", a, b,
          hasSymbol(mlirModuleGetOperation(module), "__coro_free_allocas"));
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* Lowers `src` with `options` and prints "LABEL: OK WHAT: HAS", HAS
 * telling whether the lowered module has the symbol `symbol`. */
static void lowerAndLook(MlirContext ctx, const char *src,
                         CoroLowerOptions options, const char *label,
                         const char *what, const char *symbol) {
  MlirModule module = parse(ctx, src);
  int ok = mlirLogicalResultIsSuccess(
      coroLowerToLLVMDialectWithOptions(module, options));
  fprintf(stderr, "%s: %d %s: %d\n", label, ok, what,
          hasSymbol(mlirModuleGetOperation(module), symbol));
  mlirModuleDestroy(module);
}

static void testCheckedMode(void) {
  fprintf(stderr, "@testCheckedMode\n");
  // CHECK-LABEL: @testCheckedMode
  // CHECK: unchecked: 1 report: 0
  // CHECK: checked: 1 report: 1
  MlirContext ctx = makeContext();
  const char *src = "func.func @g() -> !coro.handle<none> "
                    "attributes {coro.abi = \"switch\"} {\n"
                    "  %h = \"coro.begin\"() : () -> !coro.handle<none>\n"
                    "  \"coro.end\"(%h) : (!coro.handle<none>) -> ()\n"
                    "  return %h : !coro.handle<none>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %g = func.call @g() : () -> !coro.handle<none>\n"
                    "  \"coro.resume\"(%g) : (!coro.handle<none>) -> ()\n"
                    "  return\n"
                    "}\n";
  for (int checked = 0; checked < 2; ++checked)
    lowerAndLook(ctx, src,
                 (CoroLowerOptions){.route = CoroRouteLLVM, .checked = checked},
                 checked ? "checked" : "unchecked", "report", "__coro_misuse");
  mlirContextDestroy(ctx);
}

static void testElision(void) {
  fprintf(stderr, "@testElision\n");
  // CHECK-LABEL: @testElision
  // CHECK: elide: 1 in the caller: 1
  // CHECK: no_elide: 1 in the caller: 0
  MlirContext ctx = makeContext();
  const char *src = "func.func @g() -> !coro.handle<none> "
                    "attributes {coro.abi = \"switch\"} {\n"
                    "  %h = \"coro.begin\"() : () -> !coro.handle<none>\n"
                    "  \"coro.yield\"() : () -> i1\n"
                    "  \"coro.end\"(%h) : (!coro.handle<none>) -> ()\n"
                    "  return %h : !coro.handle<none>\n"
                    "}\n"
                    "func.func @main() {\n"
                    "  %g = func.call @g() : () -> !coro.handle<none>\n"
                    "  \"coro.resume\"(%g) : (!coro.handle<none>) -> ()\n"
                    "  \"coro.destroy\"(%g) : (!coro.handle<none>) -> ()\n"
                    "  return\n"
                    "}\n";
  for (int off = 0; off < 2; ++off)
    lowerAndLook(
        ctx, src,
        (CoroLowerOptions){.route = CoroRouteMLIRSplit, .no_elide = off},
        off ? "no_elide" : "elide", "in the caller", "g.elided");
  mlirContextDestroy(ctx);
}

static void testDevice(void) {
  fprintf(stderr, "@testDevice\n");
  // CHECK-LABEL: @testDevice
  // CHECK: device: 1 frame size known: 1 unknown: -1
  MlirContext ctx = makeContext();
  MlirModule module =
      parse(ctx, "func.func @gen(%n: i64) -> !coro.handle<i64> "
                 "attributes {coro.abi = \"switch\"} {\n"
                 "  %h = \"coro.begin\"() : () -> !coro.handle<i64>\n"
                 "  \"coro.yield\"(%n) : (i64) -> i1\n"
                 "  \"coro.end\"(%h) : (!coro.handle<i64>) -> ()\n"
                 "  return %h : !coro.handle<i64>\n"
                 "}\n"
                 "func.func @k(%n: i64) attributes {gpu.kernel} {\n"
                 "  %g = func.call @gen(%n) : (i64) -> !coro.handle<i64>\n"
                 "  \"coro.destroy\"(%g) : (!coro.handle<i64>) -> ()\n"
                 "  return\n"
                 "}\n");
  int ok = mlirLogicalResultIsSuccess(coroLowerForDevice(module));
  int64_t size = coroFrameSize(module, mlirStringRefCreateFromCString("gen"));
  fprintf(
      stderr, "device: %d frame size known: %d unknown: %lld\n", ok, size >= 32,
      (long long)coroFrameSize(module, mlirStringRefCreateFromCString("k")));
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

int main(void) {
  testRegisterAndParsePipeline();
  testForEachPass();
  testVerifyPassFails();
  testVerifyPassSucceeds();
  testRetconPasses();
  testRoutes();
  testDynamicAllocaRoutes();
  testCheckedMode();
  testElision();
  testDevice();
  return 0;
}
