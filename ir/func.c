/* func.c - LLVM-dialect functions built from typed attributes (see
 * func.h). */
#include "ir/func.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include "ir/support.h"
#include "ir/symbols.h"

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
  MlirAttribute *elems = ir_xmalloc((size_t)(n + more + 1) * sizeof *elems);
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
    MlirLocation *locs = ir_xmalloc((size_t)(spec->nargs + 1) * sizeof *locs);
    for (intptr_t i = 0; i < spec->nargs; ++i)
      locs[i] = loc;
    MlirBlock entry = mlirBlockCreate(spec->nargs, spec->args, locs);
    free(locs);
    mlirRegionAppendOwnedBlock(mlirOperationGetRegion(f, 0), entry);
  }
  ir_symbol_place(module, f);
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
  ir_symbol_place(module, g);
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

bool ir_passthrough_has(MlirOperation fn, const char *what) {
  MlirAttribute p = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("passthrough"));
  if (mlirAttributeIsNull(p) || !mlirAttributeIsAArray(p))
    return false;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(p); ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(p, i);
    if (mlirAttributeIsAString(e) &&
        coro_ref_eq(mlirStringAttrGetValue(e), what))
      return true;
  }
  return false;
}

void ir_passthrough_drop(MlirOperation fn, const char *what) {
  MlirStringRef key = mlirStringRefCreateFromCString("passthrough");
  MlirAttribute p = mlirOperationGetAttributeByName(fn, key);
  if (mlirAttributeIsNull(p) || !mlirAttributeIsAArray(p))
    return;
  intptr_t n = mlirArrayAttrGetNumElements(p), k = 0;
  MlirAttribute *keep = ir_xmalloc((size_t)(n + 1) * sizeof *keep);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(p, i);
    if (!(mlirAttributeIsAString(e) &&
          coro_ref_eq(mlirStringAttrGetValue(e), what)))
      keep[k++] = e;
  }
  if (k)
    mlirOperationSetAttributeByName(
        fn, key, mlirArrayAttrGet(mlirOperationGetContext(fn), k, keep));
  else
    mlirOperationRemoveAttributeByName(fn, key);
  free(keep);
}

/* Calls `visit(op, fn, user)` for every op at the top of every llvm.func
 * `fn` of `module` (not of modules nested in it, split by themselves), in
 * order; `op` may not be erased. */
void ir_each_func_op(MlirOperation module,
                     void (*visit)(MlirOperation, MlirOperation, void *),
                     void *user) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn)) {
    if (!coro_op_named(fn, "llvm.func"))
      continue;
    for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
         ir_op_walk_next(&w);)
      visit(w.op, fn, user);
  }
}

/* Pieces of at least this many ops, and at most this many pieces: a
 * module of a few functions stays one piece (no thread is woken), and a
 * big one is cut finely enough that pieces of unequal work even out. */
enum { PIECE_MIN_OPS = 128, PIECES_MAX = 64 };

static void pieces_init(struct ir_pieces *p, MlirOperation module, bool funcs) {
  *p = (struct ir_pieces){0};
  size_t cap = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (funcs && (!coro_op_named(op, "llvm.func") ||
                  mlirBlockIsNull(
                      mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)))))
      continue;
    p->op = ir_grow(p->op, &cap, p->nop, sizeof *p->op);
    p->op[p->nop++] = op;
  }
  ir_pieces_cut(p);
}

void ir_pieces_cut(struct ir_pieces *p) {
  p->n = (p->nop + PIECE_MIN_OPS - 1) / PIECE_MIN_OPS;
  if (p->n > PIECES_MAX)
    p->n = PIECES_MAX;
}

void ir_func_pieces_init(struct ir_pieces *p, MlirOperation module) {
  pieces_init(p, module, true);
}

void ir_top_pieces_init(struct ir_pieces *p, MlirOperation module) {
  pieces_init(p, module, false);
}

void ir_piece(const struct ir_pieces *p, size_t k, size_t *begin, size_t *end) {
  *begin = p->nop * k / p->n;
  *end = p->nop * (k + 1) / p->n;
}

void ir_each_piece_op(const struct ir_pieces *p, size_t k,
                      void (*visit)(MlirOperation, MlirOperation, void *),
                      void *user) {
  size_t begin, end;
  ir_piece(p, k, &begin, &end);
  for (size_t i = begin; i < end; ++i)
    for (struct ir_op_walk w =
             ir_op_walk_start(mlirOperationGetRegion(p->op[i], 0));
         ir_op_walk_next(&w);)
      visit(w.op, p->op[i], user);
}

/*===--- calls, callees and returns -----------------------------------------*/

MlirAttribute ir_symbol_addressed(MlirValue v) {
  if (!mlirValueIsAOpResult(v) ||
      !coro_op_named(mlirOpResultGetOwner(v), "llvm.mlir.addressof"))
    return (MlirAttribute){NULL};
  MlirAttribute a = mlirOperationGetAttributeByName(
      mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("global_name"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a)
             ? a
             : (MlirAttribute){NULL};
}

MlirValue ir_call_through(struct ir_builder *b, MlirValue fn, intptr_t n,
                          const MlirValue *args, MlirType result) {
  MlirAttribute sym = ir_symbol_addressed(fn);
  return mlirAttributeIsNull(sym)
             ? ir_call_indirect(b, fn, 0, 0, n, args, result)
             : ir_call(b, sym, false, n, args, result);
}

MlirType ir_func_type(MlirOperation fn) {
  return mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("function_type")));
}

MlirOperation ir_llvm_func_named(MlirSymbolTable table, MlirAttribute sym) {
  if (mlirAttributeIsNull(sym) || !mlirAttributeIsAFlatSymbolRef(sym))
    return (MlirOperation){NULL};
  MlirOperation fn =
      mlirSymbolTableLookup(table, mlirFlatSymbolRefAttrGetValue(sym));
  return !mlirOperationIsNull(fn) && coro_op_named(fn, "llvm.func")
             ? fn
             : (MlirOperation){NULL};
}

MlirOperation ir_llvm_func_of(MlirSymbolTable table, MlirValue v) {
  return ir_llvm_func_named(table, ir_symbol_addressed(v));
}

bool ir_type_is_void(MlirType t) {
  return mlirTypeEqual(t, mlirLLVMVoidTypeGet(mlirTypeGetContext(t)));
}

MlirOperation ir_insert_of(MlirValue v, int64_t k, MlirValue *root) {
  MlirOperation found = {NULL};
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!coro_op_named(def, "llvm.insertvalue"))
      break;
    MlirAttribute pos = mlirOperationGetAttributeByName(
        def, mlirStringRefCreateFromCString("position"));
    if (mlirOperationIsNull(found) && !mlirAttributeIsNull(pos) &&
        mlirAttributeIsADenseI64Array(pos) &&
        mlirDenseArrayGetNumElements(pos) == 1 &&
        mlirDenseI64ArrayGetElement(pos, 0) == k) {
      found = def;
      if (!root)
        break;
    }
    v = mlirOperationGetOperand(def, 0);
  }
  if (root)
    *root = v;
  return found;
}

/* Field `k` of the struct `v` at `b`: the value inserted there when `v` is
 * built by llvm.insertvalue (poison when the chain starts from poison
 * without setting it), else an extractvalue. */
static MlirValue field_of(struct ir_builder *b, MlirValue v, int k,
                          MlirType t) {
  MlirValue root;
  MlirOperation ins = ir_insert_of(v, k, &root);
  if (!mlirOperationIsNull(ins))
    return mlirOperationGetOperand(ins, 1);
  if (mlirValueIsAOpResult(root) &&
      coro_op_named(mlirOpResultGetOwner(root), "llvm.mlir.poison"))
    return ir_val(b, "llvm.mlir.poison", 0, NULL, t);
  return ir_extractvalue(b, v, k, t);
}

/* Erases `v`'s defining insertvalue chain (and its poison) as far as
 * nothing else uses it. */
static void erase_dead_chain(MlirValue v) {
  while (mlirValueIsAOpResult(v) &&
         mlirOpOperandIsNull(mlirValueGetFirstUse(v))) {
    MlirOperation def = mlirOpResultGetOwner(v);
    bool insert = coro_op_named(def, "llvm.insertvalue");
    if (!insert && !coro_op_named(def, "llvm.mlir.poison"))
      return;
    MlirValue next = insert ? mlirOperationGetOperand(def, 0) : (MlirValue){0};
    mlirOperationDestroy(def);
    if (!insert)
      return;
    v = next;
  }
}

void ir_unify_returns(MlirOperation fn) {
  MlirType rt = mlirLLVMFunctionTypeGetReturnType(ir_func_type(fn));
  if (!mlirTypeIsALLVMStructType(rt))
    return;
  MlirRegion region = mlirOperationGetRegion(fn, 0);
  struct ir_opvec rets = {0};
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    MlirOperation t = mlirBlockGetTerminator(b);
    if (!mlirOperationIsNull(t) && coro_op_named(t, "llvm.return") &&
        mlirOperationGetNumOperands(t) == 1)
      ir_opvec_push(&rets, t);
  }
  if (rets.n >= 2) {
    intptr_t n = mlirLLVMStructTypeGetNumElementTypes(rt);
    MlirType *fields = ir_xmalloc((size_t)n * sizeof *fields);
    MlirValue *vals = ir_xmalloc((size_t)n * sizeof *vals);
    for (intptr_t k = 0; k < n; ++k)
      fields[k] = mlirLLVMStructTypeGetElementType(rt, k);
    MlirLocation loc = mlirOperationGetLocation(fn);
    MlirBlock ret = ir_new_block(region, n, fields, loc);
    struct ir_builder r = ir_at_end(ret, loc);
    MlirValue agg = ir_val(&r, "llvm.mlir.poison", 0, NULL, rt);
    for (intptr_t k = 0; k < n; ++k)
      agg = ir_insertvalue(&r, agg, mlirBlockGetArgument(ret, k), (int)k);
    ir_return(&r, agg);
    for (size_t i = 0; i < rets.n; ++i) {
      struct ir_builder b = ir_before(rets.v[i]);
      MlirValue v = mlirOperationGetOperand(rets.v[i], 0);
      for (intptr_t k = 0; k < n; ++k)
        vals[k] = field_of(&b, v, (int)k, fields[k]);
      ir_br(&b, ret, n, vals);
      mlirOperationDestroy(rets.v[i]);
      erase_dead_chain(v);
    }
    free(fields);
    free(vals);
  }
  free(rets.v);
}

MlirAttribute ir_callee_attr(MlirOperation op) {
  MlirAttribute c = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  return !mlirAttributeIsNull(c) && mlirAttributeIsAFlatSymbolRef(c)
             ? c
             : (MlirAttribute){NULL};
}

MlirStringRef ir_callee(MlirOperation op) {
  MlirStringRef none = {"", 0};
  if (!coro_op_named(op, "llvm.call"))
    return none;
  MlirAttribute c = ir_callee_attr(op);
  return mlirAttributeIsNull(c) ? none : mlirFlatSymbolRefAttrGetValue(c);
}

bool ir_is_lifetime_marker(MlirOperation op) {
  return coro_op_named(op, "llvm.intr.lifetime.start") ||
         coro_op_named(op, "llvm.intr.lifetime.end");
}

void ir_erase_lifetime_markers(MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u);
    if (ir_is_lifetime_marker(user))
      mlirOperationDestroy(user);
  }
}

bool ir_is_mem_intrinsic(MlirOperation op) {
  return coro_op_named(op, "llvm.intr.memcpy") ||
         coro_op_named(op, "llvm.intr.memmove") ||
         coro_op_named(op, "llvm.intr.memset");
}

bool ir_is_memory_access(MlirOperation user, intptr_t operand) {
  return coro_op_named(user, "llvm.load") ||
         (coro_op_named(user, "llvm.store") && operand == 1) ||
         ir_is_lifetime_marker(user) || ir_is_mem_intrinsic(user);
}

/* The attribute `key` in dictionary `i` of the arg_attrs of `op` (a
 * function's or a call's), or null. */
static MlirAttribute arg_attr(MlirOperation op, intptr_t i, const char *key) {
  MlirAttribute all = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("arg_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) || i < 0 ||
      i >= mlirArrayAttrGetNumElements(all))
    return (MlirAttribute){NULL};
  MlirAttribute d = mlirArrayAttrGetElement(all, i);
  return mlirAttributeIsADictionary(d)
             ? mlirDictionaryAttrGetElementByName(
                   d, mlirStringRefCreateFromCString(key))
             : (MlirAttribute){NULL};
}

static bool arg_attr_has(MlirOperation op, intptr_t i, const char *key) {
  return !mlirAttributeIsNull(arg_attr(op, i, key));
}

bool ir_arg_nocapture(MlirOperation func, intptr_t i) {
  return arg_attr_has(func, i, "llvm.nocapture");
}

bool ir_call_operand_nocapture(MlirOperation call, intptr_t at,
                               MlirSymbolTable table) {
  /* a direct call's arguments are its first operands (an invoke's
   * destinations' follow them), one arg_attrs entry each */
  MlirAttribute callee = ir_callee_attr(call);
  if (mlirAttributeIsNull(callee) || (!coro_op_named(call, "llvm.call") &&
                                      !coro_op_named(call, "llvm.invoke")))
    return false;
  if (arg_attr_has(call, at, "llvm.nocapture") ||
      arg_attr_has(call, at, "llvm.byval"))
    return true;
  if (mlirSymbolTableIsNull(table))
    return false;
  MlirOperation fn = ir_llvm_func_named(table, callee);
  return !mlirOperationIsNull(fn) &&
         (ir_arg_nocapture(fn, at) || arg_attr_has(fn, at, "llvm.byval"));
}

MlirType ir_arg_byval_type(MlirOperation func, intptr_t i, unsigned *align) {
  MlirAttribute t = arg_attr(func, i, "llvm.byval");
  if (mlirAttributeIsNull(t) || !mlirAttributeIsAType(t))
    return (MlirType){NULL};
  MlirAttribute al = arg_attr(func, i, "llvm.align");
  if (align)
    *align = !mlirAttributeIsNull(al) && mlirAttributeIsAInteger(al)
                 ? (unsigned)mlirIntegerAttrGetValueInt(al)
                 : 0;
  return mlirTypeAttrGetValue(t);
}
