/* abi.c - storage types, the driver and the helpers shared by every
 * coro-to-LLVM conversion (see abi.h). IR is built with ir/.
 *
 * The driver's order is fixed: collect (nothing is changed until every check
 * passed), rewrite handle types to !llvm.ptr, lower each coroutine's ops
 * through the ABI hooks, then the consumer ops. */
#include "conversion/common/abi.h"
#include "dialect/dialect.h"
#include "dialect/handle_origin.h"
#include "dialect/support.h"
#include "dialect/value_types.h"
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

/* The attribute the driver records a consumer's original handle type in. */
#define CORO_HANDLE_TYPE_ATTR "coro.handle_type"

/*===--- storage types -----------------------------------------------------*/

MlirValue coro_to_storage(struct ir_builder *b, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  MlirType s = coro_storage_type(t);
  if (mlirTypeEqual(s, t))
    return v;
  if (mlirTypeIsAIndex(t))
    return ir_val(b, "arith.index_cast", 1, &v, s);
  return ir_cast(b, v, s);
}

MlirValue coro_from_storage(struct ir_builder *b, MlirValue v, MlirType type) {
  if (mlirTypeEqual(mlirValueGetType(v), type))
    return v;
  if (mlirTypeIsAIndex(type))
    return ir_val(b, "arith.index_cast", 1, &v, type);
  return ir_cast(b, v, type);
}

unsigned coro_storage_align(MlirType t) {
  uint64_t size, align;
  return ir_type_layout(t, &size, &align) ? (unsigned)align : 8;
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
    return true;
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

/*===--- driver ------------------------------------------------------------*/

struct opvec {
  MlirOperation *v;
  size_t n, cap;
};

static void opvec_push(struct opvec *o, MlirOperation op) {
  if (o->n == o->cap) {
    o->cap = o->cap ? 2 * o->cap : 16;
    o->v = realloc(o->v, o->cap * sizeof *o->v);
    assert(o->v && "out of memory");
  }
  o->v[o->n++] = op;
}

struct collect {
  const struct coro_abi *abi;
  MlirOperation module;
  struct opvec coroutines; /* func.func of this ABI */
  struct opvec consumers;  /* resume/destroy/done/promise/noop */
  bool ok;
  bool foreign_coroutines; /* the module has coroutines of other ABIs */
};

static bool is_consumer(MlirOperation op) {
  return coro_op_named(op, "coro.resume") ||
         coro_op_named(op, "coro.destroy") || coro_op_named(op, "coro.done") ||
         coro_op_named(op, "coro.promise") || coro_op_named(op, "coro.noop");
}

static bool is_coroutine_side(MlirOperation op) {
  return coro_op_named(op, "coro.yield") || coro_op_named(op, "coro.await") ||
         coro_op_named(op, "coro.end") || coro_op_named(op, "coro.self") ||
         coro_op_named(op, "coro.begin");
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

static MlirWalkResult collect_op(MlirOperation op, void *user) {
  struct collect *c = user;
  if (coro_op_is_coroutine(op)) {
    if (coro_ref_eq(coro_coroutine_abi(op), c->abi->name))
      opvec_push(&c->coroutines, op);
    else
      c->foreign_coroutines = true;
  } else if (is_consumer(op)) {
    if (coro_op_named(op, "coro.noop") ||
        !foreign(coro_handle_abi(c->module, mlirOperationGetOperand(op, 0)),
                 c->abi)) {
      opvec_push(&c->consumers, op);
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
  } else if (is_coroutine_side(op) && !coro_coroutine_abi(coro_enclosing_func(op)).length) {
    struct coro_str msg = {0};
    MlirStringRef name = coro_op_name(op);
    coro_str_append(&msg, name.data, name.length);
    coro_str_appendz(&msg, " outside a coroutine (a func.func with coro.abi)");
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    c->ok = false;
  }
  return MlirWalkResultAdvance;
}

/* The coroutine-side ops of one coroutine, in walk order. */
static MlirWalkResult collect_inner(MlirOperation op, void *user) {
  if (is_coroutine_side(op))
    opvec_push(user, op);
  return MlirWalkResultAdvance;
}

static MlirType handles_to_ptr(MlirType t) {
  if (coro_type_is_handle(t))
    return ir_ptr_type(mlirTypeGetContext(t));
  if (mlirTypeIsAFunction(t)) {
    intptr_t ni = mlirFunctionTypeGetNumInputs(t);
    intptr_t nr = mlirFunctionTypeGetNumResults(t);
    MlirType *in = malloc((size_t)(ni + nr + 1) * sizeof *in);
    for (intptr_t i = 0; i < ni; ++i)
      in[i] = handles_to_ptr(mlirFunctionTypeGetInput(t, i));
    for (intptr_t i = 0; i < nr; ++i)
      in[ni + i] = handles_to_ptr(mlirFunctionTypeGetResult(t, i));
    MlirType f =
        mlirFunctionTypeGet(mlirTypeGetContext(t), ni, in, nr, in + ni);
    free(in);
    return f;
  }
  return t;
}

/* Rewrites handle types to !llvm.ptr, leaving alone what another ABI owns:
 * its coroutines (whole) and the results of calls to them. Handles that
 * reach other places (arguments, block arguments) are rewritten: every
 * ABI's handle has the same header, and ops that read another ABI's handle
 * before it is retyped go through a cast (handle_operand_as_ptr,
 * retype_own_calls). */
static MlirWalkResult retype_op(MlirOperation op, void *user) {
  struct collect *c = user;
  if (coro_op_is_coroutine(op) && foreign(coro_coroutine_abi(op), c->abi))
    return MlirWalkResultSkip;
  if (coro_op_named(op, "func.call") &&
      foreign(
          coro_coroutine_abi(lookup_func(
              c->module, mlirOperationGetAttributeByName(
                             op, mlirStringRefCreateFromCString("callee")))),
          c->abi))
    return MlirWalkResultAdvance;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue r = mlirOperationGetResult(op, i);
    mlirValueSetType(r, handles_to_ptr(mlirValueGetType(r)));
  }
  for (intptr_t i = 0; i < mlirOperationGetNumRegions(op); ++i)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, i));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (intptr_t a = 0; a < mlirBlockGetNumArguments(b); ++a) {
        MlirValue arg = mlirBlockGetArgument(b, a);
        mlirValueSetType(arg, handles_to_ptr(mlirValueGetType(arg)));
      }
  if (coro_op_named(op, "func.func")) {
    MlirStringRef key = mlirStringRefCreateFromCString("function_type");
    MlirAttribute ft = mlirOperationGetAttributeByName(op, key);
    if (!mlirAttributeIsNull(ft) && mlirAttributeIsAType(ft))
      mlirOperationSetAttributeByName(
          op, key, mlirTypeAttrGet(handles_to_ptr(mlirTypeAttrGetValue(ft))));
  }
  return MlirWalkResultAdvance;
}

/* Checks one coroutine and collects its ops; nothing is changed. */
static bool check_coroutine(MlirOperation module, MlirOperation func,
                            struct opvec *ops, MlirOperation *begin) {
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
                           "in CFG form here; run --convert-scf-to-cf "
                           "first, or use --coro-lower-switch");
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

/* Calls of this ABI's coroutines inside another ABI's coroutines are left
 * alone by retype_op. The callee's result becomes !llvm.ptr all the same;
 * the ops of the other coroutine keep reading a !coro.handle through a cast
 * (which that ABI's conversion or reconcile-unrealized-casts removes). */
static MlirWalkResult retype_own_calls(MlirOperation op, void *user) {
  struct collect *c = user;
  if (!coro_op_named(op, "func.call") || mlirOperationGetNumResults(op) != 1)
    return MlirWalkResultAdvance;
  MlirStringRef abi = coro_coroutine_abi(lookup_func(
      c->module, mlirOperationGetAttributeByName(
                     op, mlirStringRefCreateFromCString("callee"))));
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(r);
  if (!coro_ref_eq(abi, c->abi->name) || !coro_type_is_handle(t))
    return MlirWalkResultAdvance;
  mlirValueSetType(r, ir_ptr_type(mlirTypeGetContext(t)));
  struct ir_builder b = ir_before(mlirOperationGetNextInBlock(op));
  MlirValue back =
      ir_cast(&b, r, t);
  MlirOperation cast = mlirOpResultGetOwner(back);
  mlirValueReplaceAllUsesExcept(r, back, 1, &cast);
  return MlirWalkResultAdvance;
}

static MlirLogicalResult lower_coroutine(const struct coro_abi *abi,
                                         MlirOperation module,
                                         MlirOperation func, MlirType elem,
                                         struct opvec *ops,
                                         MlirOperation begin) {
  struct coro_fn fn = {func, begin, elem, module, NULL};
  MlirLogicalResult res = abi->prepare(&fn);
  for (size_t i = 0; i < ops->n && mlirLogicalResultIsSuccess(res); ++i) {
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
  }
  abi->finish(&fn);
  return res;
}

MlirLogicalResult coro_abi_convert(MlirOperation module,
                                   const struct coro_abi *abi) {
  struct collect c = {abi, module, {0}, {0}, true, false};
  mlirOperationWalk(module, collect_op, &c, MlirWalkPreOrder);
  if (c.ok && c.coroutines.n == 0 && c.foreign_coroutines) {
    /* Handles of unknown origin in a module whose coroutines are all of
     * other ABIs are theirs: leave the module to their conversions. */
    free(c.consumers.v);
    free(c.coroutines.v);
    return mlirLogicalResultSuccess();
  }
  size_t n = c.coroutines.n;
  struct opvec *inner = calloc(n + 1, sizeof *inner);
  MlirOperation *begins = calloc(n + 1, sizeof *begins);
  MlirType *elems = calloc(n + 1, sizeof *elems);
  bool ok = c.ok;
  for (size_t i = 0; i < n; ++i) {
    MlirOperation f = c.coroutines.v[i];
    ok &= check_coroutine(module, f, &inner[i], &begins[i]);
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
    mlirOperationWalk(module, retype_op, &c, MlirWalkPreOrder);
    mlirOperationWalk(module, retype_own_calls, &c, MlirWalkPreOrder);
    res = mlirLogicalResultSuccess();
    for (size_t i = 0; i < n && mlirLogicalResultIsSuccess(res); ++i)
      res = lower_coroutine(abi, module, c.coroutines.v[i], elems[i], &inner[i],
                            begins[i]);
    for (size_t i = 0; i < c.consumers.n && mlirLogicalResultIsSuccess(res);
         ++i) {
      handle_operand_as_ptr(c.consumers.v[i]);
      res = abi->lower_consumer(module, c.consumers.v[i]);
    }
  }
  for (size_t i = 0; i < n; ++i)
    free(inner[i].v);
  free(inner);
  free(begins);
  free(elems);
  free(c.coroutines.v);
  free(c.consumers.v);
  return res;
}

/*===--- helpers shared by the ABIs ----------------------------------------*/

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
  out->alloc_fn = coro_sym_attr(func, "coro.alloc_fn");
  out->free_fn = coro_sym_attr(func, "coro.free_fn");
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
  if ((!out->alloc_is_func &&
       !coro_declare_llvm_func(module, out->alloc_fn, ptr, 1, &i64, loc)) ||
      (!out->free_is_func && !coro_declare_llvm_func(module, out->free_fn,
                                                      (MlirType){NULL}, 1,
                                                      &ptr, loc)))
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}

MlirType coro_promise_type(MlirContext ctx, MlirType value_storage) {
  MlirType fields[2] = {ir_ptr_type(ctx), value_storage};
  return mlirLLVMStructTypeLiteralGet(ctx, 2, fields, false);
}

MlirType coro_value_storage(MlirOperation func, MlirType t, const char *abi) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirType s = coro_type_is_none(t) ? ir_int_type(ctx, 8) : coro_storage_type(t);
  if (mlirTypeIsNull(s)) {
    struct coro_str ts = coro_type_str(t), msg = {0};
    coro_str_appendz(&msg, "values of type ");
    coro_str_appendz(&msg, coro_str_cstr(&ts));
    coro_str_appendz(&msg, strchr("aeiou", abi[0])
                               ? " cannot be published by an "
                               : " cannot be published by a ");
    coro_str_appendz(&msg, abi);
    coro_str_appendz(&msg, " coroutine");
    mlirEmitError(mlirOperationGetLocation(func), coro_str_cstr(&msg));
    coro_str_free(&msg);
    coro_str_free(&ts);
  }
  return s;
}

unsigned coro_value_align(MlirType storage) {
  unsigned a = coro_storage_align(storage);
  return a > CORO_HANDLE_PROMISE_MAX_ALIGN ? CORO_HANDLE_PROMISE_MAX_ALIGN : a;
}

/* The promise of the handle `h` whose value is stored as `storage`. */
static MlirValue promise_of(struct ir_builder *b, MlirValue h) {
  MlirValue ops[3] = {h, ir_const_int(b, 32, CORO_PROMISE_OFFSET),
                      ir_const_int(b, 1, 0)};
  return ir_val(b, "llvm.intr.coro.promise", 3, ops, ir_ptr_type(b->ctx));
}

MlirType coro_control_prefix_type(MlirContext ctx, MlirType value_storage,
                                  MlirType resume_storage) {
  MlirType ptr = ir_ptr_type(ctx);
  MlirType fields[6] = {ptr, ptr, coro_promise_type(ctx, value_storage),
                        ptr, ptr, resume_storage};
  return mlirLLVMStructTypeLiteralGet(ctx, 6, fields, false);
}

MlirLogicalResult coro_lower_consumer(MlirOperation op,
                                      const char *abi_with_resume_values) {
  struct ir_builder b = ir_before(op);
  MlirContext ctx = b.ctx;
  MlirValue h = mlirOperationGetNumOperands(op) ? mlirOperationGetOperand(op, 0)
                                                : (MlirValue){NULL};
  MlirValue repl = {NULL};
  if (coro_op_named(op, "coro.resume")) {
    if (mlirOperationGetNumOperands(op) > 1) {
      if (!abi_with_resume_values) {
        mlirEmitError(b.loc, "the switch ABI passes no value on resume");
        return mlirLogicalResultFailure();
      }
      MlirValue r = mlirOperationGetOperand(op, 1);
      MlirType rs = coro_storage_type(mlirValueGetType(r));
      MlirAttribute ht = mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString(CORO_HANDLE_TYPE_ATTR));
      MlirType t = coro_handle_elem_type(mlirTypeAttrGetValue(ht));
      MlirType vs = coro_type_is_none(t) ? ir_int_type(ctx, 8) : coro_storage_type(t);
      if (mlirTypeIsNull(rs) || mlirTypeIsNull(vs)) {
        mlirEmitError(b.loc, "coro.resume value type cannot be stored");
        return mlirLogicalResultFailure();
      }
      MlirValue slot =
          ir_gep_field(&b, h, coro_control_prefix_type(ctx, vs, rs), 5);
      ir_store(&b, coro_to_storage(&b, r), slot, coro_value_align(rs));
    }
    ir_val(&b, "llvm.intr.coro.resume", 1, &h, (MlirType){NULL});
  } else if (coro_op_named(op, "coro.destroy")) {
    ir_intrinsic(&b, "llvm.coro.destroy", 1, &h, (MlirType){NULL});
  } else if (coro_op_named(op, "coro.done")) {
    repl = ir_intrinsic(&b, "llvm.coro.done", 1, &h, ir_int_type(ctx, 1));
  } else if (coro_op_named(op, "coro.noop")) {
    repl = ir_intrinsic(&b, "llvm.coro.noop", 0, NULL, ir_ptr_type(ctx));
  } else if (coro_op_named(op, "coro.promise")) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    MlirType storage = coro_storage_type(t);
    if (mlirTypeIsNull(storage)) {
      mlirEmitError(b.loc, "coro.promise result type cannot be stored");
      return mlirLogicalResultFailure();
    }
    repl = coro_load_promise_value(&b, h, t);
  }
  if (!mlirValueIsNull(repl))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), repl);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

MlirValue coro_promise_field(struct ir_builder *b, MlirValue h, MlirType storage,
                             int field) {
  MlirValue p = ir_gep_bytes(b, h, CORO_PROMISE_OFFSET);
  return ir_gep_field(b, p, coro_promise_type(b->ctx, storage), field);
}

MlirValue coro_load_promise_value(struct ir_builder *b, MlirValue h, MlirType t) {
  MlirType storage = coro_storage_type(t);
  MlirValue p = promise_of(b, h);
  MlirValue v =
      ir_load(b, ir_gep_field(b, p, coro_promise_type(b->ctx, storage), 1), storage,
              coro_value_align(storage));
  return coro_from_storage(b, v, t);
}

MlirValue coro_published(struct ir_builder *b, MlirOperation op, MlirValue v,
                         MlirType storage) {
  MlirType s = coro_storage_type(mlirValueGetType(v));
  if (mlirTypeIsNull(s) || !mlirTypeEqual(s, storage)) {
    coro_error_at(op, "published value does not match the coroutine's handle "
                      "type");
    return (MlirValue){NULL};
  }
  return coro_to_storage(b, v);
}

MlirLogicalResult coro_error_at(MlirOperation op, const char *msg) {
  mlirEmitError(mlirOperationGetLocation(op), msg);
  return mlirLogicalResultFailure();
}

MlirOperation coro_end_return(MlirOperation op) {
  MlirOperation ret = mlirOperationGetNextInBlock(op);
  if (mlirOperationIsNull(ret) || !coro_op_named(ret, "func.return")) {
    coro_error_at(op, "coro.end must be followed by func.return");
    return (MlirOperation){NULL};
  }
  return ret;
}

MlirBlock coro_await_split(struct ir_builder *b, MlirOperation op, MlirValue aw,
                           MlirBlock *next, MlirBlock *check) {
  *next = ir_split_after(op);
  *check = ir_block_after(mlirOperationGetBlock(op), 0, NULL, b->loc);
  MlirBlock susp = ir_block_after(*check, 0, NULL, b->loc);
  ir_br(b, *check, 0, NULL);
  struct ir_builder c = ir_at_end(*check, b->loc);
  MlirValue done = ir_intrinsic(&c, "llvm.coro.done", 1, &aw, ir_int_type(c.ctx, 1));
  ir_cond_br(&c, done, *next, susp);
  return susp;
}

MlirLogicalResult coro_await_result(MlirOperation op, MlirValue aw,
                                    MlirBlock next) {
  if (mlirOperationGetNumResults(op) == 0)
    return mlirLogicalResultSuccess();
  MlirValue res = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(res);
  if (mlirTypeIsNull(coro_storage_type(t)))
    return coro_error_at(op, "awaited result type cannot be stored");
  struct ir_builder c = ir_before(mlirBlockGetFirstOperation(next));
  mlirValueReplaceAllUsesOfWith(res, coro_load_promise_value(&c, aw, t));
  return mlirLogicalResultSuccess();
}

MlirBlock coro_yield_continue(struct ir_builder *b, MlirOperation op, MlirValue flag,
                              MlirBlock end, MlirValue end_arg) {
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirBlock next = ir_split_after(op);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(result))) {
    bool arg = !mlirValueIsNull(end_arg);
    ir_cond_br_args(b, flag, end, arg ? 1 : 0, &end_arg, next, 0, NULL);
  } else {
    mlirValueReplaceAllUsesOfWith(result, flag);
    ir_br(b, next, 0, NULL);
  }
  mlirOperationDestroy(op);
  return next;
}

MlirLogicalResult coro_lower_consumer_hook(MlirOperation module,
                                           MlirOperation op) {
  (void)module;
  return coro_lower_consumer(op, NULL);
}

/* The func.func `name` : (inputs of `fty`) -> !llvm.ptr with visibility
 * `visibility` (none when empty), appended to the module at `loc`; returns
 * its entry block. */
MlirBlock coro_entry_func(MlirOperation module, const struct coro_str *name,
                          MlirType fty, const struct coro_str *visibility,
                          MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  MlirType *in = malloc((size_t)(n + 1) * sizeof *in);
  MlirLocation *locs = malloc((size_t)(n + 1) * sizeof *locs);
  assert(in && locs && "out of memory");
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
  free(in);
  free(locs);
  return entry;
}
