/* driver.c - coro_abi_convert, the driver every coro-to-LLVM conversion
 * runs (see abi.h).
 *
 * Its order is fixed: collect (nothing is changed until every check
 * passed), rewrite handle types to !llvm.ptr, lower each coroutine's ops
 * through the ABI hooks, then the consumer ops. */
#include "conversion/common/abi.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "dialect/handle_origin.h"
#include "dialect/value_types.h"
#include "ir/func.h"
#include "ir/op_cache.h"
#include "ir/parallel.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct collect {
  const struct coro_abi *abi;
  MlirOperation module;
  struct ir_opvec coroutines; /* func.func of this ABI */
  struct ir_opvec consumers;  /* resume/destroy/done/promise/noop */
  MlirStringRef *origins; /* per consumer: its handle's ABI (empty: unknown) */
  size_t origins_cap;
  struct ir_opvec bridges;  /* calls and func.constants across the boundary */
  struct ir_ptrmap bridged; /* the same, as a set */
  struct ir_opvec elided;   /* func.calls marked coro.elided = true */
  bool ok;
  bool handles; /* some value has a !coro.handle type */
  /* the module's top-level ops, in pieces; what each piece holds */
  struct ir_pieces pieces;
  struct gathered *gathered;
  struct ir_pieces retyped; /* the top-level ops that mention a handle */
  MlirSymbolTable table;    /* the module's, read on the threads */
};

/* What one piece of a module's top-level ops holds, gathered on MLIR's
 * threads (reading only): the ops collect_wanted acts on and the calls
 * that cross the boundary (note_bridge), in walk order; the top-level ops
 * in which a value's type or a function's type mentions a handle (the
 * only ones retyping changes); and whether a value is a handle. */
struct gathered {
  const struct collect *c;
  struct ir_opvec ops;
  struct ir_opvec mention;
  struct ir_opvec bridges;
  bool handles;
  MlirOperation top; /* the top-level op being walked */
  bool top_mentions; /* it is in `mention` */
  /* types seen to mention no handle, most recent first (types are
   * uniqued: a module's ops have few of them, and most ops none of
   * coro's) */
  const void *plain[4];
  /* op names (ops of one name share it) and whether each is a coro.* or
   * func.* op, by the name's address */
  struct {
    const void *name;
    bool wanted;
  } names[64];
};

/* A task op with no handle operand (a group's). */
static bool is_group_op(MlirOperation op) {
  return coro_op_named(op, "coro.group_create") ||
         coro_op_named(op, "coro.group_destroy") ||
         coro_op_named(op, "coro.group_await");
}

/* coro.group_await outside coroutines blocks the thread: a call, as a
 * consumer is; in an async coroutine it is a suspension. */
static bool is_blocking_group_await(MlirOperation op) {
  return coro_op_named(op, "coro.group_await") &&
         !coro_coroutine_abi(coro_enclosing_func(op)).length;
}

static bool is_consumer(MlirOperation op) {
  return coro_op_named(op, "coro.resume") ||
         coro_op_named(op, "coro.destroy") || coro_op_named(op, "coro.done") ||
         coro_op_named(op, "coro.promise") || coro_op_named(op, "coro.noop") ||
         coro_op_named(op, "coro.failed") ||
         coro_op_named(op, "coro.group_add") ||
         coro_op_named(op, "coro.group_create") ||
         coro_op_named(op, "coro.group_destroy") || is_blocking_group_await(op);
}

static bool is_coroutine_side(MlirOperation op) {
  return coro_op_named(op, "coro.yield") || coro_op_named(op, "coro.await") ||
         coro_op_named(op, "coro.end") || coro_op_named(op, "coro.self") ||
         coro_op_named(op, "coro.begin") ||
         coro_op_named(op, "coro.group_await");
}

/* The coroutine a call's callee names in `module` (null when none). */
static MlirOperation lookup_func(MlirOperation module, MlirAttribute callee) {
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return (MlirOperation){NULL};
  return coro_lookup_symbol(module, mlirFlatSymbolRefAttrGetValue(callee));
}

/* Whether a handle owned by `abi` (empty: unknown) is another ABI's. */
static bool foreign(MlirStringRef abi, const struct coro_abi *mine) {
  return abi.length && !coro_ref_eq(abi, mine->name);
}

/* Whether `func` is a coroutine another conversion lowers: its body keeps
 * !coro.handle types until then. */
static bool foreign_coroutine(MlirOperation func, const struct coro_abi *abi) {
  return !mlirOperationIsNull(func) && coro_op_is_coroutine(func) &&
         foreign(coro_coroutine_abi(func), abi);
}

/* The symbol a func.call or func.constant names (null for other ops). */
static MlirAttribute referenced_sym(MlirOperation op) {
  const char *attr = coro_op_named(op, "func.call")       ? "callee"
                     : coro_op_named(op, "func.constant") ? "value"
                                                          : NULL;
  return attr ? mlirOperationGetAttributeByName(
                    op, mlirStringRefCreateFromCString(attr))
              : (MlirAttribute){NULL};
}

/* The function a func.call or func.constant names (null for other ops). */
static MlirOperation referenced_func(MlirOperation module, MlirOperation op) {
  return lookup_func(module, referenced_sym(op));
}

static void error_types(MlirOperation op, const char *what, MlirType got,
                        MlirType want) {
  struct coro_str msg = {0}, a = coro_type_str(got), b = coro_type_str(want);
  coro_str_appendz(&msg, what);
  coro_str_appendz(&msg, " ");
  coro_str_appendz(&msg, coro_str_cstr(&a));
  coro_str_appendz(&msg, " does not match the handle's value type ");
  coro_str_appendz(&msg, coro_str_cstr(&b));
  mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
  coro_str_free(&msg);
  coro_str_free(&a);
  coro_str_free(&b);
}

/* Checks that the value an op reads through a handle has the handle's
 * value type (the verifier's rule, repeated: a mismatch would read the
 * promise as the wrong type at run time). */
static bool check_value_type(MlirOperation op, const char *what) {
  if (mlirOperationGetNumResults(op) == 0)
    return true;
  MlirType h = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType got = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!coro_type_is_handle(h))
    return true;
  MlirType want = coro_handle_elem_type(h);
  if (mlirTypeEqual(got, want))
    return true;
  error_types(op, what, got, want);
  return false;
}

/* Whether `t` is !coro.handle or a function type that mentions one. */
static bool mentions_handle(MlirType t) {
  if (coro_type_is_handle(t))
    return true;
  if (!mlirTypeIsAFunction(t))
    return false;
  for (intptr_t i = 0, n = mlirFunctionTypeGetNumInputs(t); i < n; ++i)
    if (mentions_handle(mlirFunctionTypeGetInput(t, i)))
      return true;
  for (intptr_t i = 0, n = mlirFunctionTypeGetNumResults(t); i < n; ++i)
    if (mentions_handle(mlirFunctionTypeGetResult(t, i)))
      return true;
  return false;
}

/* Notes the type `t` of a value: whether it is a handle (g->handles) or
 * mentions one (g->top_mentions), `g->plain` first. */
static void note_type(struct gathered *g, MlirType t) {
  for (size_t i = 0; i < 4; ++i)
    if (g->plain[i] == t.ptr)
      return;
  if (coro_type_is_handle(t)) {
    g->handles = g->top_mentions = true;
    return;
  }
  if (mentions_handle(t)) {
    g->top_mentions = true;
    return;
  }
  memmove(&g->plain[1], &g->plain[0], 3 * sizeof g->plain[0]);
  g->plain[0] = t.ptr;
}

/* Notes the types of the values `op` defines (its results, the arguments
 * of the blocks of its regions) and, of a func.func, its type. */
static void note_types(struct gathered *g, MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    note_type(g, mlirValueGetType(mlirOperationGetResult(op, i)));
  for (intptr_t i = 0, n = mlirOperationGetNumRegions(op); i < n; ++i)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, i));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (intptr_t a = 0, na = mlirBlockGetNumArguments(b); a < na; ++a)
        note_type(g, mlirValueGetType(mlirBlockGetArgument(b, a)));
}

static void note_bridge(struct gathered *g, MlirOperation op);
static bool collect_acts(const struct coro_abi *abi, MlirOperation op);

static MlirWalkResult gather_op(MlirOperation op, void *user) {
  struct gathered *g = user;
  if (!(g->handles && g->top_mentions)) {
    bool was = g->top_mentions;
    note_types(g, op);
    if (!g->top_mentions && coro_op_named(op, "func.func")) {
      MlirAttribute ft = mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("function_type"));
      if (!mlirAttributeIsNull(ft) && mlirAttributeIsAType(ft) &&
          mentions_handle(mlirTypeAttrGetValue(ft)))
        g->top_mentions = true;
    }
    if (g->top_mentions && !was)
      ir_opvec_push(&g->mention, g->top);
  }
  /* what follows is about coro.* and func.* ops only */
  MlirIdentifier id = mlirOperationGetName(op);
  size_t slot = ((uintptr_t)id.ptr >> 4) % 64;
  if (g->names[slot].name != id.ptr) {
    MlirStringRef name = mlirIdentifierStr(id);
    g->names[slot].name = id.ptr;
    g->names[slot].wanted = coro_ref_starts_with(name, "coro.") ||
                            coro_ref_starts_with(name, "func.");
  }
  if (g->names[slot].wanted) {
    if (collect_acts(g->c->abi, op))
      ir_opvec_push(&g->ops, op);
    note_bridge(g, op);
  }
  return MlirWalkResultAdvance;
}

static void gather_piece(size_t k, void *user) {
  struct collect *c = user;
  struct gathered *g = &c->gathered[k];
  size_t begin, end;
  ir_piece(&c->pieces, k, &begin, &end);
  for (size_t i = begin; i < end; ++i) {
    g->top = c->pieces.op[i];
    g->top_mentions = false;
    mlirOperationWalk(g->top, gather_op, g, MlirWalkPreOrder);
  }
}

/* Whether `op` is a func.call marked coro.elided = true. */
static bool elided_call(MlirOperation op) {
  if (!coro_op_named(op, "func.call"))
    return false;
  MlirAttribute mark = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_ELIDED_ATTR));
  return !mlirAttributeIsNull(mark) && mlirAttributeIsABool(mark) &&
         mlirBoolAttrGetValue(mark);
}

/* Whether `op` is a coroutine-side op outside every coroutine (an
 * error). */
static bool side_op_outside(MlirOperation op) {
  return is_coroutine_side(op) &&
         !coro_coroutine_abi(coro_enclosing_func(op)).length;
}

/* Whether collect_wanted does anything with the coro.* or func.* op `op`
 * (read only, on MLIR's threads). */
static bool collect_acts(const struct coro_abi *abi, MlirOperation op) {
  if (coro_op_is_coroutine(op))
    return coro_ref_eq(coro_coroutine_abi(op), abi->name);
  return elided_call(op) || is_consumer(op) || side_op_outside(op);
}

/* Collects the coro.* or func.* op `op`, in walk order. */
static void collect_wanted(struct collect *c, MlirOperation op) {
  if (elided_call(op))
    ir_opvec_push(&c->elided, op);
  if (coro_op_is_coroutine(op)) {
    if (coro_ref_eq(coro_coroutine_abi(op), c->abi->name))
      ir_opvec_push(&c->coroutines, op);
  } else if (is_consumer(op)) {
    /* Every handle has the same header, so this conversion lowers every
     * consumer but those inside another ABI's coroutines on that ABI's
     * handles (whose types stay !coro.handle until that ABI lowers them). */
    MlirStringRef origin =
        coro_op_named(op, "coro.noop") || is_group_op(op)
            ? mlirStringRefCreate(NULL, 0)
            : coro_handle_abi(c->module, mlirOperationGetOperand(op, 0));
    if (!foreign(origin, c->abi) ||
        !foreign_coroutine(coro_enclosing_func(op), c->abi)) {
      ir_opvec_push(&c->consumers, op);
      if (c->origins_cap < c->consumers.cap) {
        c->origins_cap = c->consumers.cap;
        c->origins =
            ir_xrealloc(c->origins, c->origins_cap * sizeof *c->origins);
      }
      c->origins[c->consumers.n - 1] = origin;
      /* Handle types become !llvm.ptr before consumers are lowered; keep
       * the original for coro_lower_consumer (the control block layout a
       * resume value is stored into depends on T). */
      if (mlirOperationGetNumOperands(op) > 0)
        mlirOperationSetAttributeByName(
            op, mlirStringRefCreateFromCString(CORO_HANDLE_TYPE_ATTR),
            mlirTypeAttrGet(mlirValueGetType(mlirOperationGetOperand(op, 0))));
      if (coro_op_named(op, "coro.promise"))
        c->ok &= check_value_type(op, "coro.promise result type");
    }
  } else if (side_op_outside(op)) {
    struct coro_str msg = {0};
    MlirStringRef name = coro_op_name(op);
    coro_str_append(&msg, name.data, name.length);
    coro_str_appendz(&msg, " outside a coroutine (a func.func with coro.abi)");
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    c->ok = false;
  }
}

/* The coroutine-side ops of one coroutine, in walk order. */
static MlirWalkResult collect_inner(MlirOperation op, void *user) {
  if (is_coroutine_side(op))
    ir_opvec_push(user, op);
  return MlirWalkResultAdvance;
}

static MlirType handles_to_ptr(MlirType t) {
  if (coro_type_is_handle(t))
    return ir_ptr_type(mlirTypeGetContext(t));
  if (mlirTypeIsAFunction(t)) {
    intptr_t ni = mlirFunctionTypeGetNumInputs(t);
    intptr_t nr = mlirFunctionTypeGetNumResults(t);
    MlirType *in = ir_xmalloc((size_t)(ni + nr + 1) * sizeof *in);
    bool changed = false;
    for (intptr_t i = 0; i < ni + nr; ++i) {
      MlirType was = i < ni ? mlirFunctionTypeGetInput(t, i)
                            : mlirFunctionTypeGetResult(t, i - ni);
      in[i] = handles_to_ptr(was);
      changed |= !mlirTypeEqual(in[i], was);
    }
    /* most functions have no handle: their type stays as it is, without
     * a trip through the context's uniquer */
    MlirType f = changed ? mlirFunctionTypeGet(mlirTypeGetContext(t), ni, in,
                                               nr, in + ni)
                         : t;
    free(in);
    return f;
  }
  return t;
}

/* Whether `op` lies inside another ABI's coroutine. */
static bool inside_foreign(MlirOperation op, const struct coro_abi *abi) {
  for (MlirOperation f = coro_enclosing_func(op); !mlirOperationIsNull(f);
       f = coro_enclosing_func(f))
    if (foreign_coroutine(f, abi))
      return true;
  return false;
}

/* Whether the value types of `op` (operands and results) mention a
 * handle. */
static bool op_mentions_handle(MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; ++i)
    if (mentions_handle(mlirValueGetType(mlirOperationGetOperand(op, i))))
      return true;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i)
    if (mentions_handle(mlirValueGetType(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

/* Notes the call or func.constant `op` in g->bridges when it crosses the
 * boundary: inside another ABI's coroutine, when it names a function that
 * is retyped (anything but such a coroutine); elsewhere, when it names
 * such a coroutine. One whose types mention no handle is left out: its
 * bridging would change nothing (bridge_results, bridge_operands), nor
 * would retyping it. On MLIR's threads: it only reads. */
static void note_bridge(struct gathered *g, MlirOperation op) {
  MlirAttribute sym = referenced_sym(op);
  if (mlirAttributeIsNull(sym) || !mlirAttributeIsAFlatSymbolRef(sym) ||
      mlirSymbolTableIsNull(g->c->table) || !op_mentions_handle(op))
    return;
  MlirOperation callee =
      mlirSymbolTableLookup(g->c->table, mlirFlatSymbolRefAttrGetValue(sym));
  if (mlirOperationIsNull(callee))
    return;
  bool inside = coro_op_named(g->top, "func.func")
                    ? foreign_coroutine(g->top, g->c->abi)
                    : inside_foreign(op, g->c->abi);
  if (inside != foreign_coroutine(callee, g->c->abi))
    ir_opvec_push(&g->bridges, op);
}

/* Rewrites handle types to !llvm.ptr everywhere but inside another ABI's
 * coroutines, which keep !coro.handle until their own conversion: every
 * ABI's handle has the same header, so the rest of the module (plain
 * functions, this ABI's coroutines, arguments, block arguments, select and
 * scf results, returns, function types) is retyped once, by whichever
 * conversion runs first, and no use disagrees with its definition. A call
 * or func.constant crossing between the two sides keeps its callee's types
 * and is bridged by casts (bridge_results, bridge_operands), which
 * reconcile-unrealized-casts removes once every side is lowered. */
static void retype_value(MlirValue v) {
  MlirType was = mlirValueGetType(v), now = handles_to_ptr(was);
  if (!mlirTypeEqual(now, was))
    mlirValueSetType(v, now);
}

/* Retypes `op` unless it is another ABI's coroutine (skipped) or a
 * bridge (its results keep its callee's types). */
static MlirWalkResult retype_op(MlirOperation op, void *user) {
  const struct collect *c = user;
  if (foreign_coroutine(op, c->abi))
    return MlirWalkResultSkip;
  if (ir_ptrmap_find(&c->bridged, op.ptr))
    return MlirWalkResultAdvance;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    retype_value(mlirOperationGetResult(op, i));
  for (intptr_t i = 0; i < mlirOperationGetNumRegions(op); ++i)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, i));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (intptr_t a = 0; a < mlirBlockGetNumArguments(b); ++a)
        retype_value(mlirBlockGetArgument(b, a));
  if (coro_op_named(op, "func.func")) {
    MlirStringRef key = mlirStringRefCreateFromCString("function_type");
    MlirAttribute ft = mlirOperationGetAttributeByName(op, key);
    if (!mlirAttributeIsNull(ft) && mlirAttributeIsAType(ft)) {
      MlirType was = mlirTypeAttrGetValue(ft), now = handles_to_ptr(was);
      if (!mlirTypeEqual(now, was))
        mlirOperationSetAttributeByName(op, key, mlirTypeAttrGet(now));
    }
  }
  return MlirWalkResultAdvance;
}

/* Retypes the top-level ops of piece `k` of those that mention a handle
 * (on MLIR's threads: a retype changes only the op it walks). */
static void retype_piece(size_t k, void *user) {
  struct collect *c = user;
  size_t begin, end;
  ir_piece(&c->retyped, k, &begin, &end);
  for (size_t i = begin; i < end; ++i)
    mlirOperationWalk(c->retyped.op[i], retype_op, c, MlirWalkPreOrder);
}

/* Checks one coroutine and collects its ops; nothing is changed. */
static bool check_coroutine(const struct coro_abi *abi, MlirOperation module,
                            MlirOperation func, struct ir_opvec *ops,
                            MlirOperation *begin) {
  mlirOperationWalk(func, collect_inner, ops, MlirWalkPreOrder);
  *begin = (MlirOperation){NULL};
  bool ok = true;
  for (size_t i = 0; i < ops->n; ++i) {
    MlirOperation op = ops->v[i];
    MlirOperation parent = mlirOperationGetParentOperation(op);
    if (coro_op_named(op, "coro.begin")) {
      if (!mlirOperationIsNull(*begin)) {
        mlirEmitError(mlirOperationGetLocation(op),
                      "a coroutine has exactly one coro.begin; this is a "
                      "second one");
        ok = false;
      }
      *begin = op;
    }
    if (coro_op_named(op, "coro.await")) {
      ok &= check_value_type(op, "coro.await result type");
      /* Which ABI the awaited handle has, when its origin shows it: the
       * conversions lower coroutines one by one, and an origin they have
       * already lowered no longer says. */
      MlirStringRef awaited =
          coro_handle_abi(module, mlirOperationGetOperand(op, 0));
      if (awaited.length)
        mlirOperationSetAttributeByName(
            op, mlirStringRefCreateFromCString(CORO_AWAITED_ABI_ATTR),
            mlirStringAttrGet(mlirOperationGetContext(op), awaited));
    }
    if (mlirOperationEqual(parent, func))
      continue;
    struct coro_str msg = {0};
    MlirStringRef name = coro_op_name(op), pname = coro_op_name(parent);
    coro_str_append(&msg, name.data, name.length);
    coro_str_appendz(&msg, " inside '");
    coro_str_append(&msg, pname.data, pname.length);
    coro_str_appendz(&msg, "' cannot be lowered: the coroutine body must be "
                           "in CFG form here; run ");
    coro_str_appendz(&msg, coro_ref_starts_with(pname, "affine.")
                               ? "--lower-affine and --convert-scf-to-cf"
                               : "--convert-scf-to-cf");
    coro_str_appendz(&msg, " first, or use --coro-lower-");
    coro_str_appendz(&msg, abi->name);
    for (char *c = msg.data + msg.len - strlen(abi->name); *c; ++c)
      if (*c == '.')
        *c = '-';
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    ok = false;
  }
  if (ok && mlirOperationIsNull(*begin)) {
    mlirEmitError(mlirOperationGetLocation(func),
                  "coroutine has no coro.begin");
    ok = false;
  }
  return ok;
}

/* An op this ABI lowers may read a handle that another ABI owns and has not
 * retyped yet (a coroutine of this ABI awaiting or destroying a coroutine of
 * another one, inside or outside a coroutine). Its operand is then still a
 * !coro.handle: the lowering reads it as !llvm.ptr through a cast, which
 * reconcile-unrealized-casts removes once the other ABI has retyped it. */
static void handle_operand_as_ptr(MlirOperation op) {
  if (mlirOperationGetNumOperands(op) == 0)
    return;
  MlirValue h = mlirOperationGetOperand(op, 0);
  if (!coro_type_is_handle(mlirValueGetType(h)))
    return;
  struct ir_builder b = ir_before(op);
  mlirOperationSetOperand(op, 0, ir_cast(&b, h, ir_ptr_type(b.ctx)));
}

/* The function type of what the bridged `op` names. */
static MlirType callee_type(struct collect *c, MlirOperation op) {
  MlirOperation callee = referenced_func(c->module, op);
  return mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      callee, mlirStringRefCreateFromCString("function_type")));
}

/* The results of a bridged op (see retype_op) take its callee's types;
 * where the code around it has another type (!llvm.ptr outside another
 * ABI's coroutines, !coro.handle inside), its uses read the result through
 * a cast. */
static void bridge_results(struct collect *c, MlirOperation op) {
  MlirType fty = callee_type(c, op);
  bool inside = foreign_coroutine(coro_enclosing_func(op), c->abi);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue r = mlirOperationGetResult(op, i);
    MlirType old = mlirValueGetType(r);
    MlirType around = inside ? old : handles_to_ptr(old);
    MlirType want = coro_op_named(op, "func.constant")
                        ? fty
                        : mlirFunctionTypeGetResult(fty, i);
    mlirValueSetType(r, want);
    if (mlirTypeEqual(want, around))
      continue;
    struct ir_builder b = ir_before(mlirOperationGetNextInBlock(op));
    MlirValue back = ir_cast(&b, r, around);
    MlirOperation cast = mlirOpResultGetOwner(back);
    mlirValueReplaceAllUsesExcept(r, back, 1, &cast);
  }
}

/* The operands of a bridged call, cast to its callee's input types. */
static void bridge_operands(struct collect *c, MlirOperation op) {
  if (!coro_op_named(op, "func.call"))
    return;
  MlirType fty = callee_type(c, op);
  struct ir_builder b = ir_before(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirType want = mlirFunctionTypeGetInput(fty, i);
    if (!mlirTypeEqual(mlirValueGetType(v), want))
      mlirOperationSetOperand(op, i, ir_cast(&b, v, want));
  }
}

/* Memory allocated on the stack before coro.begin would live in the ramp's
 * frame, which is gone once the coroutine first suspends, while a pointer
 * to it (a memref's descriptor) may be kept across suspensions. So the
 * coroutine proper starts at the first alloca before coro.begin: coro.begin
 * (which has no operands) moves up to it, and the alloca, made after the
 * frame, lives in the frame whenever a suspension keeps it. */
static void begin_before_allocas(MlirOperation begin) {
  MlirBlock block = mlirOperationGetBlock(begin);
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationEqual(op, begin); op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "memref.alloca") ||
        coro_op_named(op, "llvm.alloca")) {
      mlirOperationMoveBefore(begin, op);
      return;
    }
}

/* The symbol table `op` lives in: its nearest enclosing module (a nested
 * builtin.module or gpu.module holds its own helpers and declarations), or
 * `top` when there is none below it. */
static MlirOperation nearest_module(MlirOperation op, MlirOperation top) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p) && !mlirOperationEqual(p, top);
       p = mlirOperationGetParentOperation(p))
    if (coro_op_named(p, "builtin.module") || coro_op_named(p, "gpu.module"))
      return p;
  return top;
}

/* The deferred work of one run: the bodies (coro_defer_body), and the
 * coroutines whose `finish` waits for them. */
struct coro_later {
  MlirContext ctx;
  const struct coro_abi *abi;
  struct later_body {
    void (*fill)(void *);
    void *job;
  } * body;
  size_t nbody, cap_body;
  struct coro_fn *fns;
  size_t nfns, cap_fns;
};

void coro_defer_body(struct coro_fn *fn, void (*fill)(void *job), void *job) {
  struct coro_later *l = fn->later;
  l->body = ir_grow(l->body, &l->cap_body, l->nbody, sizeof *l->body);
  l->body[l->nbody++] = (struct later_body){fill, job};
}

/* Deferred bodies by runs of LATER_PIECE, each run with an op cache of its
 * own (its templates made once per run, not once per body). */
enum { LATER_PIECE = 32 };

static void fill_piece(size_t k, void *user) {
  struct coro_later *l = user;
  struct ir_op_cache cache;
  ir_op_cache_enter(&cache, l->ctx);
  for (size_t i = k * LATER_PIECE; i < l->nbody && i < (k + 1) * LATER_PIECE;
       ++i)
    l->body[i].fill(l->body[i].job);
  ir_op_cache_exit(&cache);
}

/* Makes the deferred bodies, then finishes the coroutines whose state
 * they read. */
static void run_later(struct coro_later *l) {
  ir_parallel_for(l->ctx, (l->nbody + LATER_PIECE - 1) / LATER_PIECE,
                  fill_piece, l);
  for (size_t i = 0; i < l->nbody; ++i)
    free(l->body[i].job);
  for (size_t i = 0; i < l->nfns; ++i)
    l->abi->finish(&l->fns[i]);
  free(l->body);
  free(l->fns);
}

static MlirLogicalResult
lower_coroutine(const struct coro_abi *abi, MlirOperation module,
                MlirOperation func, MlirType elem, struct ir_opvec *ops,
                MlirOperation begin, const struct ir_opvec *elided,
                struct coro_later *later) {
  struct coro_fn fn = {func, begin,   elem, nearest_module(func, module),
                       NULL, *elided, later};
  begin_before_allocas(begin);
  MlirLogicalResult res = abi->prepare(&fn);
  /* Last op first: each lowering splits its block after the op, and the
   * ops after it have already moved out with the later ones, so every op
   * moves once (first to last would move a block's tail once per
   * suspension in it: quadratic in a long straight-line coroutine). */
  for (size_t i = ops->n; i-- > 0 && mlirLogicalResultIsSuccess(res);) {
    MlirOperation op = ops->v[i];
    if (mlirOperationEqual(op, begin)) /* lowered (and erased) by prepare */
      continue;
    if (coro_op_named(op, "coro.yield"))
      res = abi->lower_yield(&fn, op);
    else if (coro_op_named(op, "coro.await")) {
      handle_operand_as_ptr(op);
      res = abi->lower_await(&fn, op);
    } else if (coro_op_named(op, "coro.end"))
      res = abi->lower_end(&fn, op);
    else if (coro_op_named(op, "coro.self"))
      res = abi->lower_self(&fn, op);
    else if (coro_op_named(op, "coro.group_await") && abi->lower_group_await)
      res = abi->lower_group_await(&fn, op);
  }
  later->fns =
      ir_grow(later->fns, &later->cap_fns, later->nfns, sizeof *later->fns);
  later->fns[later->nfns++] = fn; /* finished by run_later */
  return res;
}

/* Gathers the module's coro.* and func.* ops, and the top-level ops that
 * mention a handle, in pieces on MLIR's threads; then collects those ops
 * in walk order (which may change attributes and report errors) on this
 * one. */
static void gather(struct collect *c) {
  ir_top_pieces_init(&c->pieces, c->module);
  size_t n = c->pieces.n;
  c->gathered = ir_xcalloc(n + 1, sizeof *c->gathered);
  /* the scope's table, or one of this conversion's own while it looks up
   * (nothing is added to the module until the bridges are found) */
  c->table = ir_symbol_scope_table_of(c->module);
  bool own = mlirSymbolTableIsNull(c->table);
  if (own) /* null when the op is no symbol table: nothing is found */
    c->table = mlirSymbolTableCreate(c->module);
  for (size_t k = 0; k < n; ++k)
    c->gathered[k].c = c;
  ir_parallel_for(mlirOperationGetContext(c->module), n, gather_piece, c);
  if (own && !mlirSymbolTableIsNull(c->table))
    mlirSymbolTableDestroy(c->table);
  c->table = (MlirSymbolTable){NULL};
  struct ir_opvec retyped = {0};
  for (size_t k = 0; k < n; ++k) {
    struct gathered *g = &c->gathered[k];
    c->handles |= g->handles;
    for (size_t i = 0; i < g->ops.n; ++i)
      collect_wanted(c, g->ops.v[i]);
    for (size_t i = 0; i < g->bridges.n; ++i)
      ir_ptrmap_put(&c->bridged, g->bridges.v[i].ptr, (void *)1);
    ir_opvec_append(&c->bridges, &g->bridges);
    ir_opvec_append(&retyped, &g->mention);
  }
  c->retyped = (struct ir_pieces){.op = retyped.v, .nop = retyped.n};
  ir_pieces_cut(&c->retyped);
}

static void collect_free(struct collect *c) {
  for (size_t k = 0; k < c->pieces.n; ++k) {
    free(c->gathered[k].ops.v);
    free(c->gathered[k].mention.v);
    free(c->gathered[k].bridges.v);
  }
  free(c->gathered);
  free(c->pieces.op);
  free(c->retyped.op);
  free(c->coroutines.v);
  free(c->consumers.v);
  free(c->origins);
  free(c->bridges.v);
  ir_ptrmap_free(&c->bridged);
  free(c->elided.v);
}

/* Which ABIs the coroutines of a module use, from its functions alone
 * (their bodies are not entered). */
struct abis_used {
  const struct coro_abi *abi;
  bool mine, foreign;
};

static void note_abi(MlirStringRef abi, void *user) {
  struct abis_used *u = user;
  if (coro_ref_eq(abi, u->abi->name))
    u->mine = true;
  else
    u->foreign = true;
}

MlirLogicalResult coro_abi_convert(MlirOperation module,
                                   const struct coro_abi *abi) {
  /* A module whose coroutines are all of other ABIs is theirs: handles of
   * unknown origin in it are theirs too, and their conversions lower its
   * consumers and report what is wrong in it. Deciding that from the functions
   * alone keeps a conversion the module does not use from walking every op. */
  struct abis_used used = {abi, false, false};
  coro_each_coroutine_abi(module, note_abi, &used);
  if (!used.mine && used.foreign)
    return mlirLogicalResultSuccess();
  struct collect c = {.abi = abi, .module = module, .ok = true};
  gather(&c);
  if (c.ok && c.coroutines.n == 0 && !c.handles && c.consumers.n == 0) {
    /* A module with no coroutine, no consumer and no handle left (another
     * conversion lowered them) has nothing for this one. */
    collect_free(&c);
    return mlirLogicalResultSuccess();
  }
  size_t n = c.coroutines.n;
  struct ir_opvec *inner = ir_xcalloc(n + 1, sizeof *inner);
  MlirOperation *begins = ir_xcalloc(n + 1, sizeof *begins);
  MlirType *elems = ir_xcalloc(n + 1, sizeof *elems);
  bool ok = c.ok;
  for (size_t i = 0; i < n; ++i) {
    MlirOperation f = c.coroutines.v[i];
    ok &= check_coroutine(abi, module, f, &inner[i], &begins[i]);
    MlirAttribute ft = mlirOperationGetAttributeByName(
        f, mlirStringRefCreateFromCString("function_type"));
    MlirType fty = mlirTypeAttrGetValue(ft);
    if (mlirFunctionTypeGetNumResults(fty) != 1 ||
        !coro_type_is_handle(mlirFunctionTypeGetResult(fty, 0))) {
      mlirEmitError(mlirOperationGetLocation(f),
                    "a coroutine must return one !coro.handle");
      ok = false;
      continue;
    }
    elems[i] = coro_handle_elem_type(mlirFunctionTypeGetResult(fty, 0));
  }
  MlirLogicalResult res = mlirLogicalResultFailure();
  if (ok) {
    ir_parallel_for(mlirOperationGetContext(module), c.retyped.n, retype_piece,
                    &c);
    /* Every result first: an operand may be another bridged op's result. */
    for (size_t i = 0; i < c.bridges.n; ++i)
      bridge_results(&c, c.bridges.v[i]);
    for (size_t i = 0; i < c.bridges.n; ++i)
      bridge_operands(&c, c.bridges.v[i]);
    res = mlirLogicalResultSuccess();
    /* each coroutine's marked calls, before any lowering replaces one */
    struct ir_ptrmap index = {0};
    struct ir_opvec *elided = ir_xcalloc(n + 1, sizeof *elided);
    for (size_t i = 0; i < n; ++i)
      ir_ptrmap_put(&index, c.coroutines.v[i].ptr, (void *)(i + 1));
    for (size_t k = 0; k < c.elided.n; ++k) {
      MlirOperation callee = referenced_func(module, c.elided.v[k]);
      size_t i = mlirOperationIsNull(callee)
                     ? 0
                     : (size_t)ir_ptrmap_find(&index, callee.ptr);
      if (i)
        ir_opvec_push(&elided[i - 1], c.elided.v[k]);
    }
    struct coro_later later = {.ctx = mlirOperationGetContext(module),
                               .abi = abi};
    for (size_t i = 0; i < n && mlirLogicalResultIsSuccess(res); ++i)
      res = lower_coroutine(abi, module, c.coroutines.v[i], elems[i], &inner[i],
                            begins[i], &elided[i], &later);
    run_later(&later);
    for (size_t i = 0; i < n; ++i)
      free(elided[i].v);
    free(elided);
    ir_ptrmap_free(&index);
    for (size_t i = 0; i < c.consumers.n && mlirLogicalResultIsSuccess(res);
         ++i) {
      handle_operand_as_ptr(c.consumers.v[i]);
      res = coro_lower_consumer(c.consumers.v[i], c.origins[i],
                                nearest_module(c.consumers.v[i], module));
    }
    /* A lowered coroutine is no longer one of the dialect's: without its
     * coro.* attributes the output loads again in every tool (which verify
     * on load) and the next ABI's conversion leaves it alone. coro.alloc
     * stays for --coro-split (route B elides "elide" frames itself). */
    static const char *const dropped[] = {
        CORO_ABI_ATTR, CORO_BUFFER_ATTR, CORO_ALLOC_FN_ATTR, CORO_FREE_FN_ATTR};
    for (size_t i = 0; i < n && mlirLogicalResultIsSuccess(res); ++i)
      for (size_t k = 0; k < sizeof dropped / sizeof *dropped; ++k)
        mlirOperationRemoveAttributeByName(
            c.coroutines.v[i], mlirStringRefCreateFromCString(dropped[k]));
  }
  for (size_t i = 0; i < n; ++i)
    free(inner[i].v);
  free(inner);
  free(begins);
  free(elems);
  collect_free(&c);
  return res;
}
