/* RUN: %capi_bin/dialect 2>&1 | FileCheck %s
 *
 * The dialect through the C API: loading (twice), the handle type, every op
 * builder, the predicates, and coroutines built from scratch the way a
 * frontend would, checked by mlirOperationVerify and coroVerify. Each test
 * has its own context. */
#include "coro-c/Coro.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

static void printToStderr(MlirStringRef s, void *u) {
  (void)u;
  fwrite(s.data, 1, s.length, stderr);
}

static void printType(MlirType t) {
  mlirTypePrint(t, printToStderr, NULL);
  fprintf(stderr, "\n");
}

/* Prints `op` in generic form, as the dialect's ops always print. */
static void printGeneric(MlirOperation op) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOperationPrintWithFlags(op, flags, printToStderr, NULL);
  mlirOpPrintingFlagsDestroy(flags);
  fprintf(stderr, "\n");
}

static MlirContext makeContext(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coroDialectLoad(ctx)))
    fprintf(stderr, "load failed\n");
  return ctx;
}

static MlirType parseType(MlirContext ctx, const char *text) {
  return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

/* Appends `op` (transferred) to `block`; returns its result `i` or null. */
static MlirValue append(MlirBlock block, MlirOperation op, intptr_t i) {
  mlirBlockAppendOwnedOperation(block, op);
  if (i < mlirOperationGetNumResults(op))
    return mlirOperationGetResult(op, i);
  return (MlirValue){NULL};
}

static void appendReturn(MlirBlock block, MlirLocation loc, MlirValue v) {
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.return"), loc);
  mlirOperationStateAddOperands(&state, 1, &v);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&state));
}

static MlirValue appendConstant(MlirBlock block, MlirLocation loc,
                                MlirType type, int64_t value) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")),
      mlirIntegerAttrGet(type, value));
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("arith.constant"), loc);
  mlirOperationStateAddAttributes(&state, 1, &attr);
  mlirOperationStateAddResults(&state, 1, &type);
  return append(block, mlirOperationCreate(&state), 0);
}

static void printVerified(MlirOperation op) {
  fprintf(stderr, "mlirOperationVerify: %d coroVerify: %d\n",
          mlirOperationVerify(op), mlirLogicalResultIsSuccess(coroVerify(op)));
}

static void testLoadTwice(void) {
  fprintf(stderr, "@testLoadTwice\n");
  MlirContext ctx = mlirContextCreate();
  // CHECK-LABEL: @testLoadTwice
  // CHECK: loaded before: 0
  fprintf(stderr, "loaded before: %d\n", coroDialectIsLoaded(ctx));
  MlirLogicalResult a = coroDialectLoad(ctx);
  MlirLogicalResult b = coroDialectLoad(ctx);
  // CHECK: first: 1 second: 1 loaded: 1
  fprintf(stderr, "first: %d second: %d loaded: %d\n",
          mlirLogicalResultIsSuccess(a), mlirLogicalResultIsSuccess(b),
          coroDialectIsLoaded(ctx));
  MlirStringRef ns = coroDialectGetNamespace();
  // CHECK: namespace: coro
  fprintf(stderr, "namespace: %.*s\n", (int)ns.length, ns.data);
  MlirStringRef src = coroDialectGetIRDLSource();
  // CHECK: irdl source starts: irdl.dialect @coro
  fprintf(stderr, "irdl source starts: %.18s\n", src.data);
  mlirContextDestroy(ctx);
}

static void testHandleTypeNoDialect(void) {
  fprintf(stderr, "@testHandleTypeNoDialect\n");
  MlirContext ctx = mlirContextCreate();
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  // CHECK-LABEL: @testHandleTypeNoDialect
  // CHECK: handle without dialect is null: 1 null elem: 1
  fprintf(stderr, "handle without dialect is null: %d null elem: %d\n",
          mlirTypeIsNull(coroHandleTypeGet(i32)),
          mlirTypeIsNull(coroHandleTypeGet((MlirType){NULL})));
  mlirContextDestroy(ctx);
}

static void testHandleType(void) {
  fprintf(stderr, "@testHandleType\n");
  MlirContext ctx = makeContext();
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType h = coroHandleTypeGet(i32);
  // CHECK-LABEL: @testHandleType
  // CHECK: !coro.handle<i32>
  printType(h);
  // CHECK: is handle: 1 i32 is handle: 0 null is handle: 0 elem is i32: 1
  fprintf(stderr,
          "is handle: %d i32 is handle: %d null is handle: %d elem is i32: "
          "%d\n",
          coroTypeIsAHandle(h), coroTypeIsAHandle(i32),
          coroTypeIsAHandle((MlirType){NULL}),
          mlirTypeEqual(coroHandleTypeGetElementType(h), i32));
  // CHECK: elem of non-handle is null: 1
  fprintf(stderr, "elem of non-handle is null: %d\n",
          mlirTypeIsNull(coroHandleTypeGetElementType(i32)));
  MlirType none = coroHandleTypeGet(mlirNoneTypeGet(ctx));
  // CHECK: !coro.handle<none> elem is none: 1 i32 is none: 0
  mlirTypePrint(none, printToStderr, NULL);
  fprintf(stderr, " elem is none: %d i32 is none: %d\n",
          coroTypeIsNone(coroHandleTypeGetElementType(none)),
          coroTypeIsNone(i32));
  // CHECK: same type uniqued: 1 differs from none: 0
  fprintf(stderr, "same type uniqued: %d differs from none: %d\n",
          mlirTypeEqual(h, coroHandleTypeGet(i32)), mlirTypeEqual(h, none));

  /* Element types with their own angle brackets and parentheses survive the
   * round trip through the printed form. */
  const char *elems[] = {"vector<4xf32>", "memref<?x8xi8>",
                         "!llvm.struct<(i32, f64)>", "tuple<i1, index>"};
  // CHECK: !coro.handle<vector<4xf32>> elem round-trips: 1
  // CHECK: !coro.handle<memref<?x8xi8>> elem round-trips: 1
  // CHECK: !coro.handle<!llvm.struct<(i32, f64)>> elem round-trips: 1
  // CHECK: !coro.handle<tuple<i1, index>> elem round-trips: 1
  for (size_t i = 0; i < sizeof(elems) / sizeof(elems[0]); ++i) {
    MlirType elem = parseType(ctx, elems[i]);
    MlirType handle = coroHandleTypeGet(elem);
    mlirTypePrint(handle, printToStderr, NULL);
    fprintf(stderr, " elem round-trips: %d\n",
            mlirTypeEqual(coroHandleTypeGetElementType(handle), elem));
  }
  /* A handle of a handle. */
  MlirType hh = coroHandleTypeGet(h);
  // CHECK: !coro.handle<!coro.handle<i32>> inner: 1
  mlirTypePrint(hh, printToStderr, NULL);
  fprintf(stderr, " inner: %d\n",
          mlirTypeEqual(coroHandleTypeGetElementType(hh), h));
  mlirContextDestroy(ctx);
}

/* Builds three coroutines with every coroutine-side builder, inserts them
 * into a module, prints the module generically and verifies it. */
static void testBuildCoroutine(void) {
  fprintf(stderr, "@testBuildCoroutine\n");
  MlirContext ctx = makeContext();
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirBlock top = mlirModuleGetBody(module);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType hI32 = coroHandleTypeGet(i32);
  MlirType hI64 = coroHandleTypeGet(i64);
  MlirType hNone = coroHandleTypeGet(mlirNoneTypeGet(ctx));

  /* @gen(%n: i32) -> !coro.handle<i32>: yields %n, ends with %n. */
  MlirOperation gen = coroCoroutineCreate(
      loc, mlirStringRefCreateFromCString("gen"),
      mlirStringRefCreateFromCString("switch"), 1, &i32, hI32);
  mlirBlockAppendOwnedOperation(top, gen);
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(gen, 0));
  MlirValue n = mlirBlockGetArgument(b, 0);
  MlirValue h = append(b, coroBeginOpCreate(loc, hI32), 0);
  append(b, coroYieldOpCreate(loc, n, (MlirType){NULL}), 0);
  append(b, coroEndOpCreate(loc, h, n), 0);
  appendReturn(b, loc, h);

  /* @task(%g: !coro.handle<i32>) -> !coro.handle<none>: yields nothing,
   * awaits %g with and without its result, takes its own handle. */
  MlirOperation task = coroCoroutineCreate(
      loc, mlirStringRefCreateFromCString("task"),
      mlirStringRefCreateFromCString("switch"), 1, &hI32, hNone);
  mlirBlockAppendOwnedOperation(top, task);
  b = mlirRegionGetFirstBlock(mlirOperationGetRegion(task, 0));
  MlirValue g = mlirBlockGetArgument(b, 0);
  h = append(b, coroBeginOpCreate(loc, hNone), 0);
  append(b, coroYieldOpCreate(loc, (MlirValue){NULL}, (MlirType){NULL}), 0);
  append(b, coroAwaitOpCreate(loc, g, i32), 0);
  append(b, coroAwaitOpCreate(loc, g, (MlirType){NULL}), 0);
  append(b, coroSelfOpCreate(loc, hNone), 0);
  append(b, coroEndOpCreate(loc, h, (MlirValue){NULL}), 0);
  appendReturn(b, loc, h);

  /* @acc() -> !coro.handle<i64>, retcon: the resumer passes an i64 in. */
  MlirOperation acc = coroCoroutineCreate(
      loc, mlirStringRefCreateFromCString("acc"),
      mlirStringRefCreateFromCString("retcon"), 0, NULL, hI64);
  mlirBlockAppendOwnedOperation(top, acc);
  b = mlirRegionGetFirstBlock(mlirOperationGetRegion(acc, 0));
  h = append(b, coroBeginOpCreate(loc, hI64), 0);
  MlirValue c = appendConstant(b, loc, i64, 0);
  append(b, coroYieldOpCreate(loc, c, i64), 0);
  append(b, coroEndOpCreate(loc, h, (MlirValue){NULL}), 0);
  appendReturn(b, loc, h);

  MlirOperation m = mlirModuleGetOperation(module);
  // CHECK-LABEL: @testBuildCoroutine
  // CHECK: "builtin.module"() ({
  // CHECK: "func.func"() <{function_type = (i32) -> !coro.handle<i32>,
  // CHECK-SAME: sym_name = "gen"}> ({
  // CHECK-NEXT: ^bb0(%[[N:.*]]: i32):
  // CHECK-NEXT: %[[H:.*]] = "coro.begin"() : () -> !coro.handle<i32>
  // CHECK-NEXT: %{{.*}} = "coro.yield"(%[[N]]) : (i32) -> i1
  // CHECK-NEXT: "coro.end"(%[[H]], %[[N]])
  // CHECK-SAME: : (!coro.handle<i32>, i32) -> ()
  // CHECK-NEXT: "func.return"(%[[H]]) : (!coro.handle<i32>) -> ()
  // CHECK-NEXT: }) {coro.abi = "switch"} : () -> ()
  // CHECK: "func.func"() <{function_type =
  // CHECK-SAME: (!coro.handle<i32>) -> !coro.handle<none>,
  // CHECK-SAME: sym_name = "task"}> ({
  // CHECK-NEXT: ^bb0(%[[G:.*]]: !coro.handle<i32>):
  // CHECK-NEXT: %[[H:.*]] = "coro.begin"() : () -> !coro.handle<none>
  // CHECK-NEXT: %{{.*}} = "coro.yield"() : () -> i1
  // CHECK-NEXT: %{{.*}} = "coro.await"(%[[G]])
  // CHECK-SAME: : (!coro.handle<i32>) -> i32
  // CHECK-NEXT: "coro.await"(%[[G]]) : (!coro.handle<i32>) -> ()
  // CHECK-NEXT: %{{.*}} = "coro.self"() : () -> !coro.handle<none>
  // CHECK-NEXT: "coro.end"(%[[H]]) : (!coro.handle<none>) -> ()
  // CHECK-NEXT: "func.return"(%[[H]]) : (!coro.handle<none>) -> ()
  // CHECK-NEXT: }) {coro.abi = "switch"} : () -> ()
  // CHECK: "func.func"() <{function_type = () -> !coro.handle<i64>,
  // CHECK-SAME: sym_name = "acc"}> ({
  // CHECK-NEXT: %[[H:.*]] = "coro.begin"() : () -> !coro.handle<i64>
  // CHECK-NEXT: %[[C:.*]] = "arith.constant"()
  // CHECK-SAME: <{value = 0 : i64}> : () -> i64
  // CHECK-NEXT: %{{.*}}:2 = "coro.yield"(%[[C]]) : (i64) -> (i1, i64)
  // CHECK-NEXT: "coro.end"(%[[H]]) : (!coro.handle<i64>) -> ()
  // CHECK-NEXT: "func.return"(%[[H]]) : (!coro.handle<i64>) -> ()
  // CHECK-NEXT: }) {coro.abi = "retcon"} : () -> ()
  printGeneric(m);
  // CHECK: mlirOperationVerify: 1 coroVerify: 1
  printVerified(m);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* The consumer ops in a plain function. */
static void testConsumerOps(void) {
  fprintf(stderr, "@testConsumerOps\n");
  MlirContext ctx = makeContext();
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType hI32 = coroHandleTypeGet(i32);
  /* func.func @consumer(%g: !coro.handle<i32>) -> i32, built from C. */
  MlirType fnType = mlirFunctionTypeGet(ctx, 1, &hI32, 1, &i32);
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("sym_name")),
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("consumer"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("function_type")),
          mlirTypeAttrGet(fnType)),
  };
  MlirRegion body = mlirRegionCreate();
  MlirBlock b = mlirBlockCreate(1, &hI32, &loc);
  mlirRegionAppendOwnedBlock(body, b);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&state, 2, attrs);
  mlirOperationStateAddOwnedRegions(&state, 1, &body);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module),
                                mlirOperationCreate(&state));
  MlirValue g = mlirBlockGetArgument(b, 0);
  append(b, coroResumeOpCreate(loc, g, (MlirValue){NULL}), 0);
  append(b, coroDoneOpCreate(loc, g), 0);
  MlirValue v = append(b, coroPromiseOpCreate(loc, g), 0);
  append(b, coroDestroyOpCreate(loc, g), 0);
  MlirValue noop = append(b, coroNoopOpCreate(loc), 0);
  append(b, coroResumeOpCreate(loc, noop, (MlirValue){NULL}), 0);
  appendReturn(b, loc, v);

  // CHECK-LABEL: @testConsumerOps
  // CHECK: "func.func"() <{function_type = (!coro.handle<i32>) -> i32,
  // CHECK-SAME: sym_name = "consumer"}> ({
  // CHECK-NEXT: ^bb0(%[[G:.*]]: !coro.handle<i32>):
  // CHECK-NEXT: "coro.resume"(%[[G]]) : (!coro.handle<i32>) -> ()
  // CHECK-NEXT: %{{.*}} = "coro.done"(%[[G]]) : (!coro.handle<i32>) -> i1
  // CHECK-NEXT: %[[V:.*]] = "coro.promise"(%[[G]])
  // CHECK-SAME: : (!coro.handle<i32>) -> i32
  // CHECK-NEXT: "coro.destroy"(%[[G]]) : (!coro.handle<i32>) -> ()
  // CHECK-NEXT: %[[NOOP:.*]] = "coro.noop"() : () -> !coro.handle<none>
  // CHECK-NEXT: "coro.resume"(%[[NOOP]]) : (!coro.handle<none>) -> ()
  // CHECK-NEXT: "func.return"(%[[V]]) : (i32) -> ()
  printGeneric(mlirModuleGetOperation(module));
  // CHECK: mlirOperationVerify: 1 coroVerify: 1
  printVerified(mlirModuleGetOperation(module));

  /* A resume that passes a value in (for retcon handles): built detached. */
  MlirOperation resumeWith = coroResumeOpCreate(loc, g, v);
  // CHECK: "coro.resume"({{.*}}, {{.*}}) : (!coro.handle<i32>, i32) -> ()
  printGeneric(resumeWith);
  mlirOperationDestroy(resumeWith);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

/* Builders refuse a null required operand; predicates and the ABI accessor
 * look at any op. */
static void testPredicates(void) {
  fprintf(stderr, "@testPredicates\n");
  MlirContext ctx = makeContext();
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirValue null = {NULL};
  // CHECK-LABEL: @testPredicates
  // CHECK: null handle gives null op: 1 1 1 1 1 1
  fprintf(stderr, "null handle gives null op: %d %d %d %d %d %d\n",
          mlirOperationIsNull(coroEndOpCreate(loc, null, null)),
          mlirOperationIsNull(coroResumeOpCreate(loc, null, null)),
          mlirOperationIsNull(coroDestroyOpCreate(loc, null)),
          mlirOperationIsNull(coroDoneOpCreate(loc, null)),
          mlirOperationIsNull(coroPromiseOpCreate(loc, null)),
          mlirOperationIsNull(coroAwaitOpCreate(loc, null, (MlirType){NULL})));

  MlirType hNone = coroHandleTypeGet(mlirNoneTypeGet(ctx));
  MlirOperation begin = coroBeginOpCreate(loc, hNone);
  // CHECK: begin is begin: 1 is yield: 0 is beg: 0 null: 0
  fprintf(stderr, "begin is begin: %d is yield: %d is beg: %d null: %d\n",
          coroOpIsA(begin, "begin"), coroOpIsA(begin, "yield"),
          coroOpIsA(begin, "beg"), coroOpIsA((MlirOperation){NULL}, "begin"));

  MlirOperation co = coroCoroutineCreate(
      loc, mlirStringRefCreateFromCString("co"),
      mlirStringRefCreateFromCString("retcon.once"), 0, NULL, hNone);
  MlirStringRef abi = coroCoroutineGetABI(co);
  // CHECK: coroutine: 1 abi: retcon.once
  fprintf(stderr, "coroutine: %d abi: %.*s\n", coroOpIsCoroutine(co),
          (int)abi.length, abi.data);
  // CHECK: begin is coroutine: 0 abi is null: 1
  fprintf(stderr, "begin is coroutine: %d abi is null: %d\n",
          coroOpIsCoroutine(begin), coroCoroutineGetABI(begin).data == NULL);
  MlirOperation plain = mlirOperationCreateParse(
      ctx, mlirStringRefCreateFromCString("func.func private @f()"),
      mlirStringRefCreateFromCString("plain"));
  // CHECK: plain func is coroutine: 0 abi length: 0
  fprintf(stderr, "plain func is coroutine: %d abi length: %d\n",
          coroOpIsCoroutine(plain), (int)coroCoroutineGetABI(plain).length);
  mlirOperationDestroy(plain);
  mlirOperationDestroy(co);
  mlirOperationDestroy(begin);
  mlirContextDestroy(ctx);
}

int main(void) {
  testLoadTwice();
  testHandleTypeNoDialect();
  testHandleType();
  testBuildCoroutine();
  testConsumerOps();
  testPredicates();
  return 0;
}
