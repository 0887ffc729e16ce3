/* cb_compat.c - the text-attribute builder the retcon and async
 * conversions still use while they move to the IR-building layer (ir/).
 * Nothing new may use it; it goes once they no longer do. */
#include "conversion/common/cb_compat.h"
#include "dialect/support.h"
#include "ir/blocks.h"
#include "ir/func.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===--- builder -----------------------------------------------------------*/

struct cb cb_at_end(MlirBlock block, MlirLocation loc) {
  return ir_at_end(block, loc);
}

struct cb cb_before(MlirOperation op) { return ir_before(op); }

MlirType cb_type(MlirContext ctx, const char *text) {
  MlirType t = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
  assert(!mlirTypeIsNull(t) && "bad type text in a conversion");
  return t;
}

MlirType cb_ptr(MlirContext ctx) { return mlirLLVMPointerTypeGet(ctx, 0); }
MlirType cb_int(MlirContext ctx, unsigned w) {
  return mlirIntegerTypeGet(ctx, w);
}

MlirOperation cb_op(struct cb *b, const char *name, intptr_t nOperands,
                    const MlirValue *operands, intptr_t nResults,
                    const MlirType *results, const char *attrs,
                    intptr_t nSuccessors, MlirBlock *successors) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), b->loc);
  mlirOperationStateAddOperands(&st, nOperands, operands);
  mlirOperationStateAddResults(&st, nResults, results);
  if (nSuccessors)
    mlirOperationStateAddSuccessors(&st, nSuccessors, successors);
  MlirNamedAttribute named[16];
  if (attrs) {
    MlirAttribute dict =
        mlirAttributeParseGet(b->ctx, mlirStringRefCreateFromCString(attrs));
    assert(mlirAttributeIsADictionary(dict) && "bad attribute text");
    intptr_t n = mlirDictionaryAttrGetNumElements(dict);
    assert(n <= 16 && "too many attributes");
    for (intptr_t i = 0; i < n; ++i)
      named[i] = mlirDictionaryAttrGetElement(dict, i);
    mlirOperationStateAddAttributes(&st, n, named);
  }
  MlirOperation op = mlirOperationCreate(&st);
  assert(!mlirOperationIsNull(op) && "op creation failed");
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  return op;
}

MlirValue cb_val(struct cb *b, const char *name, intptr_t nOperands,
                 const MlirValue *operands, MlirType result,
                 const char *attrs) {
  bool has = !mlirTypeIsNull(result);
  MlirOperation op =
      cb_op(b, name, nOperands, operands, has ? 1 : 0, &result, attrs, 0, NULL);
  return has ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
}

MlirValue cb_const_int(struct cb *b, unsigned width, long long value) {
  char attrs[96];
  if (width == 1)
    snprintf(attrs, sizeof attrs, "{value = %s}", value ? "true" : "false");
  else
    snprintf(attrs, sizeof attrs, "{value = %lld : i%u}", value, width);
  return cb_val(b, "llvm.mlir.constant", 0, NULL, cb_int(b->ctx, width), attrs);
}

MlirValue cb_null(struct cb *b) {
  return cb_val(b, "llvm.mlir.zero", 0, NULL, cb_ptr(b->ctx), NULL);
}

MlirValue cb_intrinsic(struct cb *b, const char *name, intptr_t nOperands,
                       const MlirValue *operands, MlirType result) {
  char attrs[160];
  snprintf(attrs, sizeof attrs,
           "{intrin = \"%s\", fastmathFlags = #llvm.fastmath<none>, "
           "op_bundle_sizes = array<i32>, operandSegmentSizes = "
           "array<i32: %d, 0>}",
           name, (int)nOperands);
  return cb_val(b, "llvm.call_intrinsic", nOperands, operands, result, attrs);
}

void cb_br(struct cb *b, MlirBlock dest, intptr_t nArgs,
           const MlirValue *args) {
  cb_op(b, "llvm.br", nArgs, args, 0, NULL, NULL, 1, &dest);
}

void cb_cond_br(struct cb *b, MlirValue cond, MlirBlock t, MlirBlock f) {
  MlirBlock succ[2] = {t, f};
  cb_op(b, "llvm.cond_br", 1, &cond, 0, NULL,
        "{operandSegmentSizes = array<i32: 1, 0, 0>}", 2, succ);
}

void cb_switch01(struct cb *b, MlirValue v, MlirBlock dflt, MlirBlock case0,
                 MlirValue arg0, MlirBlock case1, MlirValue arg1) {
  MlirValue ops[3] = {v};
  int n = 1, n0 = 0, n1 = 0;
  if (!mlirValueIsNull(arg0))
    ops[n++] = arg0, n0 = 1;
  if (!mlirValueIsNull(arg1))
    ops[n++] = arg1, n1 = 1;
  char attrs[200];
  snprintf(attrs, sizeof attrs,
           "{case_operand_segments = array<i32: %d, %d>, case_values = "
           "dense<[0, 1]> : vector<2xi8>, operandSegmentSizes = "
           "array<i32: 1, 0, %d>}",
           n0, n1, n0 + n1);
  MlirBlock succ[3] = {dflt, case0, case1};
  cb_op(b, "llvm.switch", n, ops, 0, NULL, attrs, 3, succ);
}

MlirValue cb_field_path(struct cb *b, MlirValue base, MlirType structType,
                        int n, const int *indices) {
  struct coro_str type = coro_type_str(structType), attrs = {0};
  coro_str_appendz(&attrs, "{elem_type = ");
  coro_str_appendz(&attrs, coro_str_cstr(&type));
  coro_str_appendz(
      &attrs, ", noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 0");
  for (int i = 0; i < n; ++i) {
    char index[16];
    snprintf(index, sizeof index, ", %d", indices[i]);
    coro_str_appendz(&attrs, index);
  }
  coro_str_appendz(&attrs, ">}");
  MlirValue v = cb_val(b, "llvm.getelementptr", 1, &base, cb_ptr(b->ctx),
                       coro_str_cstr(&attrs));
  coro_str_free(&attrs);
  coro_str_free(&type);
  return v;
}

MlirValue cb_field(struct cb *b, MlirValue base, MlirType structType,
                   int index) {
  return cb_field_path(b, base, structType, 1, &index);
}

MlirValue cb_byte_gep(struct cb *b, MlirValue base, int offset) {
  char attrs[128];
  snprintf(attrs, sizeof attrs,
           "{elem_type = i8, noWrapFlags = 0 : i32, rawConstantIndices = "
           "array<i32: %d>}",
           offset);
  return cb_val(b, "llvm.getelementptr", 1, &base, cb_ptr(b->ctx), attrs);
}

bool coro_declare_func(MlirOperation module, MlirAttribute sym,
                       const char *type, MlirLocation loc) {
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(sym);
  struct coro_str printed = {0};
  mlirAttributePrint(sym, coro_str_callback, &printed);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = true, found = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !found && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute s = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(s) || !mlirAttributeIsAString(s) ||
        !mlirStringRefEqual(mlirStringAttrGetValue(s), name))
      continue;
    found = true;
    if (coro_op_named(op, "llvm.func") || coro_op_named(op, "func.func"))
      continue;
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "the coroutine lowering needs a function '");
    coro_str_appendz(&msg, coro_str_cstr(&printed));
    coro_str_appendz(&msg, "', but that symbol is something else");
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    ok = false;
  }
  if (!found) {
    struct coro_str text = {0};
    coro_str_appendz(&text, "llvm.func ");
    coro_str_appendz(&text, coro_str_cstr(&printed));
    coro_str_appendz(&text, type);
    MlirOperation decl = mlirOperationCreateParse(
        mlirLocationGetContext(loc), mlirStringRefCreate(text.data, text.len),
        mlirStringRefCreateFromCString("coro-lowering"));
    coro_str_free(&text);
    assert(!mlirOperationIsNull(decl) && "bad declaration text");
    mlirBlockInsertOwnedOperation(body, 0, decl);
  }
  coro_str_free(&printed);
  return ok;
}

void cb_store(struct cb *b, MlirValue v, MlirValue ptr, unsigned align) {
  MlirValue ops[2] = {v, ptr};
  char attrs[64];
  snprintf(attrs, sizeof attrs, "{alignment = %u : i64, ordering = 0 : i64}",
           align);
  cb_op(b, "llvm.store", 2, ops, 0, NULL, attrs, 0, NULL);
}

MlirValue cb_load(struct cb *b, MlirValue ptr, MlirType t, unsigned align) {
  char attrs[64];
  snprintf(attrs, sizeof attrs, "{alignment = %u : i64, ordering = 0 : i64}",
           align);
  return cb_val(b, "llvm.load", 1, &ptr, t, attrs);
}

MlirValue cb_call(struct cb *b, MlirAttribute sym, bool is_func, intptr_t n,
                  const MlirValue *args, MlirType result) {
  char attrs[256];
  snprintf(attrs, sizeof attrs,
           "{CConv = #llvm.cconv<ccc>, TailCallKind = "
           "#llvm.tailcallkind<none>, fastmathFlags = "
           "#llvm.fastmath<none>, op_bundle_sizes = array<i32>, "
           "operandSegmentSizes = array<i32: %d, 0>}",
           (int)n);
  bool has = !mlirTypeIsNull(result);
  MlirOperation op =
      cb_op(b, is_func ? "func.call" : "llvm.call", n, args, has ? 1 : 0,
            &result, is_func ? NULL : attrs, 0, NULL);
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("callee"),
                                  sym);
  return has ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
}

MlirBlock coro_block_after(MlirBlock after, intptr_t nArgs,
                           const MlirType *types, MlirLocation loc) {
  return ir_block_after(after, nArgs, types, loc);
}

void coro_ensure_func(MlirOperation module, const char *name,
                      const char *text) {
  if (!mlirOperationIsNull(
          coro_lookup_symbol(module, mlirStringRefCreateFromCString(name))))
    return;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation f = mlirOperationCreateParse(
      mlirOperationGetContext(module), mlirStringRefCreateFromCString(text),
      mlirStringRefCreateFromCString("coro-lowering"));
  assert(!mlirOperationIsNull(f) && "bad function text");
  mlirBlockAppendOwnedOperation(body, f);
}

MlirBlock coro_split_after(MlirOperation op) { return ir_split_after(op); }

MlirBlock coro_new_block(MlirRegion region, intptr_t nArgs,
                         const MlirType *types, MlirLocation loc) {
  return ir_new_block(region, nArgs, types, loc);
}

void coro_add_passthrough(MlirOperation func, const char *const *extra) {
  ir_add_passthrough(func, extra);
}
