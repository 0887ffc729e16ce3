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
 * alignment is the same constant (CORO_PROMISE_OFFSET) everywhere, so
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

struct sw_state {
  MlirType promise_type; /* !llvm.struct<(ptr, S)> */
  MlirType value_storage;
  MlirValue promise, flag, id, hdl;
  MlirBlock cleanup, ret, unreachable;
  struct coro_allocator alloc;
  bool aligned_alloc; /* malloc/free: over-aligned frames from aligned_alloc */
  bool elide;         /* coro.alloc = "elide" */
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

/* Entry allocas: the promise and the destroy flag. */
static void emit_allocas(struct coro_fn *fn, struct sw_state *st) {
  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn->func, 0));
  struct cb b = cb_before(mlirBlockGetFirstOperation(entry));
  MlirValue one = cb_const_int(&b, 64, 1);
  struct coro_str ty = coro_type_str(st->promise_type);
  char *attrs = malloc(ty.len + 64);
  sprintf(attrs, "{alignment = %d : i64, elem_type = %s}", CORO_PROMISE_OFFSET,
          coro_str_cstr(&ty));
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
  cb_call(&b, st->alloc.free_fn, st->alloc.free_is_func, 1, &mem,
          (MlirType){NULL});
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

/* The promise's value field: the storage type of T (i8 for none). */
static MlirLogicalResult promise_layout(struct coro_fn *fn,
                                        struct sw_state *st) {
  st->value_storage = coro_value_storage(fn->func, fn->value_type, "switch");
  if (mlirTypeIsNull(st->value_storage))
    return mlirLogicalResultFailure();
  st->promise_type =
      coro_promise_type(mlirOperationGetContext(fn->func), st->value_storage);
  return mlirLogicalResultSuccess();
}

/* Replaces coro.begin with coro.id, coro.alloc ? alloc_fn(coro.size) :
 * null, coro.begin, and initializes the continuation and the flag. */
static void emit_begin(struct coro_fn *fn, struct sw_state *st) {
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
  MlirBlock alloc_blk = coro_block_after(head, 0, NULL, loc);
  MlirBlock begin_blk = coro_block_after(alloc_blk, 1, &ptr, loc);
  MlirValue brops[2] = {need, null};
  MlirBlock succ[2] = {alloc_blk, begin_blk};
  cb_op(&b, "llvm.cond_br", 2, brops, 0, NULL,
        "{operandSegmentSizes = array<i32: 1, 0, 1>}", 2, succ);

  b = cb_at_end(alloc_blk, loc);
  MlirType i64 = cb_int(ctx, 64);
  MlirValue size = cb_val(&b, "llvm.intr.coro.size", 0, NULL, i64, NULL);
  if (st->aligned_alloc) {
    /* malloc aligns to 16; a frame that needs more (a vector<8xf32> kept
     * across a suspension) comes from aligned_alloc, whose memory free
     * releases. CoroSplit makes coro.align a constant: one branch stays. */
    MlirValue align = cb_val(&b, "llvm.intr.coro.align", 0, NULL, i64, NULL);
    MlirValue cmp[2] = {align, cb_const_int(&b, 64, 16)};
    MlirValue big = cb_val(&b, "llvm.icmp", 2, cmp, cb_int(ctx, 1),
                           "{predicate = 8 : i64}");
    MlirBlock over = coro_block_after(alloc_blk, 0, NULL, loc);
    MlirBlock plain = coro_block_after(over, 0, NULL, loc);
    cb_cond_br(&b, big, over, plain);
    b = cb_at_end(over, loc);
    MlirValue one = cb_const_int(&b, 64, 1);
    MlirValue am1[2] = {align, one};
    MlirValue mask = cb_val(&b, "llvm.sub", 2, am1, i64,
                            "{overflowFlags = #llvm.overflow<none>}");
    MlirValue sum[2] = {size, mask};
    MlirValue up = cb_val(&b, "llvm.add", 2, sum, i64,
                          "{overflowFlags = #llvm.overflow<none>}");
    MlirValue neg[2] = {cb_const_int(&b, 64, 0), align};
    MlirValue low = cb_val(&b, "llvm.sub", 2, neg, i64,
                           "{overflowFlags = #llvm.overflow<none>}");
    MlirValue andops[2] = {up, low};
    MlirValue rounded = cb_val(&b, "llvm.and", 2, andops, i64, NULL);
    MlirValue args[2] = {align, rounded};
    MlirValue amem =
        cb_call(&b,
                mlirFlatSymbolRefAttrGet(
                    ctx, mlirStringRefCreateFromCString("aligned_alloc")),
                false, 2, args, ptr);
    cb_br(&b, begin_blk, 1, &amem);
    b = cb_at_end(plain, loc);
  }
  MlirValue mem =
      cb_call(&b, st->alloc.alloc_fn, st->alloc.alloc_is_func, 1, &size, ptr);
  cb_br(&b, begin_blk, 1, &mem);

  b = cb_at_end(begin_blk, loc);
  MlirValue bops[2] = {st->id, mlirBlockGetArgument(begin_blk, 0)};
  st->hdl = cb_val(&b, "llvm.intr.coro.begin", 2, bops, ptr, NULL);
  cb_store(&b, cb_null(&b), cb_field(&b, st->promise, st->promise_type, 0), 8);
  cb_store(&b, cb_const_int(&b, 1, 0), st->flag, 1);
  cb_br(&b, after, 0, NULL);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fn->begin, 0), st->hdl);
  mlirOperationDestroy(fn->begin);
}

static MlirLogicalResult sw_prepare(struct coro_fn *fn) {
  struct sw_state *st = calloc(1, sizeof *st);
  fn->abi_state = st;
  if (mlirLogicalResultIsFailure(promise_layout(fn, st)) ||
      mlirLogicalResultIsFailure(alloc_kind(fn, st)) ||
      mlirLogicalResultIsFailure(coro_allocator_get(
          fn->module, fn->func, "malloc", "free", &st->alloc)))
    return mlirLogicalResultFailure();
  st->aligned_alloc =
      mlirAttributeIsNull(coro_sym_attr(fn->func, "coro.alloc_fn"));
  if (st->aligned_alloc &&
      !coro_declare_func(fn->module,
                         mlirFlatSymbolRefAttrGet(
                             mlirOperationGetContext(fn->func),
                             mlirStringRefCreateFromCString("aligned_alloc")),
                         "(i64, i64) -> !llvm.ptr",
                         mlirOperationGetLocation(fn->func)))
    return mlirLogicalResultFailure();
  emit_allocas(fn, st);
  emit_begin(fn, st);
  emit_exits(fn, st, mlirOperationGetLocation(fn->func));
  static const char *const plain[] = {"presplitcoroutine", NULL};
  static const char *const inlined[] = {"presplitcoroutine", "alwaysinline",
                                        NULL};
  coro_add_passthrough(fn->func, st->elide ? inlined : plain);
  coro_ensure_func(fn->module, "__coro_switch_await", await_wrapper);
  coro_ensure_func(fn->module, "__coro_switch_final", final_wrapper);
  return mlirLogicalResultSuccess();
}

/* Stores `v` as the published value, checking its type. */
static MlirLogicalResult publish(struct sw_state *st, struct cb *b,
                                 MlirOperation op, MlirValue v) {
  MlirValue s = coro_published(b, op, v, st->value_storage);
  if (mlirValueIsNull(s))
    return mlirLogicalResultFailure();
  cb_store(b, s, cb_field(b, st->promise, st->promise_type, 1),
           coro_value_align(st->value_storage));
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
    MlirBlock dblk =
        coro_block_after(mlirOperationGetBlock(op), 0, NULL, b.loc);
    MlirValue no = cb_const_int(&b, 1, 0);
    cb_switch01(&b, r, st->ret, next, no, dblk, (MlirValue){NULL});
    struct cb d = cb_at_end(dblk, b.loc);
    MlirValue yes = cb_const_int(&d, 1, 1);
    cb_store(&d, yes, st->flag, 1);
    cb_br(&d, next, 1, &yes);
  }
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult sw_await(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct cb b = cb_before(op);
  MlirValue aw = mlirOperationGetOperand(op, 0);
  MlirBlock next, check;
  MlirBlock susp = coro_await_split(&b, op, aw, &next, &check);
  struct cb s = cb_at_end(susp, b.loc);
  MlirValue r = suspend_point(st, &s, false, aw, "__coro_switch_await");
  cb_switch01(&s, r, st->ret, check, (MlirValue){NULL}, st->cleanup,
              (MlirValue){NULL});
  MlirLogicalResult res = coro_await_result(op, aw, next);
  mlirOperationDestroy(op);
  return res;
}

static MlirLogicalResult sw_end(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct cb b = cb_before(op);
  MlirOperation ret = coro_end_return(op);
  if (mlirOperationIsNull(ret))
    return mlirLogicalResultFailure();
  if (mlirOperationGetNumOperands(op) == 2 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 1))))
    return mlirLogicalResultFailure();
  mlirOperationDestroy(ret);
  MlirValue destroying = cb_load(&b, st->flag, cb_int(b.ctx, 1), 1);
  MlirBlock fin = coro_block_after(mlirOperationGetBlock(op), 0, NULL, b.loc);
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

static const struct coro_abi switch_abi = {
    .name = "switch",
    .prepare = sw_prepare,
    .lower_yield = sw_yield,
    .lower_await = sw_await,
    .lower_end = sw_end,
    .lower_self = sw_self,
    .finish = sw_finish,
    .lower_consumer = coro_lower_consumer_hook,
};

MlirLogicalResult coro_convert_to_llvm_switch_run(MlirOperation module) {
  return coro_abi_convert(module, &switch_abi);
}
