/* builder.c - named builders over the MLIR C API (see builder.h). Every
 * attribute is built typed; none is parsed from text. */
#include "ir/builder.h"
#include "ir/cfg.h"
#include "ir/func.h"
#include "ir/op_cache.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

struct ir_builder ir_at_end(MlirBlock block, MlirLocation loc) {
  struct ir_builder b = {mlirLocationGetContext(loc), loc, block, {NULL}};
  return b;
}

struct ir_builder ir_before(MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  struct ir_builder b = {mlirLocationGetContext(loc), loc,
                         mlirOperationGetBlock(op), op};
  return b;
}

void ir_insert(struct ir_builder *b, MlirOperation op) {
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
}

MlirLocation ir_generated_loc(MlirLocation from, const char *what) {
  return mlirLocationNameGet(mlirLocationGetContext(from),
                             mlirStringRefCreateFromCString(what), from);
}

MlirNamedAttribute ir_named(MlirContext ctx, const char *name,
                            MlirAttribute attr) {
  return mlirNamedAttributeGet(ir_op_cache_identifier(ctx, name), attr);
}

/* mlirIntegerAttrGet(t, v), kept by the op cache (ir_op_cache_memo). */
static MlirAttribute int_attr(MlirType t, int64_t v) {
  struct ir_op_cache_memo *m =
      ir_op_cache_memo(mlirTypeGetContext(t), IR_MEMO_INT_ATTR,
                       (uint64_t)(uintptr_t)t.ptr, (uint64_t)v);
  if (m && m->ptr)
    return (MlirAttribute){m->ptr};
  MlirAttribute a = mlirIntegerAttrGet(t, v);
  if (m)
    m->ptr = a.ptr;
  return a;
}

/* mlirTypeAttrGet(t), kept by the op cache. */
static MlirAttribute type_attr(MlirType t) {
  struct ir_op_cache_memo *m = ir_op_cache_memo(
      mlirTypeGetContext(t), IR_MEMO_TYPE_ATTR, (uint64_t)(uintptr_t)t.ptr, 0);
  if (m && m->ptr)
    return (MlirAttribute){m->ptr};
  MlirAttribute a = mlirTypeAttrGet(t);
  if (m)
    m->ptr = a.ptr;
  return a;
}

MlirAttribute ir_i64_attr(MlirContext ctx, int64_t v) {
  return int_attr(mlirIntegerTypeGet(ctx, 64), v);
}

MlirAttribute ir_i32_attr(MlirContext ctx, int32_t v) {
  return int_attr(mlirIntegerTypeGet(ctx, 32), v);
}

MlirAttribute ir_i32_array(MlirContext ctx, intptr_t n, const int32_t *v) {
  /* one element: a GEP's offset, kept by the op cache */
  struct ir_op_cache_memo *m =
      n == 1 ? ir_op_cache_memo(ctx, IR_MEMO_I32_ARRAY1, (uint32_t)v[0], 0)
             : NULL;
  if (m && m->ptr)
    return (MlirAttribute){m->ptr};
  MlirAttribute a = mlirDenseI32ArrayGet(ctx, n, v);
  if (m)
    m->ptr = a.ptr;
  return a;
}

MlirAttribute ir_sym_ref(MlirContext ctx, const char *name) {
  return mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(name));
}

MlirNamedAttribute ir_segments(MlirContext ctx, intptr_t n,
                               const int32_t *sizes) {
  return ir_named(ctx, "operandSegmentSizes", ir_i32_array(ctx, n, sizes));
}

MlirOperation ir_op(struct ir_builder *b, const char *name, intptr_t nOperands,
                    const MlirValue *operands, intptr_t nResults,
                    const MlirType *results, intptr_t nAttrs,
                    const MlirNamedAttribute *attrs, intptr_t nSuccessors,
                    MlirBlock *successors) {
  MlirOperation op =
      ir_op_cache_make(name, nOperands, operands, nResults, results, nAttrs,
                       attrs, nSuccessors, successors, b->loc);
  if (!mlirOperationIsNull(op)) {
    ir_insert(b, op);
    return op;
  }
  op = ir_op_build(mlirStringRefCreateFromCString(name), nOperands, operands,
                   nResults, results, nAttrs, attrs, nSuccessors, successors,
                   b->loc);
  assert(!mlirOperationIsNull(op) && "op creation failed");
  ir_insert(b, op);
  return op;
}

/* One op with at most one result and the given attributes. */
static MlirValue val_attrs(struct ir_builder *b, const char *name, intptr_t n,
                           const MlirValue *operands, MlirType result,
                           intptr_t nAttrs, const MlirNamedAttribute *attrs) {
  bool has = !mlirTypeIsNull(result);
  MlirOperation op =
      ir_op(b, name, n, operands, has ? 1 : 0, &result, nAttrs, attrs, 0, NULL);
  return has ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
}

MlirValue ir_val(struct ir_builder *b, const char *name, intptr_t nOperands,
                 const MlirValue *operands, MlirType result) {
  return val_attrs(b, name, nOperands, operands, result, 0, NULL);
}

/*===--- constants and addresses -------------------------------------------*/

MlirValue ir_const_int(struct ir_builder *b, unsigned width, long long value) {
  MlirType t = ir_int_type(b->ctx, width);
  MlirAttribute v =
      width == 1 ? mlirBoolAttrGet(b->ctx, value != 0) : int_attr(t, value);
  MlirNamedAttribute a = ir_named(b->ctx, "value", v);
  return val_attrs(b, "llvm.mlir.constant", 0, NULL, t, 1, &a);
}

MlirValue ir_zero(struct ir_builder *b, MlirType t) {
  return ir_val(b, "llvm.mlir.zero", 0, NULL, t);
}

MlirValue ir_null(struct ir_builder *b) {
  return ir_zero(b, ir_ptr_type(b->ctx));
}

MlirValue ir_none_token(struct ir_builder *b) {
  return ir_val(b, "llvm.mlir.none", 0, NULL, ir_token_type(b->ctx));
}

MlirValue ir_addressof(struct ir_builder *b, const char *sym) {
  return ir_addressof_ref(b, mlirStringRefCreateFromCString(sym));
}

void ir_assume(struct ir_builder *b, MlirValue cond) {
  MlirNamedAttribute bundles =
      ir_named(b->ctx, "op_bundle_sizes", ir_i32_array(b->ctx, 0, NULL));
  ir_op(b, "llvm.intr.assume", 1, &cond, 0, NULL, 1, &bundles, 0, NULL);
}

MlirValue ir_addressof_ref(struct ir_builder *b, MlirStringRef sym) {
  MlirNamedAttribute a =
      ir_named(b->ctx, "global_name", mlirFlatSymbolRefAttrGet(b->ctx, sym));
  return val_attrs(b, "llvm.mlir.addressof", 0, NULL, ir_ptr_type(b->ctx), 1,
                   &a);
}

/*===--- arithmetic ---------------------------------------------------------*/

MlirValue ir_icmp(struct ir_builder *b, enum ir_icmp pred, MlirValue a,
                  MlirValue c) {
  MlirValue ops[2] = {a, c};
  MlirNamedAttribute p =
      ir_named(b->ctx, "predicate", ir_i64_attr(b->ctx, pred));
  return val_attrs(b, "llvm.icmp", 2, ops, ir_int_type(b->ctx, 1), 1, &p);
}

MlirValue ir_binop(struct ir_builder *b, const char *op, MlirValue a,
                   MlirValue c) {
  char name[32] = "llvm.";
  size_t i = 5;
  for (; *op && i < sizeof name - 1; ++op)
    name[i++] = *op;
  name[i] = 0;
  MlirValue ops[2] = {a, c};
  return ir_val(b, name, 2, ops, mlirValueGetType(a));
}

MlirValue ir_ptrtoint(struct ir_builder *b, MlirValue p, unsigned width) {
  return ir_val(b, "llvm.ptrtoint", 1, &p, ir_int_type(b->ctx, width));
}

/*===--- memory -------------------------------------------------------------*/

MlirValue ir_alloca(struct ir_builder *b, MlirValue count, MlirType elem,
                    unsigned align) {
  MlirNamedAttribute a[2] = {
      ir_named(b->ctx, "alignment", ir_i64_attr(b->ctx, align)),
      ir_named(b->ctx, "elem_type", type_attr(elem))};
  return val_attrs(b, "llvm.alloca", 1, &count, ir_ptr_type(b->ctx), 2, a);
}

MlirValue ir_load(struct ir_builder *b, MlirValue ptr, MlirType t,
                  unsigned align) {
  MlirNamedAttribute a =
      ir_named(b->ctx, "alignment", ir_i64_attr(b->ctx, align));
  return val_attrs(b, "llvm.load", 1, &ptr, t, align ? 1 : 0, &a);
}

MlirOperation ir_store(struct ir_builder *b, MlirValue v, MlirValue ptr,
                       unsigned align) {
  MlirValue ops[2] = {v, ptr};
  MlirNamedAttribute a =
      ir_named(b->ctx, "alignment", ir_i64_attr(b->ctx, align));
  return ir_op(b, "llvm.store", 2, ops, 0, NULL, align ? 1 : 0, &a, 0, NULL);
}

/* A GEP with constant indices `idx` over `elem`. */
static MlirValue gep(struct ir_builder *b, MlirValue base, MlirType elem,
                     intptr_t n, const int32_t *idx) {
  MlirNamedAttribute a[3] = {
      ir_named(b->ctx, "elem_type", type_attr(elem)),
      ir_named(b->ctx, "rawConstantIndices", ir_i32_array(b->ctx, n, idx)),
      ir_named(b->ctx, "noWrapFlags", ir_i32_attr(b->ctx, 0))};
  return val_attrs(b, "llvm.getelementptr", 1, &base, ir_ptr_type(b->ctx), 3,
                   a);
}

MlirValue ir_gep_path(struct ir_builder *b, MlirValue base, MlirType structType,
                      int n, const int *indices) {
  int32_t idx[17] = {0};
  assert(n < 17 && "GEP path too deep");
  for (int i = 0; i < n; ++i)
    idx[i + 1] = indices[i];
  return gep(b, base, structType, n + 1, idx);
}

MlirValue ir_gep_field(struct ir_builder *b, MlirValue base,
                       MlirType structType, int index) {
  return ir_gep_path(b, base, structType, 1, &index);
}

MlirValue ir_gep_bytes(struct ir_builder *b, MlirValue base, int offset) {
  int32_t idx = offset;
  return gep(b, base, ir_int_type(b->ctx, 8), 1, &idx);
}

MlirValue ir_gep_index(struct ir_builder *b, MlirValue base, MlirType elem,
                       MlirValue i) {
  int32_t dynamic = INT32_MIN; /* LLVM::GEPOp::kDynamicIndex */
  MlirValue ops[2] = {base, i};
  MlirNamedAttribute a[3] = {
      ir_named(b->ctx, "elem_type", type_attr(elem)),
      ir_named(b->ctx, "rawConstantIndices", ir_i32_array(b->ctx, 1, &dynamic)),
      ir_named(b->ctx, "noWrapFlags", ir_i32_attr(b->ctx, 0))};
  return val_attrs(b, "llvm.getelementptr", 2, ops, ir_ptr_type(b->ctx), 3, a);
}

MlirValue ir_extractvalue(struct ir_builder *b, MlirValue agg, int pos,
                          MlirType t) {
  int64_t p = pos;
  MlirNamedAttribute a =
      ir_named(b->ctx, "position", mlirDenseI64ArrayGet(b->ctx, 1, &p));
  return val_attrs(b, "llvm.extractvalue", 1, &agg, t, 1, &a);
}

MlirValue ir_cmpxchg(struct ir_builder *b, MlirValue p, MlirValue expected,
                     MlirValue desired) {
  MlirType t = mlirValueGetType(expected);
  MlirType fields[2] = {t, mlirIntegerTypeGet(b->ctx, 1)};
  MlirType result = mlirLLVMStructTypeLiteralGet(b->ctx, 2, fields, false);
  /* LLVM's AtomicOrdering: 4 acquire, 6 acq_rel */
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirNamedAttribute a[2] = {
      ir_named(b->ctx, "success_ordering", mlirIntegerAttrGet(i64, 6)),
      ir_named(b->ctx, "failure_ordering", mlirIntegerAttrGet(i64, 4))};
  MlirValue ops[3] = {p, expected, desired};
  return val_attrs(b, "llvm.cmpxchg", 3, ops, result, 2, a);
}

MlirValue ir_insertvalue(struct ir_builder *b, MlirValue agg, MlirValue v,
                         int pos) {
  int64_t p = pos;
  MlirValue ops[2] = {agg, v};
  MlirNamedAttribute a =
      ir_named(b->ctx, "position", mlirDenseI64ArrayGet(b->ctx, 1, &p));
  return val_attrs(b, "llvm.insertvalue", 2, ops, mlirValueGetType(agg), 1, &a);
}

/*===--- calls --------------------------------------------------------------*/

/* The attributes every llvm.call has: operand segments (call operands, no
 * bundle operands) and no operand bundles. */
static intptr_t call_attrs(MlirContext ctx, intptr_t n, MlirNamedAttribute *a) {
  int32_t seg[2] = {(int32_t)n, 0};
  a[0] = ir_segments(ctx, 2, seg);
  a[1] = ir_named(ctx, "op_bundle_sizes", ir_i32_array(ctx, 0, NULL));
  return 2;
}

/* An llvm.call whose calling convention is the attribute `cc` (none: C). */
static MlirValue llvm_call_with(struct ir_builder *b, MlirAttribute sym,
                                MlirAttribute cc, int tail, MlirType var_type,
                                intptr_t n, const MlirValue *args,
                                MlirType result) {
  MlirNamedAttribute a[6];
  intptr_t na = call_attrs(b->ctx, n, a);
  if (!mlirAttributeIsNull(sym))
    a[na++] = ir_named(b->ctx, "callee", sym);
  if (!mlirAttributeIsNull(cc))
    a[na++] = ir_named(b->ctx, "CConv", cc);
  if (tail) {
    /* #llvm.tailcallkind<...> has no C getter: parsed (MLIR uniques it),
     * as DESIGN.md allows for such attributes. */
    MlirAttribute kind = mlirAttributeParseGet(
        b->ctx, mlirStringRefCreateFromCString(
                    tail == 1   ? "#llvm.tailcallkind<tail>"
                    : tail == 2 ? "#llvm.tailcallkind<musttail>"
                                : "#llvm.tailcallkind<notail>"));
    a[na++] = ir_named(b->ctx, "TailCallKind", kind);
  }
  if (!mlirTypeIsNull(var_type))
    a[na++] = ir_named(b->ctx, "var_callee_type", mlirTypeAttrGet(var_type));
  return val_attrs(b, "llvm.call", n, args, result, na, a);
}

static MlirValue llvm_call(struct ir_builder *b, MlirAttribute sym, int cconv,
                           int tail, MlirType var_type, intptr_t n,
                           const MlirValue *args, MlirType result) {
  MlirAttribute cc =
      cconv ? mlirLLVMCConvAttrGet(b->ctx, cconv) : (MlirAttribute){NULL};
  return llvm_call_with(b, sym, cc, tail, var_type, n, args, result);
}

MlirValue ir_call_func(struct ir_builder *b, MlirOperation fn, int tail,
                       intptr_t n, const MlirValue *args) {
  MlirType rt = mlirLLVMFunctionTypeGetReturnType(ir_func_type(fn));
  MlirAttribute sym = mlirFlatSymbolRefAttrGet(
      b->ctx, mlirStringAttrGetValue(mlirOperationGetAttributeByName(
                  fn, mlirStringRefCreateFromCString("sym_name"))));
  MlirAttribute cc = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("CConv"));
  bool none = mlirTypeEqual(rt, mlirLLVMVoidTypeGet(b->ctx));
  return llvm_call_with(b, sym, cc, tail, (MlirType){NULL}, n, args,
                        none ? (MlirType){NULL} : rt);
}

MlirValue ir_call(struct ir_builder *b, MlirAttribute sym, bool is_func,
                  intptr_t n, const MlirValue *args, MlirType result) {
  if (!is_func)
    return llvm_call(b, sym, 0, 0, (MlirType){NULL}, n, args, result);
  MlirNamedAttribute a = ir_named(b->ctx, "callee", sym);
  return val_attrs(b, "func.call", n, args, result, 1, &a);
}

MlirOperation ir_invoke(struct ir_builder *b, MlirAttribute sym, intptr_t n,
                        const MlirValue *args, MlirType result,
                        MlirBlock normal, intptr_t nnormal,
                        const MlirValue *normal_ops, MlirBlock unwind,
                        intptr_t nunwind, const MlirValue *unwind_ops) {
  intptr_t total = n + nnormal + nunwind;
  MlirValue *ops = ir_xmalloc((size_t)(total + 1) * sizeof *ops);
  for (intptr_t i = 0; i < n; ++i)
    ops[i] = args[i];
  for (intptr_t i = 0; i < nnormal; ++i)
    ops[n + i] = normal_ops[i];
  for (intptr_t i = 0; i < nunwind; ++i)
    ops[n + nnormal + i] = unwind_ops[i];
  int32_t seg[4] = {(int32_t)n, (int32_t)nnormal, (int32_t)nunwind, 0};
  MlirNamedAttribute a[3] = {
      ir_segments(b->ctx, 4, seg),
      ir_named(b->ctx, "op_bundle_sizes", ir_i32_array(b->ctx, 0, NULL)),
      ir_named(b->ctx, "callee", sym)};
  MlirBlock succ[2] = {normal, unwind};
  /* no callee attribute: an indirect invoke of args[0] */
  intptr_t na = mlirAttributeIsNull(sym) ? 2 : 3;
  MlirOperation op = ir_op(b, "llvm.invoke", total, ops,
                           !mlirTypeIsNull(result), &result, na, a, 2, succ);
  free(ops);
  return op;
}

MlirOperation ir_invoke_like(struct ir_builder *b, MlirOperation like,
                             MlirAttribute sym, intptr_t n,
                             const MlirValue *args, MlirType result) {
  intptr_t n0, c0, n1, c1;
  ir_successor_operands(like, 0, &n0, &c0);
  ir_successor_operands(like, 1, &n1, &c1);
  MlirValue *dest = ir_xmalloc((size_t)(c0 + c1 + 1) * sizeof *dest);
  for (intptr_t i = 0; i < c0 + c1; ++i)
    dest[i] = mlirOperationGetOperand(like, (i < c0 ? n0 : n1 - c0) + i);
  MlirOperation op =
      ir_invoke(b, sym, n, args, result, mlirOperationGetSuccessor(like, 0), c0,
                dest, mlirOperationGetSuccessor(like, 1), c1, dest + c0);
  free(dest);
  return op;
}

MlirOperation ir_call_to_invoke(MlirOperation call, MlirOperation like) {
  struct ir_builder b = ir_before(call);
  intptr_t n = mlirOperationGetNumOperands(call);
  MlirValue *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirOperationGetOperand(call, i);
  MlirType result = mlirOperationGetNumResults(call)
                        ? mlirValueGetType(mlirOperationGetResult(call, 0))
                        : (MlirType){NULL};
  MlirOperation inv =
      ir_invoke_like(&b, like, ir_callee_attr(call), n, args, result);
  MlirStringRef cc = mlirStringRefCreateFromCString("CConv");
  MlirAttribute conv = mlirOperationGetAttributeByName(call, cc);
  if (!mlirAttributeIsNull(conv))
    mlirOperationSetAttributeByName(inv, cc, conv);
  if (!mlirTypeIsNull(result))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, 0),
                                  mlirOperationGetResult(inv, 0));
  mlirOperationDestroy(call);
  free(args);
  return inv;
}

MlirValue ir_call_cc(struct ir_builder *b, MlirAttribute sym, int cconv,
                     int tail, intptr_t n, const MlirValue *args,
                     MlirType result) {
  return llvm_call(b, sym, cconv, tail, (MlirType){NULL}, n, args, result);
}

MlirValue ir_call_indirect(struct ir_builder *b, MlirValue fn, int cconv,
                           int tail, intptr_t n, const MlirValue *args,
                           MlirType result) {
  MlirValue *ops = ir_xmalloc((size_t)(n + 1) * sizeof *ops);
  ops[0] = fn;
  for (intptr_t i = 0; i < n; ++i)
    ops[i + 1] = args[i];
  MlirValue r = llvm_call(b, (MlirAttribute){NULL}, cconv, tail,
                          (MlirType){NULL}, n + 1, ops, result);
  free(ops);
  return r;
}

MlirValue ir_call_vararg(struct ir_builder *b, MlirAttribute sym, intptr_t n,
                         const MlirValue *args, MlirType result) {
  MlirType fty = ir_llvm_func_type(b->ctx, result, 0, NULL, true);
  return llvm_call(b, sym, 0, 0, fty, n, args, result);
}

MlirValue ir_call_vararg_typed(struct ir_builder *b, MlirAttribute sym,
                               MlirType fty, intptr_t n,
                               const MlirValue *args) {
  MlirType result = mlirLLVMFunctionTypeGetReturnType(fty);
  if (mlirTypeEqual(result, mlirLLVMVoidTypeGet(b->ctx)))
    result = (MlirType){NULL};
  return llvm_call(b, sym, 0, 0, fty, n, args, result);
}

MlirValue ir_intrinsic(struct ir_builder *b, const char *name, intptr_t n,
                       const MlirValue *args, MlirType result) {
  MlirNamedAttribute a[3];
  intptr_t na = call_attrs(b->ctx, n, a);
  a[na++] =
      ir_named(b->ctx, "intrin",
               mlirStringAttrGet(b->ctx, mlirStringRefCreateFromCString(name)));
  return val_attrs(b, "llvm.call_intrinsic", n, args, result, na, a);
}

/*===--- control flow -------------------------------------------------------*/

void ir_br(struct ir_builder *b, MlirBlock dest, intptr_t nArgs,
           const MlirValue *args) {
  ir_op(b, "llvm.br", nArgs, args, 0, NULL, 0, NULL, 1, &dest);
}

void ir_cond_br_args(struct ir_builder *b, MlirValue cond, MlirBlock t,
                     intptr_t nt, const MlirValue *targs, MlirBlock f,
                     intptr_t nf, const MlirValue *fargs) {
  MlirValue *ops = ir_xmalloc((size_t)(1 + nt + nf) * sizeof *ops);
  ops[0] = cond;
  for (intptr_t i = 0; i < nt; ++i)
    ops[1 + i] = targs[i];
  for (intptr_t i = 0; i < nf; ++i)
    ops[1 + nt + i] = fargs[i];
  int32_t seg[3] = {1, (int32_t)nt, (int32_t)nf};
  MlirNamedAttribute a = ir_segments(b->ctx, 3, seg);
  MlirBlock succ[2] = {t, f};
  ir_op(b, "llvm.cond_br", 1 + nt + nf, ops, 0, NULL, 1, &a, 2, succ);
  free(ops);
}

void ir_cond_br(struct ir_builder *b, MlirValue cond, MlirBlock t,
                MlirBlock f) {
  ir_cond_br_args(b, cond, t, 0, NULL, f, 0, NULL);
}

void ir_switch(struct ir_builder *b, MlirValue v, MlirBlock dflt, intptr_t n,
               const int64_t *values, MlirBlock *cases, const MlirValue *args) {
  MlirValue *ops = ir_xmalloc((size_t)(n + 1) * sizeof *ops);
  int32_t *segs = ir_xmalloc((size_t)(n + 1) * sizeof *segs);
  MlirBlock *succ = ir_xmalloc((size_t)(n + 1) * sizeof *succ);
  MlirAttribute *vals = ir_xmalloc((size_t)(n + 1) * sizeof *vals);
  MlirType t = mlirValueGetType(v);
  intptr_t nops = 0;
  ops[nops++] = v;
  succ[0] = dflt;
  for (intptr_t i = 0; i < n; ++i) {
    bool has = args && !mlirValueIsNull(args[i]);
    segs[i] = has ? 1 : 0;
    if (has)
      ops[nops++] = args[i];
    succ[i + 1] = cases[i];
    vals[i] = mlirIntegerAttrGet(t, values[i]);
  }
  int64_t shape = n;
  MlirType vt = mlirVectorTypeGet(1, &shape, t);
  int32_t seg[3] = {1, 0, (int32_t)(nops - 1)};
  MlirNamedAttribute a[3] = {
      ir_segments(b->ctx, 3, seg),
      ir_named(b->ctx, "case_operand_segments", ir_i32_array(b->ctx, n, segs)),
      ir_named(b->ctx, "case_values", mlirDenseElementsAttrGet(vt, n, vals))};
  ir_op(b, "llvm.switch", nops, ops, 0, NULL, 3, a, n + 1, succ);
  free(vals);
  free(succ);
  free(segs);
  free(ops);
}

void ir_return(struct ir_builder *b, MlirValue v) {
  ir_op(b, "llvm.return", mlirValueIsNull(v) ? 0 : 1, &v, 0, NULL, 0, NULL, 0,
        NULL);
}

void ir_unreachable(struct ir_builder *b) {
  ir_op(b, "llvm.unreachable", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
}

/*===--- casts between dialects ---------------------------------------------*/

MlirValue ir_cast(struct ir_builder *b, MlirValue v, MlirType t) {
  return ir_val(b, "builtin.unrealized_conversion_cast", 1, &v, t);
}
