/* ops.c - builders and predicates for the coro ops.
 *
 * Every builder returns a detached operation the caller owns, shaped after
 * dialect/coro.irdl.mlir. Optional operands and results are absent when the
 * corresponding argument is null; every coro op has at most one optional
 * operand group and one optional result group, so none needs a segment-size
 * attribute. A required operand that is null yields a null operation (no
 * crash): the builders never create an op IRDL would reject for arity. */
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "ir/support.h"

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

/* Builds `name(handle, value?)` with no results; null op if `handle` is. */
static MlirOperation build_handle_value(MlirLocation loc, const char *name,
                                        MlirValue handle, MlirValue value) {
  if (mlirValueIsNull(handle))
    return (MlirOperation){NULL};
  MlirValue operands[2] = {handle, value};
  return build(loc, name, mlirValueIsNull(value) ? 1 : 2, operands, 0, NULL);
}

MlirOperation coro_begin_op_create(MlirLocation loc, MlirType handleType) {
  return build(loc, "coro.begin", 0, NULL, 1, &handleType);
}

MlirOperation coro_yield_op_create(MlirLocation loc, MlirValue value,
                                   MlirType resumeType) {
  MlirType results[2] = {mlirIntegerTypeGet(mlirLocationGetContext(loc), 1),
                         resumeType};
  return build(loc, "coro.yield", mlirValueIsNull(value) ? 0 : 1, &value,
               mlirTypeIsNull(resumeType) ? 1 : 2, results);
}

MlirOperation coro_await_op_create(MlirLocation loc, MlirValue awaited,
                                   MlirType resultType) {
  if (mlirValueIsNull(awaited))
    return (MlirOperation){NULL};
  return build(loc, "coro.await", 1, &awaited,
               mlirTypeIsNull(resultType) ? 0 : 1, &resultType);
}

MlirOperation coro_end_op_create(MlirLocation loc, MlirValue handle,
                                 MlirValue value) {
  return build_handle_value(loc, "coro.end", handle, value);
}

MlirOperation coro_self_op_create(MlirLocation loc, MlirType handleType) {
  return build(loc, "coro.self", 0, NULL, 1, &handleType);
}

MlirOperation coro_resume_op_create(MlirLocation loc, MlirValue handle,
                                    MlirValue value) {
  return build_handle_value(loc, "coro.resume", handle, value);
}

MlirOperation coro_destroy_op_create(MlirLocation loc, MlirValue handle) {
  if (mlirValueIsNull(handle))
    return (MlirOperation){NULL};
  return build(loc, "coro.destroy", 1, &handle, 0, NULL);
}

MlirOperation coro_done_op_create(MlirLocation loc, MlirValue handle) {
  if (mlirValueIsNull(handle))
    return (MlirOperation){NULL};
  MlirType i1 = mlirIntegerTypeGet(mlirLocationGetContext(loc), 1);
  return build(loc, "coro.done", 1, &handle, 1, &i1);
}

MlirOperation coro_promise_op_create(MlirLocation loc, MlirValue handle) {
  if (mlirValueIsNull(handle))
    return (MlirOperation){NULL};
  MlirType elem = coro_handle_elem_type(mlirValueGetType(handle));
  if (mlirTypeIsNull(elem))
    return (MlirOperation){NULL};
  return build(loc, "coro.promise", 1, &handle, 1, &elem);
}

MlirOperation coro_noop_op_create(MlirLocation loc) {
  MlirType handle =
      coro_handle_type_get(mlirNoneTypeGet(mlirLocationGetContext(loc)));
  return build(loc, "coro.noop", 0, NULL, 1, &handle);
}

bool coro_op_is_a(MlirOperation op, const char *name) {
  if (mlirOperationIsNull(op))
    return false;
  MlirStringRef full = coro_op_name(op);
  size_t n = strlen(name);
  return full.length == n + 5 && memcmp(full.data, "coro.", 5) == 0 &&
         memcmp(full.data + 5, name, n) == 0;
}

bool coro_op_is_coroutine(MlirOperation op) {
  return !mlirOperationIsNull(op) && coro_op_named(op, "func.func") &&
         !mlirAttributeIsNull(mlirOperationGetAttributeByName(
             op, mlirStringRefCreateFromCString(CORO_ABI_ATTR)));
}

MlirStringRef coro_coroutine_get_abi(MlirOperation op) {
  if (!coro_op_is_coroutine(op))
    return mlirStringRefCreate(NULL, 0);
  MlirAttribute abi = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_ABI_ATTR));
  if (!mlirAttributeIsAString(abi))
    return mlirStringRefCreate(NULL, 0);
  return mlirStringAttrGetValue(abi);
}

MlirOperation coro_coroutine_create(MlirLocation loc, MlirStringRef name,
                                    MlirStringRef abi, intptr_t nArgs,
                                    const MlirType *argTypes,
                                    MlirType handleType) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType fnType = mlirFunctionTypeGet(ctx, nArgs, argTypes, 1, &handleType);
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("sym_name")),
          mlirStringAttrGet(ctx, name)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("function_type")),
          mlirTypeAttrGet(fnType)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(CORO_ABI_ATTR)),
          mlirStringAttrGet(ctx, abi)),
  };
  MlirLocation argLocs[nArgs > 0 ? nArgs : 1];
  for (intptr_t i = 0; i < nArgs; ++i)
    argLocs[i] = loc;
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, mlirBlockCreate(nArgs, argTypes, argLocs));
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&state, 3, attrs);
  mlirOperationStateAddOwnedRegions(&state, 1, &body);
  return mlirOperationCreate(&state);
}
