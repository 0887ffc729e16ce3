/* func.c - LLVM-dialect functions built from typed attributes (see
 * func.h). */
#include "ir/func.h"
#include "ir/builder.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdlib.h>

static MlirAttribute string_array(MlirContext ctx, MlirAttribute old,
                                  const char *const *extra) {
  intptr_t n = !mlirAttributeIsNull(old) && mlirAttributeIsAArray(old)
                   ? mlirArrayAttrGetNumElements(old)
                   : 0;
  intptr_t more = 0;
  while (extra && extra[more])
    ++more;
  MlirAttribute *elems = malloc((size_t)(n + more + 1) * sizeof *elems);
  assert(elems && "out of memory");
  for (intptr_t i = 0; i < n; ++i)
    elems[i] = mlirArrayAttrGetElement(old, i);
  for (intptr_t i = 0; i < more; ++i)
    elems[n + i] =
        mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(extra[i]));
  MlirAttribute a = mlirArrayAttrGet(ctx, n + more, elems);
  free(elems);
  return a;
}

MlirOperation ir_llvm_func(MlirOperation module,
                           const struct ir_func_spec *spec, bool declaration,
                           MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType fty = ir_llvm_func_type(ctx, spec->result, spec->nargs, spec->args,
                                   spec->vararg);
  MlirNamedAttribute a[6];
  intptr_t na = 0;
  a[na++] = ir_named(
      ctx, "sym_name",
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(spec->name)));
  a[na++] = ir_named(ctx, "function_type", mlirTypeAttrGet(fty));
  a[na++] =
      ir_named(ctx, "linkage", mlirLLVMLinkageAttrGet(ctx, spec->linkage));
  if (spec->cconv)
    a[na++] = ir_named(ctx, "CConv", mlirLLVMCConvAttrGet(ctx, spec->cconv));
  if (spec->passthrough)
    a[na++] =
        ir_named(ctx, "passthrough",
                 string_array(ctx, (MlirAttribute){NULL}, spec->passthrough));
  if (spec->visibility)
    a[na++] = ir_named(ctx, "sym_visibility",
                       mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                                  spec->visibility)));
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("llvm.func"), loc);
  mlirOperationStateAddAttributes(&st, na, a);
  MlirRegion body = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  MlirOperation f = mlirOperationCreate(&st);
  assert(!mlirOperationIsNull(f) && "llvm.func creation failed");
  if (!declaration) {
    MlirLocation *locs = malloc((size_t)(spec->nargs + 1) * sizeof *locs);
    assert(locs && "out of memory");
    for (intptr_t i = 0; i < spec->nargs; ++i)
      locs[i] = loc;
    MlirBlock entry = mlirBlockCreate(spec->nargs, spec->args, locs);
    free(locs);
    mlirRegionAppendOwnedBlock(mlirOperationGetRegion(f, 0), entry);
  }
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockAppendOwnedOperation(mbody, f);
  return f;
}

MlirOperation ir_llvm_global(MlirOperation module,
                             const struct ir_global_spec *spec,
                             MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute a[6];
  intptr_t na = 0;
  a[na++] = ir_named(ctx, "sym_name", mlirStringAttrGet(ctx, spec->name));
  a[na++] = ir_named(ctx, "global_type", mlirTypeAttrGet(spec->type));
  a[na++] =
      ir_named(ctx, "linkage", mlirLLVMLinkageAttrGet(ctx, spec->linkage));
  if (spec->constant)
    a[na++] = ir_named(ctx, "constant", mlirUnitAttrGet(ctx));
  if (!mlirAttributeIsNull(spec->value))
    a[na++] = ir_named(ctx, "value", spec->value);
  if (spec->align)
    a[na++] = ir_named(ctx, "alignment", ir_i64_attr(ctx, spec->align));
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("llvm.mlir.global"), loc);
  mlirOperationStateAddAttributes(&st, na, a);
  MlirRegion init = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &init);
  MlirOperation g = mlirOperationCreate(&st);
  assert(!mlirOperationIsNull(g) && "llvm.mlir.global creation failed");
  MlirBlock mbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockAppendOwnedOperation(mbody, g);
  return g;
}

MlirStringRef ir_sym_name(MlirOperation op) {
  return mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name")));
}

MlirBlock ir_func_entry(MlirOperation func) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
}

void ir_add_passthrough(MlirOperation func, const char *const *extra) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirStringRef key = mlirStringRefCreateFromCString("passthrough");
  mlirOperationSetAttributeByName(
      func, key,
      string_array(ctx, mlirOperationGetAttributeByName(func, key), extra));
}
