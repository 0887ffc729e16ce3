/* ops.c - builders and predicates for the coro ops.
 *
 * Every builder returns a detached operation the caller owns. Optional
 * operands and results are absent when the corresponding argument is null;
 * IRDL ops with a single optional group need no segment-size attribute. */
#include "coro-c/Dialect.h"
#include "dialect/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

static MlirOperation build(MlirLocation loc, const char *name,
                           intptr_t nOperands, const MlirValue *operands,
                           intptr_t nResults, const MlirType *results) {
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&state, nOperands, operands);
  mlirOperationStateAddResults(&state, nResults, results);
  return mlirOperationCreate(&state);
}

/* Collects the non-null values of `in` into `out`; returns how many. */
static intptr_t present(MlirValue *out, MlirValue a, MlirValue b) {
  intptr_t n = 0;
  if (!mlirValueIsNull(a))
    out[n++] = a;
  if (!mlirValueIsNull(b))
    out[n++] = b;
  return n;
}

MlirOperation coroBeginOpCreate(MlirLocation loc, MlirType handleType) {
  return build(loc, "coro.begin", 0, NULL, 1, &handleType);
}

MlirOperation coroYieldOpCreate(MlirLocation loc, MlirValue value,
                                MlirType resumeType) {
  MlirValue operands[1];
  intptr_t nOperands = present(operands, value, (MlirValue){NULL});
  MlirType results[2] = {
      mlirIntegerTypeGet(mlirLocationGetContext(loc), 1), resumeType};
  return build(loc, "coro.yield", nOperands, operands,
               mlirTypeIsNull(resumeType) ? 1 : 2, results);
}

MlirOperation coroAwaitOpCreate(MlirLocation loc, MlirValue awaited,
                                MlirType resultType) {
  return build(loc, "coro.await", 1, &awaited,
               mlirTypeIsNull(resultType) ? 0 : 1, &resultType);
}

MlirOperation coroEndOpCreate(MlirLocation loc, MlirValue handle,
                              MlirValue value) {
  MlirValue operands[2];
  return build(loc, "coro.end", present(operands, handle, value), operands, 0,
               NULL);
}

MlirOperation coroSelfOpCreate(MlirLocation loc, MlirType handleType) {
  return build(loc, "coro.self", 0, NULL, 1, &handleType);
}

MlirOperation coroResumeOpCreate(MlirLocation loc, MlirValue handle,
                                 MlirValue value) {
  MlirValue operands[2];
  return build(loc, "coro.resume", present(operands, handle, value), operands,
               0, NULL);
}

MlirOperation coroDestroyOpCreate(MlirLocation loc, MlirValue handle) {
  return build(loc, "coro.destroy", 1, &handle, 0, NULL);
}

MlirOperation coroDoneOpCreate(MlirLocation loc, MlirValue handle) {
  MlirType i1 = mlirIntegerTypeGet(mlirLocationGetContext(loc), 1);
  return build(loc, "coro.done", 1, &handle, 1, &i1);
}

MlirOperation coroPromiseOpCreate(MlirLocation loc, MlirValue handle) {
  MlirType elem = coroHandleTypeGetElementType(mlirValueGetType(handle));
  return build(loc, "coro.promise", 1, &handle, 1, &elem);
}

MlirOperation coroNoopOpCreate(MlirLocation loc) {
  MlirType handle =
      coroHandleTypeGet(mlirNoneTypeGet(mlirLocationGetContext(loc)));
  return build(loc, "coro.noop", 0, NULL, 1, &handle);
}

bool coroOpIsA(MlirOperation op, const char *name) {
  MlirStringRef full = coro_op_name(op);
  size_t n = strlen(name);
  return full.length == n + 5 && memcmp(full.data, "coro.", 5) == 0 &&
         memcmp(full.data + 5, name, n) == 0;
}

bool coroOpIsCoroutine(MlirOperation op) {
  return coro_op_named(op, "func.func") &&
         !mlirAttributeIsNull(mlirOperationGetAttributeByName(
             op, mlirStringRefCreateFromCString("coro.abi")));
}

MlirOperation coroCoroutineCreate(MlirLocation loc, MlirStringRef name,
                                  MlirStringRef abi, intptr_t nArgs,
                                  const MlirType *argTypes,
                                  MlirType handleType) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType fnType = mlirFunctionTypeGet(ctx, nArgs, argTypes, 1, &handleType);
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("sym_name")),
          mlirStringAttrGet(ctx, name)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(
                                                       "function_type")),
                            mlirTypeAttrGet(fnType)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("coro.abi")),
          mlirStringAttrGet(ctx, abi)),
  };
  MlirLocation argLocs[nArgs > 0 ? nArgs : 1];
  for (intptr_t i = 0; i < nArgs; ++i)
    argLocs[i] = loc;
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, mlirBlockCreate(nArgs, argTypes, argLocs));
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&state, 3, attrs);
  mlirOperationStateAddOwnedRegions(&state, 1, &body);
  return mlirOperationCreate(&state);
}
