/* convert_coro_to_llvm_switch.c - `--convert-coro-to-llvm-switch`: the
 * switched-resume ABI (see docs/switch-lowering.md).
 *
 * A coroutine with coro.abi = "switch" keeps its func.func (returning the
 * handle, now !llvm.ptr = the frame pointer) and gets LLVM's switch-ABI
 * intrinsics; `passthrough = ["presplitcoroutine"]` makes LLVM's CoroSplit
 * split it. Layout shared with every consumer:
 *
 *   promise = struct { ptr continuation; S value }, alignment 16
 *
 * where S is the storage type of the handle's T (i8 for none). The promise
 * alignment is the same constant (CORO_SWITCH_PROMISE_ALIGN) everywhere, so
 * a consumer needs no type information to reach the continuation, and
 * `llvm.coro.promise(handle, 16, false)` finds the promise of any switch
 * coroutine. The continuation is the coroutine awaiting this one (null when
 * none); the final suspension transfers to it symmetrically through
 * `llvm.coro.await.suspend.handle` with @__coro_switch_final, and an await
 * records it with @__coro_switch_await.
 *
 * Body shape: entry = promise and destroy-flag allocas; at coro.begin:
 * coro.id, coro.alloc ? alloc_fn(coro.size) : null, coro.begin; one cleanup
 * block (coro.free + free_fn) and one suspend-return block (coro.end, return
 * the handle) at the end of the body. Every suspension is save, suspend and a
 * switch on the i8: default -> suspend-return, 0 -> resume, 1 -> destroy. */
#include "conversion/CoroToLLVMSwitch/convert_coro_to_llvm_switch.h"
#include "conversion/common/abi.h"
#include "coro-c/Dialect.h"
#include "dialect/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CORO_SWITCH_PROMISE_ALIGN = 16 };

struct sw_state {
  MlirType promise_type; /* !llvm.struct<(ptr, S)> */
  MlirType value_storage;
  MlirValue promise, flag, id, hdl;
  MlirBlock cleanup, ret, unreachable;
  MlirAttribute free_fn; /* flat symbol ref */
  bool free_is_func;     /* func.func (func.call) rather than llvm.func */
  bool elide;            /* coro.alloc = "elide" */
};

static const char *await_wrapper =
    "llvm.func internal @__coro_switch_await(%awaited: !llvm.ptr, %self: "
    "!llvm.ptr) -> !llvm.ptr {\n"
    "  %a = llvm.mlir.constant(16 : i32) : i32\n"
    "  %f = llvm.mlir.constant(false) : i1\n"
    "  %p = llvm.intr.coro.promise %awaited, %a, %f : (!llvm.ptr, i32, i1) "
    "-> !llvm.ptr\n"
    "  llvm.store %self, %p : !llvm.ptr, !llvm.ptr\n"
    "  llvm.return %awaited : !llvm.ptr\n"
    "}";

static const char *final_wrapper =
    "llvm.func internal @__coro_switch_final(%unused: !llvm.ptr, %self: "
    "!llvm.ptr) -> !llvm.ptr {\n"
    "  %a = llvm.mlir.constant(16 : i32) : i32\n"
    "  %f = llvm.mlir.constant(false) : i1\n"
    "  %p = llvm.intr.coro.promise %self, %a, %f : (!llvm.ptr, i32, i1) -> "
    "!llvm.ptr\n"
    "  %c = llvm.load %p : !llvm.ptr -> !llvm.ptr\n"
    "  %z = llvm.mlir.zero : !llvm.ptr\n"
    "  %none = llvm.icmp \"eq\" %c, %z : !llvm.ptr\n"
    "  llvm.cond_br %none, ^noop, ^cont\n"
    "^noop:\n"
    "  %n = llvm.call_intrinsic \"llvm.coro.noop\"() : () -> !llvm.ptr\n"
    "  llvm.return %n : !llvm.ptr\n"
    "^cont:\n"
    "  llvm.return %c : !llvm.ptr\n"
    "}";

/* Adds the wrapper `text` named `name` to the module unless present. */
static void ensure_wrapper(MlirOperation module, const char *name,
                           const char *text) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym) &&
        coro_ref_eq(mlirStringAttrGetValue(sym), name))
      return;
  }
  MlirOperation f = mlirOperationCreateParse(
      mlirOperationGetContext(module), mlirStringRefCreateFromCString(text),
      mlirStringRefCreateFromCString("coro-switch"));
  mlirBlockAppendOwnedOperation(body, f);
}

static MlirBlock block_after(MlirBlock after, intptr_t nArgs,
                             const MlirType *types, MlirLocation loc) {
  MlirLocation locs[2] = {loc, loc};
  MlirBlock b = mlirBlockCreate(nArgs, types, locs);
  mlirRegionInsertOwnedBlockAfter(mlirBlockGetParentRegion(after), after, b);
  return b;
}

static void store(struct cb *b, MlirValue v, MlirValue ptr, unsigned align) {
  MlirValue ops[2] = {v, ptr};
  char attrs[64];
  snprintf(attrs, sizeof attrs, "{alignment = %u : i64, ordering = 0 : i64}",
           align);
  cb_op(b, "llvm.store", 2, ops, 0, NULL, attrs, 0, NULL);
}

static MlirValue load(struct cb *b, MlirValue ptr, MlirType t, unsigned align) {
  char attrs[64];
  snprintf(attrs, sizeof attrs, "{alignment = %u : i64, ordering = 0 : i64}",
           align);
  return cb_val(b, "llvm.load", 1, &ptr, t, attrs);
}

static unsigned value_align(MlirType storage) {
  unsigned a = coro_storage_align(storage);
  return a > CORO_SWITCH_PROMISE_ALIGN ? CORO_SWITCH_PROMISE_ALIGN : a;
}

/* Calls the function `sym` (a flat symbol ref; an llvm.func, or a
 * func.func when `is_func`). The callee is set as an attribute, never
 * printed and parsed, so any symbol name works. */
static MlirValue call(struct cb *b, MlirAttribute sym, bool is_func, intptr_t n,
                      const MlirValue *args, MlirType result) {
  char attrs[256];
  if (is_func)
    attrs[0] = '\0';
  else
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

/* The coroutine's flat symbol ref attribute `attr` (null when absent). */
static MlirAttribute sym_attr(MlirOperation func, const char *attr) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString(attr));
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

/* coro.alloc: "heap" (default) or "elide". "elide" marks the ramp
 * alwaysinline: once CoroSplit has split it, the inliner puts the ramp in
 * every caller, where LLVM's CoroElide replaces the allocation with a frame
 * on the caller's stack (the frontend asserted the handle does not outlive
 * the caller). At -O0 LLVM neither inlines nor elides: the frame stays on
 * the heap. */
static MlirLogicalResult alloc_kind(struct coro_fn *fn, struct sw_state *st) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      fn->func, mlirStringRefCreateFromCString("coro.alloc"));
  if (mlirAttributeIsNull(a))
    return mlirLogicalResultSuccess();
  if (mlirAttributeIsAString(a)) {
    MlirStringRef v = mlirStringAttrGetValue(a);
    if (coro_ref_eq(v, "heap"))
      return mlirLogicalResultSuccess();
    if (coro_ref_eq(v, "elide")) {
      st->elide = true;
      return mlirLogicalResultSuccess();
    }
  }
  mlirEmitError(mlirOperationGetLocation(fn->func),
                "the switch ABI supports coro.alloc = \"heap\" or "
                "\"elide\" (or coro.alloc_fn/coro.free_fn)");
  return mlirLogicalResultFailure();
}

static MlirLogicalResult alloc_fns(struct coro_fn *fn, struct sw_state *st,
                                   MlirAttribute *alloc_fn,
                                   bool *alloc_is_func) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  *alloc_fn = sym_attr(fn->func, "coro.alloc_fn");
  st->free_fn = sym_attr(fn->func, "coro.free_fn");
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  if (mlirAttributeIsNull(*alloc_fn) != mlirAttributeIsNull(st->free_fn)) {
    mlirEmitError(loc, "coro.alloc_fn and coro.free_fn must be given "
                       "together (as flat symbol references)");
    return mlirLogicalResultFailure();
  }
  if (mlirAttributeIsNull(*alloc_fn)) {
    *alloc_fn =
        mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString("malloc"));
    st->free_fn =
        mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString("free"));
  }
  *alloc_is_func = symbol_is_func(fn->module, *alloc_fn);
  st->free_is_func = symbol_is_func(fn->module, st->free_fn);
  if ((!*alloc_is_func &&
       !coro_declare_func(fn->module, *alloc_fn, "(i64) -> !llvm.ptr", loc)) ||
      (!st->free_is_func &&
       !coro_declare_func(fn->module, st->free_fn, "(!llvm.ptr)", loc)))
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}

/* Entry allocas: the promise and the destroy flag. */
static void emit_allocas(struct coro_fn *fn, struct sw_state *st) {
  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn->func, 0));
  struct cb b = cb_before(mlirBlockGetFirstOperation(entry));
  MlirValue one = cb_const_int(&b, 64, 1);
  struct coro_str ty = coro_type_str(st->promise_type);
  char *attrs = malloc(ty.len + 64);
  sprintf(attrs, "{alignment = %d : i64, elem_type = %s}",
          CORO_SWITCH_PROMISE_ALIGN, coro_str_cstr(&ty));
  st->promise = cb_val(&b, "llvm.alloca", 1, &one, cb_ptr(b.ctx), attrs);
  free(attrs);
  coro_str_free(&ty);
  st->flag = cb_val(&b, "llvm.alloca", 1, &one, cb_ptr(b.ctx),
                    "{alignment = 1 : i64, elem_type = i1}");
}

/* The cleanup and suspend-return blocks, at the end of the body. */
static void emit_exits(struct coro_fn *fn, struct sw_state *st,
                       MlirLocation loc) {
  MlirRegion body = mlirOperationGetRegion(fn->func, 0);
  MlirContext ctx = mlirLocationGetContext(loc);
  st->cleanup = coro_new_block(body, 0, NULL, loc);
  MlirBlock free_blk = coro_new_block(body, 0, NULL, loc);
  st->ret = coro_new_block(body, 0, NULL, loc);
  st->unreachable = coro_new_block(body, 0, NULL, loc);

  struct cb b = cb_at_end(st->cleanup, loc);
  MlirValue fops[2] = {st->id, st->hdl};
  MlirValue mem = cb_val(&b, "llvm.intr.coro.free", 2, fops, cb_ptr(ctx), NULL);
  MlirValue cmp[2] = {mem, cb_null(&b)};
  MlirValue nonnull =
      cb_val(&b, "llvm.icmp", 2, cmp, cb_int(ctx, 1), "{predicate = 1 : i64}");
  cb_cond_br(&b, nonnull, free_blk, st->ret);

  b = cb_at_end(free_blk, loc);
  call(&b, st->free_fn, st->free_is_func, 1, &mem, (MlirType){NULL});
  cb_br(&b, st->ret, 0, NULL);

  b = cb_at_end(st->ret, loc);
  MlirValue eops[3] = {
      st->hdl, cb_const_int(&b, 1, 0),
      cb_val(&b, "llvm.mlir.none", 0, NULL, cb_type(ctx, "!llvm.token"), NULL)};
  cb_intrinsic(&b, "llvm.coro.end", 3, eops, (MlirType){NULL});
  cb_op(&b, "func.return", 1, &st->hdl, 0, NULL, NULL, 0, NULL);

  b = cb_at_end(st->unreachable, loc);
  cb_op(&b, "llvm.unreachable", 0, NULL, 0, NULL, NULL, 0, NULL);
}

/* Adds "presplitcoroutine" (and "alwaysinline" for elide) to the function's
 * passthrough attributes, keeping those already there. */
static void mark_presplit(MlirOperation func, bool elide) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirStringRef key = mlirStringRefCreateFromCString("passthrough");
  MlirAttribute old = mlirOperationGetAttributeByName(func, key);
  intptr_t n = !mlirAttributeIsNull(old) && mlirAttributeIsAArray(old)
                   ? mlirArrayAttrGetNumElements(old)
                   : 0;
  MlirAttribute *elems = malloc((size_t)(n + 2) * sizeof *elems);
  for (intptr_t i = 0; i < n; ++i)
    elems[i] = mlirArrayAttrGetElement(old, i);
  elems[n++] = mlirStringAttrGet(
      ctx, mlirStringRefCreateFromCString("presplitcoroutine"));
  if (elide)
    elems[n++] =
        mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("alwaysinline"));
  mlirOperationSetAttributeByName(func, key, mlirArrayAttrGet(ctx, n, elems));
  free(elems);
}

/* The promise's value field: the storage type of T (i8 for none). */
static MlirLogicalResult promise_layout(struct coro_fn *fn,
                                        struct sw_state *st) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  st->value_storage = coroTypeIsNone(fn->value_type)
                          ? cb_int(ctx, 8)
                          : coro_storage_type(fn->value_type);
  if (mlirTypeIsNull(st->value_storage)) {
    struct coro_str t = coro_type_str(fn->value_type);
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "values of type ");
    coro_str_appendz(&msg, coro_str_cstr(&t));
    coro_str_appendz(&msg, " cannot be published by a switch coroutine");
    mlirEmitError(mlirOperationGetLocation(fn->func), coro_str_cstr(&msg));
    coro_str_free(&msg);
    coro_str_free(&t);
    return mlirLogicalResultFailure();
  }
  MlirType fields[2] = {cb_ptr(ctx), st->value_storage};
  st->promise_type = mlirLLVMStructTypeLiteralGet(ctx, 2, fields, false);
  return mlirLogicalResultSuccess();
}

/* Replaces coro.begin with coro.id, coro.alloc ? alloc_fn(coro.size) :
 * null, coro.begin, and initializes the continuation and the flag. */
static void emit_begin(struct coro_fn *fn, struct sw_state *st,
                       MlirAttribute alloc_fn, bool alloc_is_func) {
  MlirLocation loc = mlirOperationGetLocation(fn->begin);
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirBlock after = coro_split_after(fn->begin);
  MlirBlock head = mlirOperationGetBlock(fn->begin);
  struct cb b = cb_before(fn->begin);
  MlirValue null = cb_null(&b);
  MlirValue idops[4] = {cb_const_int(&b, 32, 0), st->promise, null, null};
  st->id = cb_val(&b, "llvm.intr.coro.id", 4, idops,
                  cb_type(ctx, "!llvm.token"), NULL);
  MlirValue need =
      cb_intrinsic(&b, "llvm.coro.alloc", 1, &st->id, cb_int(ctx, 1));
  MlirType ptr = cb_ptr(ctx);
  MlirBlock alloc_blk = block_after(head, 0, NULL, loc);
  MlirBlock begin_blk = block_after(alloc_blk, 1, &ptr, loc);
  MlirValue brops[2] = {need, null};
  MlirBlock succ[2] = {alloc_blk, begin_blk};
  cb_op(&b, "llvm.cond_br", 2, brops, 0, NULL,
        "{operandSegmentSizes = array<i32: 1, 0, 1>}", 2, succ);

  b = cb_at_end(alloc_blk, loc);
  MlirValue size =
      cb_val(&b, "llvm.intr.coro.size", 0, NULL, cb_int(ctx, 64), NULL);
  MlirValue mem = call(&b, alloc_fn, alloc_is_func, 1, &size, ptr);
  cb_br(&b, begin_blk, 1, &mem);

  b = cb_at_end(begin_blk, loc);
  MlirValue bops[2] = {st->id, mlirBlockGetArgument(begin_blk, 0)};
  st->hdl = cb_val(&b, "llvm.intr.coro.begin", 2, bops, ptr, NULL);
  store(&b, cb_null(&b), cb_field(&b, st->promise, st->promise_type, 0), 8);
  store(&b, cb_const_int(&b, 1, 0), st->flag, 1);
  cb_br(&b, after, 0, NULL);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fn->begin, 0), st->hdl);
  mlirOperationDestroy(fn->begin);
}

static MlirLogicalResult sw_prepare(struct coro_fn *fn) {
  struct sw_state *st = calloc(1, sizeof *st);
  fn->abi_state = st;
  MlirAttribute alloc_fn;
  bool alloc_is_func;
  if (mlirLogicalResultIsFailure(promise_layout(fn, st)) ||
      mlirLogicalResultIsFailure(alloc_kind(fn, st)) ||
      mlirLogicalResultIsFailure(alloc_fns(fn, st, &alloc_fn, &alloc_is_func)))
    return mlirLogicalResultFailure();
  emit_allocas(fn, st);
  emit_begin(fn, st, alloc_fn, alloc_is_func);
  emit_exits(fn, st, mlirOperationGetLocation(fn->func));
  mark_presplit(fn->func, st->elide);
  ensure_wrapper(fn->module, "__coro_switch_await", await_wrapper);
  ensure_wrapper(fn->module, "__coro_switch_final", final_wrapper);
  return mlirLogicalResultSuccess();
}

/* Stores `v` as the published value, checking its type. */
static MlirLogicalResult publish(struct sw_state *st, struct cb *b,
                                 MlirOperation op, MlirValue v) {
  MlirType s = coro_storage_type(mlirValueGetType(v));
  if (mlirTypeIsNull(s) || !mlirTypeEqual(s, st->value_storage)) {
    mlirEmitError(mlirOperationGetLocation(op),
                  "published value does not match the coroutine's handle "
                  "type");
    return mlirLogicalResultFailure();
  }
  store(b, coro_to_storage(b, v), cb_field(b, st->promise, st->promise_type, 1),
        value_align(st->value_storage));
  return mlirLogicalResultSuccess();
}

static MlirValue suspend_point(struct sw_state *st, struct cb *b, bool final,
                               MlirValue awaiter, const char *wrapper) {
  MlirContext ctx = b->ctx;
  MlirValue tok = cb_val(b, "llvm.intr.coro.save", 1, &st->hdl,
                         cb_type(ctx, "!llvm.token"), NULL);
  if (wrapper) {
    char attrs[96];
    snprintf(attrs, sizeof attrs, "{global_name = @%s}", wrapper);
    MlirValue fp =
        cb_val(b, "llvm.mlir.addressof", 0, NULL, cb_ptr(ctx), attrs);
    MlirValue ops[3] = {awaiter, st->hdl, fp};
    cb_intrinsic(b, "llvm.coro.await.suspend.handle", 3, ops, (MlirType){NULL});
  }
  MlirValue sops[2] = {tok, cb_const_int(b, 1, final)};
  return cb_val(b, "llvm.intr.coro.suspend", 2, sops, cb_int(ctx, 8), NULL);
}

static MlirLogicalResult sw_yield(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct cb b = cb_before(op);
  if (mlirOperationGetNumResults(op) > 1) {
    mlirEmitError(b.loc, "the switch ABI passes no value on resume");
    return mlirLogicalResultFailure();
  }
  if (mlirOperationGetNumOperands(op) == 1 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 0))))
    return mlirLogicalResultFailure();
  MlirValue r = suspend_point(st, &b, false, (MlirValue){NULL}, NULL);
  MlirBlock next = coro_split_after(op);
  MlirValue destroyed = mlirOperationGetResult(op, 0);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(destroyed))) {
    cb_switch01(&b, r, st->ret, next, (MlirValue){NULL}, st->cleanup,
                (MlirValue){NULL});
  } else {
    MlirValue arg = mlirBlockAddArgument(next, cb_int(b.ctx, 1), b.loc);
    mlirValueReplaceAllUsesOfWith(destroyed, arg);
    MlirBlock dblk = block_after(mlirOperationGetBlock(op), 0, NULL, b.loc);
    MlirValue no = cb_const_int(&b, 1, 0);
    cb_switch01(&b, r, st->ret, next, no, dblk, (MlirValue){NULL});
    struct cb d = cb_at_end(dblk, b.loc);
    MlirValue yes = cb_const_int(&d, 1, 1);
    store(&d, yes, st->flag, 1);
    cb_br(&d, next, 1, &yes);
  }
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult sw_await(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct cb b = cb_before(op);
  MlirValue aw = mlirOperationGetOperand(op, 0);
  MlirValue done = cb_intrinsic(&b, "llvm.coro.done", 1, &aw, cb_int(b.ctx, 1));
  MlirBlock next = coro_split_after(op);
  MlirBlock susp = block_after(mlirOperationGetBlock(op), 0, NULL, b.loc);
  cb_cond_br(&b, done, next, susp);
  struct cb s = cb_at_end(susp, b.loc);
  MlirValue r = suspend_point(st, &s, false, aw, "__coro_switch_await");
  cb_switch01(&s, r, st->ret, next, (MlirValue){NULL}, st->cleanup,
              (MlirValue){NULL});
  if (mlirOperationGetNumResults(op) == 1) {
    MlirValue res = mlirOperationGetResult(op, 0);
    MlirType t = mlirValueGetType(res);
    MlirType storage = coro_storage_type(t);
    if (mlirTypeIsNull(storage)) {
      mlirEmitError(b.loc, "awaited result type cannot be stored");
      return mlirLogicalResultFailure();
    }
    struct cb c = cb_before(mlirBlockGetFirstOperation(next));
    MlirType fields[2] = {cb_ptr(b.ctx), storage};
    MlirType pty = mlirLLVMStructTypeLiteralGet(b.ctx, 2, fields, false);
    MlirValue pops[3] = {aw, cb_const_int(&c, 32, CORO_SWITCH_PROMISE_ALIGN),
                         cb_const_int(&c, 1, 0)};
    MlirValue p =
        cb_val(&c, "llvm.intr.coro.promise", 3, pops, cb_ptr(b.ctx), NULL);
    MlirValue v =
        load(&c, cb_field(&c, p, pty, 1), storage, value_align(storage));
    mlirValueReplaceAllUsesOfWith(res, coro_from_storage(&c, v, t));
  }
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult sw_end(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct cb b = cb_before(op);
  MlirOperation ret = mlirOperationGetNextInBlock(op);
  if (mlirOperationIsNull(ret) || !coro_op_named(ret, "func.return")) {
    mlirEmitError(b.loc, "coro.end must be followed by func.return");
    return mlirLogicalResultFailure();
  }
  if (mlirOperationGetNumOperands(op) == 2 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 1))))
    return mlirLogicalResultFailure();
  mlirOperationDestroy(ret);
  MlirValue destroying = load(&b, st->flag, cb_int(b.ctx, 1), 1);
  MlirBlock fin = block_after(mlirOperationGetBlock(op), 0, NULL, b.loc);
  cb_cond_br(&b, destroying, st->cleanup, fin);
  struct cb f = cb_at_end(fin, b.loc);
  MlirValue r = suspend_point(st, &f, true, st->hdl, "__coro_switch_final");
  cb_switch01(&f, r, st->ret, st->unreachable, (MlirValue){NULL}, st->cleanup,
              (MlirValue){NULL});
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult sw_self(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), st->hdl);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static void sw_finish(struct coro_fn *fn) { free(fn->abi_state); }

static MlirLogicalResult sw_consumer(MlirOperation module, MlirOperation op) {
  struct cb b = cb_before(op);
  MlirContext ctx = b.ctx;
  MlirValue h = mlirOperationGetNumOperands(op) ? mlirOperationGetOperand(op, 0)
                                                : (MlirValue){NULL};
  MlirValue repl = {NULL};
  if (coro_op_named(op, "coro.resume")) {
    if (mlirOperationGetNumOperands(op) > 1) {
      mlirEmitError(b.loc, "the switch ABI passes no value on resume");
      return mlirLogicalResultFailure();
    }
    cb_val(&b, "llvm.intr.coro.resume", 1, &h, (MlirType){NULL}, NULL);
  } else if (coro_op_named(op, "coro.destroy")) {
    cb_intrinsic(&b, "llvm.coro.destroy", 1, &h, (MlirType){NULL});
  } else if (coro_op_named(op, "coro.done")) {
    repl = cb_intrinsic(&b, "llvm.coro.done", 1, &h, cb_int(ctx, 1));
  } else if (coro_op_named(op, "coro.noop")) {
    repl = cb_intrinsic(&b, "llvm.coro.noop", 0, NULL, cb_ptr(ctx));
  } else if (coro_op_named(op, "coro.promise")) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    MlirType storage = coro_storage_type(t);
    if (mlirTypeIsNull(storage)) {
      mlirEmitError(b.loc, "coro.promise result type cannot be stored");
      return mlirLogicalResultFailure();
    }
    MlirType fields[2] = {cb_ptr(ctx), storage};
    MlirType pty = mlirLLVMStructTypeLiteralGet(ctx, 2, fields, false);
    MlirValue pops[3] = {h, cb_const_int(&b, 32, CORO_SWITCH_PROMISE_ALIGN),
                         cb_const_int(&b, 1, 0)};
    MlirValue p =
        cb_val(&b, "llvm.intr.coro.promise", 3, pops, cb_ptr(ctx), NULL);
    MlirValue v =
        load(&b, cb_field(&b, p, pty, 1), storage, value_align(storage));
    repl = coro_from_storage(&b, v, t);
  }
  if (!mlirValueIsNull(repl))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), repl);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static const struct coro_abi switch_abi = {
    .name = "switch",
    .prepare = sw_prepare,
    .lower_yield = sw_yield,
    .lower_await = sw_await,
    .lower_end = sw_end,
    .lower_self = sw_self,
    .finish = sw_finish,
    .lower_consumer = sw_consumer,
};

MlirLogicalResult coro_convert_to_llvm_switch_run(MlirOperation module) {
  return coro_abi_convert(module, &switch_abi);
}
