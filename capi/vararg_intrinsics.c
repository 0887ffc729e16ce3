/* vararg_intrinsics.c - LLVM's variadic coroutine intrinsics as calls
 * (see vararg_intrinsics.h). */
#include "capi/vararg_intrinsics.h"
#include "conversion/common/names.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdlib.h>
#include <string.h>

/* LLVM's variadic coroutine intrinsics (an overloaded one's name is
 * followed by '.' and its mangled types) and their fixed parameters. */
static const struct {
  const char *name;
  intptr_t fixed;
  bool overloaded; /* on its result */
} vararg_intrinsics[] = {{"llvm.coro.suspend.retcon", 0, true},
                         {"llvm.coro.end.results", 0, false},
                         {"llvm.coro.suspend.async", 3, true},
                         {"llvm.coro.end.async", 2, false}};

/* The index in vararg_intrinsics of the intrinsic `name`, or -1. */
static int vararg_index(MlirStringRef name) {
  for (size_t i = 0; i < sizeof vararg_intrinsics / sizeof *vararg_intrinsics;
       ++i) {
    size_t n = strlen(vararg_intrinsics[i].name);
    if (name.length >= n && !memcmp(name.data, vararg_intrinsics[i].name, n) &&
        (name.length == n || name.data[n] == '.'))
      return (int)i;
  }
  return -1;
}

struct found {
  MlirOperation module;
  struct ir_opvec calls;
};

/* Notes the calls of the module's own functions (a nested module's are
 * its own: GPU code is translated by itself). */
static MlirWalkResult note_vararg_intrinsic(MlirOperation op, void *user) {
  struct found *f = user;
  if (!mlirOperationEqual(op, f->module) &&
      (coro_op_named(op, "builtin.module") || coro_op_named(op, "gpu.module")))
    return MlirWalkResultSkip;
  if (!coro_op_named(op, "llvm.call_intrinsic"))
    return MlirWalkResultAdvance;
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("intrin"));
  if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name) &&
      vararg_index(mlirStringAttrGetValue(name)) >= 0)
    ir_opvec_push(&f->calls, op);
  return MlirWalkResultAdvance;
}

/* The type of the function `name` the calls of the intrinsic take: a
 * declaration's in the module, or `fty` for the declaration made at the end
 * of `module` when there is none; null (after an error at `at`) when the
 * symbol is something else. */
static MlirType declare_vararg(MlirOperation module, MlirStringRef name,
                               MlirType fty, intptr_t fixed,
                               const MlirType *types, MlirOperation at) {
  MlirOperation f = coro_lookup_symbol(module, name);
  if (mlirOperationIsNull(f)) {
    char *cname = ir_xmalloc(name.length + 1);
    memcpy(cname, name.data, name.length);
    cname[name.length] = 0;
    struct ir_func_spec spec = {.name = cname,
                                .result =
                                    mlirLLVMFunctionTypeGetReturnType(fty),
                                .nargs = fixed,
                                .args = types,
                                .vararg = true};
    ir_llvm_func(module, &spec, true, mlirOperationGetLocation(at));
    free(cname);
    return fty;
  }
  MlirAttribute t = mlirOperationGetAttributeByName(
      f, mlirStringRefCreateFromCString("function_type"));
  if (coro_op_named(f, "llvm.func") && !mlirAttributeIsNull(t))
    return mlirTypeAttrGetValue(t);
  ir_emit_error(at, "this coroutine intrinsic's name is a symbol of the "
                    "module that is not an llvm.func");
  return (MlirType){NULL};
}

bool coro_vararg_intrinsics_to_calls(MlirOperation module) {
  struct found f = {module, {0}};
  mlirOperationWalk(module, note_vararg_intrinsic, &f, MlirWalkPreOrder);
  struct ir_opvec calls = f.calls;
  bool ok = true;
  for (size_t i = 0; i < calls.n && ok; ++i) {
    MlirOperation op = calls.v[i];
    MlirContext ctx = mlirOperationGetContext(op);
    MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("intrin")));
    intptr_t n = mlirOperationGetNumOperands(op);
    int k = vararg_index(name);
    intptr_t fixed = vararg_intrinsics[k].fixed;
    bool has = mlirOperationGetNumResults(op) > 0;
    bool bare = name.length == strlen(vararg_intrinsics[k].name);
    /* a void overload names its mangling itself (".isVoid") */
    if (fixed > n || (vararg_intrinsics[k].overloaded && !has && bare))
      continue; /* malformed: left to the translation's error */
    MlirAttribute bundles = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("op_bundle_sizes"));
    if (!mlirAttributeIsNull(bundles) &&
        mlirDenseArrayGetNumElements(bundles) > 0)
      continue; /* operand bundles: left as they are */
    MlirType result =
        has ? mlirValueGetType(mlirOperationGetResult(op, 0)) : (MlirType){0};
    /* LLVM knows an overloaded intrinsic by its mangled name only */
    struct coro_str full = {0};
    coro_str_append(&full, name.data, name.length);
    if (vararg_intrinsics[k].overloaded && bare) {
      coro_str_appendz(&full, ".");
      if (!coro_mangle_type(result, &full)) {
        coro_str_free(&full);
        continue; /* left to the translation's error */
      }
    }
    name = mlirStringRefCreate(full.data, full.len);
    MlirValue *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
    MlirType *types = ir_xmalloc((size_t)(n + 1) * sizeof *types);
    for (intptr_t j = 0; j < n; ++j) {
      args[j] = mlirOperationGetOperand(op, j);
      types[j] = mlirValueGetType(args[j]);
    }
    MlirType fty = declare_vararg(
        module, name, ir_llvm_func_type(ctx, result, fixed, types, true), fixed,
        types, op);
    ok = !mlirTypeIsNull(fty);
    if (ok) {
      struct ir_builder b = ir_before(op);
      b.loc = mlirOperationGetLocation(op);
      MlirValue r = ir_call_vararg_typed(
          &b, mlirFlatSymbolRefAttrGet(ctx, name), fty, n, args);
      if (has)
        mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
      mlirOperationDestroy(op);
    }
    free(args);
    free(types);
    coro_str_free(&full);
  }
  free(calls.v);
  return ok;
}
