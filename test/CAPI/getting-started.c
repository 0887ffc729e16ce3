/* RUN: %capi_bin/getting-started 2>&1 | FileCheck %s
 *
 * The C example of docs/getting-started.md ("From C"), completed into a
 * program: the lines between the BEGIN/END markers are the ones the page
 * shows. It builds a switch coroutine that yields once, puts it in a module,
 * and checks it with mlirOperationVerify and coroVerify. */
#include "coro-c/Coro.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

static void printToStderr(MlirStringRef s, void *u) {
  (void)u;
  fwrite(s.data, 1, s.length, stderr);
}

static void testGettingStarted(void) {
  fprintf(stderr, "@testGettingStarted\n");
  /* BEGIN docs/getting-started.md */
  MlirContext ctx = mlirContextCreate();
  coroDialectLoad(ctx); /* idempotent */
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirType none = coroHandleTypeGet(mlirNoneTypeGet(ctx));
  /* fn is owned by us until it is inserted into a module. */
  MlirOperation fn = coroCoroutineCreate(
      loc, mlirStringRefCreateFromCString("task"),
      mlirStringRefCreateFromCString("switch"), 0, NULL, none);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirOperation begin = coroBeginOpCreate(loc, none);
  mlirBlockAppendOwnedOperation(entry, begin); /* ownership moves to entry */
  MlirValue h = mlirOperationGetResult(begin, 0);
  mlirBlockAppendOwnedOperation(
      entry, coroYieldOpCreate(loc, (MlirValue){0}, (MlirType){0}));
  mlirBlockAppendOwnedOperation(entry, coroEndOpCreate(loc, h, (MlirValue){0}));
  /* END docs/getting-started.md */

  MlirOperationState ret =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.return"), loc);
  mlirOperationStateAddOperands(&ret, 1, &h);
  mlirBlockAppendOwnedOperation(entry, mlirOperationCreate(&ret));
  MlirModule module = mlirModuleCreateEmpty(loc);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), fn);
  MlirOperation m = mlirModuleGetOperation(module);
  // CHECK-LABEL: @testGettingStarted
  // CHECK: func.func @task() -> !coro.handle<none>
  // CHECK-SAME: attributes {coro.abi = "switch"}
  // CHECK-NEXT: %[[H:.*]] = "coro.begin"() : () -> !coro.handle<none>
  // CHECK-NEXT: %{{.*}} = "coro.yield"() : () -> i1
  // CHECK-NEXT: "coro.end"(%[[H]]) : (!coro.handle<none>) -> ()
  // CHECK-NEXT: return %[[H]] : !coro.handle<none>
  mlirOperationPrint(m, printToStderr, NULL);
  // CHECK: verified: 1 1
  fprintf(stderr, "\nverified: %d %d\n", mlirOperationVerify(m),
          mlirLogicalResultIsSuccess(coroVerify(m)));
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

int main(void) {
  testGettingStarted();
  return 0;
}
