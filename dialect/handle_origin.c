/* handle_origin.c - where a handle comes from (see handle_origin.h). */
#include "dialect/handle_origin.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "ir/func.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"

MlirStringRef coro_coroutine_abi(MlirOperation func) {
  if (mlirOperationIsNull(func) || !coro_op_is_coroutine(func))
    return mlirStringRefCreate(NULL, 0);
  MlirAttribute abi = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString(CORO_ABI_ATTR));
  return mlirAttributeIsAString(abi) ? mlirStringAttrGetValue(abi)
                                     : mlirStringRefCreate(NULL, 0);
}

struct each_abi {
  void (*fn)(MlirStringRef abi, void *user);
  void *user;
};

static MlirWalkResult each_abi_op(MlirOperation op, void *user) {
  struct each_abi *e = user;
  if (coro_op_named(op, "func.func")) {
    if (coro_op_is_coroutine(op))
      e->fn(coro_coroutine_abi(op), e->user);
    return MlirWalkResultSkip;
  }
  return coro_op_named(op, "llvm.func") ? MlirWalkResultSkip
                                        : MlirWalkResultAdvance;
}

void coro_each_coroutine_abi(MlirOperation module,
                             void (*fn)(MlirStringRef abi, void *user),
                             void *user) {
  struct each_abi e = {fn, user};
  mlirOperationWalk(module, each_abi_op, &e, MlirWalkPreOrder);
}

MlirOperation coro_enclosing_func(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (coro_op_named(p, "func.func"))
      return p;
  return (MlirOperation){NULL};
}

MlirOperation coro_handle_origin(MlirOperation module, MlirValue h) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(h))
    return none;
  MlirOperation def = mlirOpResultGetOwner(h);
  if (coro_op_named(def, "coro.begin") || coro_op_named(def, "coro.self")) {
    MlirOperation f = coro_enclosing_func(def);
    return !mlirOperationIsNull(f) && coro_op_is_coroutine(f) ? f : none;
  }
  if (!coro_op_named(def, "func.call"))
    return none;
  MlirAttribute callee = ir_callee_attr(def);
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return none;
  MlirOperation f =
      coro_lookup_symbol(module, mlirFlatSymbolRefAttrGetValue(callee));
  return !mlirOperationIsNull(f) && coro_op_is_coroutine(f) ? f : none;
}

MlirStringRef coro_handle_abi(MlirOperation module, MlirValue h) {
  return coro_coroutine_abi(coro_handle_origin(module, h));
}

static MlirWalkResult find_resume_type(MlirOperation op, void *user) {
  if (coro_op_named(op, "coro.yield") && mlirOperationGetNumResults(op) == 2) {
    *(MlirType *)user = mlirValueGetType(mlirOperationGetResult(op, 1));
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

MlirType coro_resume_type(MlirOperation coroutine) {
  MlirType r = {NULL};
  mlirOperationWalk(coroutine, find_resume_type, &r, MlirWalkPreOrder);
  return r;
}
