/* symbols.c - the functions a lowering needs in the module: declarations,
 * the allocator pair of a coroutine, the entry function of the ABIs whose
 * coroutine is renamed (see abi.h). */
#include "ir/symbols.h"
#include "conversion/common/abi.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "dialect/handle_origin.h"
#include "dialect/value_types.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the function `op` (func.func or llvm.func) the lowering calls as
 * `sym` takes `args` and returns `result` (null: nothing); else an error at
 * `loc` (the coroutine) naming both signatures. */
static bool signature_ok(MlirOperation op, MlirAttribute sym, MlirType result,
                         intptr_t nargs, const MlirType *args,
                         MlirLocation loc) {
  MlirAttribute ft = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("function_type"));
  if (mlirAttributeIsNull(ft) || !mlirAttributeIsAType(ft))
    return true; /* the function's own verifier reports it */
  MlirType t = mlirTypeAttrGetValue(ft);
  MlirContext ctx = mlirTypeGetContext(t);
  bool ok;
  if (mlirTypeIsAFunction(t)) {
    intptr_t nres = mlirTypeIsNull(result) ? 0 : 1;
    ok = mlirFunctionTypeGetNumInputs(t) == nargs &&
         mlirFunctionTypeGetNumResults(t) == nres &&
         (!nres || mlirTypeEqual(mlirFunctionTypeGetResult(t, 0), result));
    for (intptr_t i = 0; ok && i < nargs; ++i)
      ok = mlirTypeEqual(mlirFunctionTypeGetInput(t, i), args[i]);
  } else {
    MlirType want = mlirTypeIsNull(result) ? mlirLLVMVoidTypeGet(ctx) : result;
    ok = mlirLLVMFunctionTypeGetNumInputs(t) == nargs &&
         mlirTypeEqual(mlirLLVMFunctionTypeGetReturnType(t), want);
    for (intptr_t i = 0; ok && i < nargs; ++i)
      ok = mlirTypeEqual(mlirLLVMFunctionTypeGetInput(t, i), args[i]);
  }
  if (ok)
    return true;
  MlirType expected =
      mlirFunctionTypeGet(ctx, nargs, args, mlirTypeIsNull(result) ? 0 : 1,
                          mlirTypeIsNull(result) ? NULL : &result);
  struct coro_str msg = {0}, s = {0}, e = {0}, g = {0};
  mlirAttributePrint(sym, coro_str_callback, &s);
  mlirTypePrint(expected, coro_str_callback, &e);
  mlirTypePrint(t, coro_str_callback, &g);
  coro_str_appendz(&msg, "the coroutine lowering calls '");
  coro_str_appendz(&msg, coro_str_cstr(&s));
  coro_str_appendz(&msg, "' as ");
  coro_str_appendz(&msg, coro_str_cstr(&e));
  coro_str_appendz(&msg, ", but the module's '");
  coro_str_appendz(&msg, coro_str_cstr(&s));
  coro_str_appendz(&msg, "' has type ");
  coro_str_appendz(&msg, coro_str_cstr(&g));
  mlirEmitError(loc, coro_str_cstr(&msg));
  coro_str_free(&msg);
  coro_str_free(&s);
  coro_str_free(&e);
  coro_str_free(&g);
  return false;
}

bool coro_declare_llvm_func(MlirOperation module, MlirAttribute sym,
                            MlirType result, intptr_t nargs,
                            const MlirType *args, MlirLocation loc) {
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(sym);
  MlirOperation op = coro_lookup_symbol(module, name);
  if (mlirOperationIsNull(op)) {
    struct coro_str z = {0};
    coro_str_append(&z, name.data, name.length);
    struct ir_func_spec spec = {.name = coro_str_cstr(&z),
                                .result = result,
                                .nargs = nargs,
                                .args = args};
    MlirOperation f = ir_llvm_func(module, &spec, true, loc);
    /* Declarations go first, as the other declarations of the module. */
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
    MlirOperation first = mlirBlockGetFirstOperation(body);
    if (!mlirOperationEqual(first, f))
      mlirOperationMoveBefore(f, first);
    coro_str_free(&z);
    return true;
  }
  if (coro_op_named(op, "llvm.func") || coro_op_named(op, "func.func"))
    return signature_ok(op, sym, result, nargs, args, loc);
  struct coro_str msg = {0}, printed = {0};
  mlirAttributePrint(sym, coro_str_callback, &printed);
  coro_str_appendz(&msg, "the coroutine lowering needs a function '");
  coro_str_appendz(&msg, coro_str_cstr(&printed));
  coro_str_appendz(&msg, "', but that symbol is something else");
  mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
  coro_str_free(&msg);
  coro_str_free(&printed);
  return false;
}

MlirAttribute coro_sym_attr(MlirOperation op, const char *attr) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(attr));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFlatSymbolRef(a))
    return (MlirAttribute){NULL};
  return a;
}

/* Whether the module's symbol `sym` is a func.func (else llvm.func, or
 * absent: then it is declared as an llvm.func). */
static bool symbol_is_func(MlirOperation module, MlirAttribute sym) {
  MlirOperation op =
      coro_lookup_symbol(module, mlirFlatSymbolRefAttrGetValue(sym));
  return !mlirOperationIsNull(op) && coro_op_named(op, "func.func");
}

MlirLogicalResult coro_allocator_get(MlirOperation module, MlirOperation func,
                                     const char *dflt_alloc,
                                     const char *dflt_free,
                                     struct coro_allocator *out) {
  MlirContext ctx = mlirOperationGetContext(func);
  out->alloc_fn = coro_sym_attr(func, CORO_ALLOC_FN_ATTR);
  out->free_fn = coro_sym_attr(func, CORO_FREE_FN_ATTR);
  MlirLocation loc = mlirOperationGetLocation(func);
  if (mlirAttributeIsNull(out->alloc_fn) != mlirAttributeIsNull(out->free_fn)) {
    mlirEmitError(loc, "coro.alloc_fn and coro.free_fn must be given "
                       "together (as flat symbol references)");
    return mlirLogicalResultFailure();
  }
  out->is_default = mlirAttributeIsNull(out->alloc_fn);
  if (out->is_default) {
    out->alloc_fn = mlirFlatSymbolRefAttrGet(
        ctx, mlirStringRefCreateFromCString(dflt_alloc));
    out->free_fn = mlirFlatSymbolRefAttrGet(
        ctx, mlirStringRefCreateFromCString(dflt_free));
  }
  out->alloc_is_func = symbol_is_func(module, out->alloc_fn);
  out->free_is_func = symbol_is_func(module, out->free_fn);
  MlirType ptr = ir_ptr_type(ctx), i64 = ir_int_type(ctx, 64);
  /* declared when absent; checked against (i64) -> ptr and (ptr) -> ()
   * when the module has it (a func.func or an llvm.func) */
  if (!coro_declare_llvm_func(module, out->alloc_fn, ptr, 1, &i64, loc) ||
      !coro_declare_llvm_func(module, out->free_fn, (MlirType){NULL}, 1, &ptr,
                              loc))
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}

MlirBlock coro_entry_func(MlirOperation module, const struct coro_str *name,
                          MlirType fty, const struct coro_str *visibility,
                          MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  MlirType *in = ir_xmalloc((size_t)(n + 1) * sizeof *in);
  MlirLocation *locs = ir_xmalloc((size_t)(n + 1) * sizeof *locs);
  for (intptr_t i = 0; i < n; ++i) {
    in[i] = mlirFunctionTypeGetInput(fty, i);
    locs[i] = loc;
  }
  MlirType ptr = ir_ptr_type(ctx);
  MlirNamedAttribute a[3];
  intptr_t na = 0;
  a[na++] = ir_named(
      ctx, "sym_name",
      mlirStringAttrGet(ctx, mlirStringRefCreate(name->data, name->len)));
  a[na++] = ir_named(ctx, "function_type",
                     mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n, in, 1, &ptr)));
  if (visibility->len)
    a[na++] =
        ir_named(ctx, "sym_visibility",
                 mlirStringAttrGet(ctx, mlirStringRefCreate(visibility->data,
                                                            visibility->len)));
  MlirOperationState s =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&s, na, a);
  MlirRegion body = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&s, 1, &body);
  MlirOperation f = mlirOperationCreate(&s);
  assert(!mlirOperationIsNull(f) && "func.func creation failed");
  MlirBlock entry = mlirBlockCreate(n, in, locs);
  mlirRegionAppendOwnedBlock(mlirOperationGetRegion(f, 0), entry);
  mlirBlockAppendOwnedOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), f);
  ir_symbol_added(f);
  free(in);
  free(locs);
  return entry;
}

void coro_move_signature_attrs(MlirOperation coro, MlirOperation entry) {
  static const char *const keys[] = {"arg_attrs", "res_attrs"};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; ++k) {
    MlirStringRef key = mlirStringRefCreateFromCString(keys[k]);
    MlirAttribute a = mlirOperationGetAttributeByName(coro, key);
    if (mlirAttributeIsNull(a))
      continue;
    mlirOperationSetAttributeByName(entry, key, a);
    mlirOperationRemoveAttributeByName(coro, key);
  }
}
