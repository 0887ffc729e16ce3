/* empty_values.c - values of a type with no bits in a coroutine (see
 * empty_values.h). */
#include "transforms/empty_values.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdlib.h>

struct empties {
  struct ir_opvec zeros; /* the llvm.mlir.zero made so far, one per type */
  MlirOperation at;      /* where they go: before the entry's first op */
  MlirTypeID array;      /* !llvm.array's */
};

/* Whether `t` is an aggregate of no bits: an array of no elements or of
 * such elements, a struct of no fields or of such fields. */
static bool empty_type(MlirType t, MlirTypeID array) {
  if (mlirTypeIsALLVMStructType(t)) {
    if (mlirLLVMStructTypeIsOpaque(t))
      return false;
    for (intptr_t i = 0, n = mlirLLVMStructTypeGetNumElementTypes(t); i < n;
         ++i)
      if (!empty_type(mlirLLVMStructTypeGetElementType(t, i), array))
        return false;
    return true;
  }
  if (!mlirTypeIDEqual(mlirTypeGetTypeID(t), array))
    return false;
  return ir_array_length(t) == 0 ||
         empty_type(mlirLLVMArrayTypeGetElementType(t), array);
}

/* An llvm.mlir.zero of `t`, one per type per coroutine. */
static MlirValue zero_of(struct empties *e, MlirType t) {
  for (size_t i = 0; i < e->zeros.n; ++i) {
    MlirValue z = mlirOperationGetResult(e->zeros.v[i], 0);
    if (mlirTypeEqual(mlirValueGetType(z), t))
      return z;
  }
  struct ir_builder b = ir_before(e->at);
  MlirValue z = ir_val(&b, "llvm.mlir.zero", 0, NULL, t);
  ir_opvec_push(&e->zeros, mlirOpResultGetOwner(z));
  return z;
}

static void rebuild(struct empties *e, MlirValue v) {
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)) ||
      !empty_type(mlirValueGetType(v), e->array))
    return;
  mlirValueReplaceAllUsesOfWith(v, zero_of(e, mlirValueGetType(v)));
}

static MlirWalkResult visit_op(MlirOperation op, void *user) {
  struct empties *e = user;
  for (size_t i = 0; i < e->zeros.n; ++i)
    if (mlirOperationEqual(op, e->zeros.v[i]))
      return MlirWalkResultAdvance;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    rebuild(e, mlirOperationGetResult(op, i));
  for (intptr_t r = 0, nr = mlirOperationGetNumRegions(op); r < nr; ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (intptr_t i = 0, n = mlirBlockGetNumArguments(b); i < n; ++i)
        rebuild(e, mlirBlockGetArgument(b, i));
  return MlirWalkResultAdvance;
}

static MlirWalkResult visit_fn(MlirOperation fn, void *user) {
  const MlirTypeID *array = user;
  if (!coro_op_named(fn, "llvm.func"))
    return MlirWalkResultAdvance;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  if (mlirBlockIsNull(entry) || !ir_passthrough_has(fn, "presplitcoroutine"))
    return MlirWalkResultSkip;
  struct empties e = {{0}, mlirBlockGetFirstOperation(entry), *array};
  mlirOperationWalk(fn, visit_op, &e, MlirWalkPreOrder);
  free(e.zeros.v);
  return MlirWalkResultSkip;
}

void coro_rebuild_empty_values(MlirOperation root) {
  /* the C API has no TypeID getter for !llvm.array: one array's, once */
  MlirContext ctx = mlirOperationGetContext(root);
  MlirTypeID array =
      mlirTypeGetTypeID(mlirLLVMArrayTypeGet(mlirIntegerTypeGet(ctx, 8), 1));
  mlirOperationWalk(root, visit_fn, &array, MlirWalkPreOrder);
}
