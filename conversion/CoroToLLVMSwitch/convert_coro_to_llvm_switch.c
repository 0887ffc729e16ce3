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
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

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
  MlirBlock final; /* the one final suspension every coro.end reaches */
  struct coro_allocator alloc;
  bool aligned_alloc; /* malloc/free: over-aligned frames from aligned_alloc */
  bool elide;         /* coro.alloc = "elide" */
};

/* Dispatch on the i8 of llvm.intr.coro.suspend: default (suspended) to
 * `dflt`, 0 (resumed) to `case0`, 1 (destroyed) to `case1`, each case
 * passing at most one argument (null for none). */
static void switch01(struct ir_builder *b, MlirValue v, MlirBlock dflt,
                     MlirBlock case0, MlirValue arg0, MlirBlock case1,
                     MlirValue arg1) {
  static const int64_t values[2] = {0, 1};
  MlirBlock cases[2] = {case0, case1};
  MlirValue args[2] = {arg0, arg1};
  ir_switch(b, v, dflt, 2, values, cases, args);
}

/* The promise of `h`: llvm.intr.coro.promise %h, 16, false. */
static MlirValue promise_ptr(struct ir_builder *b, MlirValue h) {
  MlirValue ops[3] = {h, ir_const_int(b, 32, CORO_PROMISE_OFFSET),
                      ir_const_int(b, 1, 0)};
  return ir_val(b, "llvm.intr.coro.promise", 3, ops, ir_ptr_type(b->ctx));
}

/* The wrappers of llvm.coro.await.suspend.handle, one per module, at the
 * location of the first coroutine that needs them:
 *
 *   llvm.func internal @__coro_switch_await(%awaited, %self) -> !llvm.ptr {
 *     if %awaited == %self or %awaited == llvm.coro.noop():
 *       llvm.return llvm.coro.noop()   // never continues: stay suspended
 *     publish %self as promise(%awaited).continuation (coro_publish_awaiter)
 *     ^go: llvm.return %awaited
 *     ^ended: llvm.return %self        // a scheduled task that has ended
 *                                      // (its entry must not be called)
 *   }
 *   llvm.func internal @__coro_switch_final(%unused, %self) -> !llvm.ptr {
 *     %c = promise(%self).continuation
 *     llvm.return %c ? %c : llvm.coro.noop()
 *   }
 */
/* Whether `name` is free for the wrapper, or already is one (an internal
 * llvm.func an earlier coroutine of the module got); else an error at the
 * symbol that takes it. */
static bool wrapper_name_ok(MlirOperation module, const char *name) {
  MlirOperation other =
      coro_lookup_symbol(module, mlirStringRefCreateFromCString(name));
  if (mlirOperationIsNull(other))
    return true;
  MlirAttribute linkage = mlirOperationGetAttributeByName(
      other, mlirStringRefCreateFromCString("linkage"));
  if (coro_op_named(other, "llvm.func") && !mlirAttributeIsNull(linkage) &&
      mlirAttributeEqual(linkage,
                         mlirLLVMLinkageAttrGet(mlirOperationGetContext(other),
                                                MlirLLVMLinkageInternal)))
    return true;
  struct coro_str msg = {0};
  coro_str_appendz(&msg, "the switch lowering needs the symbol '");
  coro_str_appendz(&msg, name);
  coro_str_appendz(&msg, "' for its own helper, but it is already taken");
  mlirEmitError(mlirOperationGetLocation(other), coro_str_cstr(&msg));
  coro_str_free(&msg);
  return false;
}

static void emit_wrapper(MlirOperation module, const char *name, bool final,
                         MlirLocation loc) {
  if (!mlirOperationIsNull(
          coro_lookup_symbol(module, mlirStringRefCreateFromCString(name))))
    return;
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType ptr = ir_ptr_type(ctx);
  MlirType args[2] = {ptr, ptr};
  struct ir_func_spec spec = {.name = name,
                              .result = ptr,
                              .nargs = 2,
                              .args = args,
                              .linkage = MlirLLVMLinkageInternal};
  loc = ir_generated_loc(loc, name);
  MlirOperation f = ir_llvm_func(module, &spec, false, loc);
  MlirBlock entry = ir_func_entry(f);
  MlirValue a0 = mlirBlockGetArgument(entry, 0);
  MlirValue self = mlirBlockGetArgument(entry, 1);
  struct ir_builder b = ir_at_end(entry, loc);
  if (!final) {
    /* awaiting itself or coro.noop would never continue: stay suspended
     * (resume the noop coroutine) and write nothing into either frame */
    MlirValue nop = ir_intrinsic(&b, "llvm.coro.noop", 0, NULL, ptr);
    MlirValue is_self = ir_icmp(&b, IR_EQ, a0, self);
    MlirValue is_nop = ir_icmp(&b, IR_EQ, a0, nop);
    MlirValue never = ir_binop(&b, "or", is_self, is_nop);
    MlirBlock park = ir_block_after(entry, 0, NULL, loc);
    MlirBlock link = ir_block_after(park, 0, NULL, loc);
    ir_cond_br(&b, never, park, link);
    b = ir_at_end(park, loc);
    ir_return(&b, nop);
    b = ir_at_end(link, loc);
    MlirBlock go = ir_block_after(link, 0, NULL, loc);
    MlirBlock ended = ir_block_after(go, 0, NULL, loc);
    coro_publish_awaiter(&b, coro_module_is_device(module), a0, self, go,
                         ended);
    b = ir_at_end(go, loc);
    ir_return(&b, a0);
    /* a scheduled task that ended since coro.done said otherwise: resume
     * the awaiter at once (its entry must not be called) */
    b = ir_at_end(ended, loc);
    ir_return(&b, self);
    return;
  }
  MlirValue c = ir_load(&b, promise_ptr(&b, self), ptr, 8);
  MlirBlock noop = ir_block_after(entry, 0, NULL, loc);
  MlirBlock cont = ir_block_after(noop, 0, NULL, loc);
  ir_cond_br(&b, ir_icmp(&b, IR_EQ, c, ir_null(&b)), noop, cont);
  b = ir_at_end(noop, loc);
  ir_return(&b, ir_intrinsic(&b, "llvm.coro.noop", 0, NULL, ptr));
  b = ir_at_end(cont, loc);
  ir_return(&b, c);
}

/* coro.alloc: "heap" (default) or "elide". "elide" marks the ramp
 * alwaysinline: once CoroSplit has split it, the inliner puts the ramp in
 * every caller, where LLVM's CoroElide replaces the allocation with a frame
 * on the caller's stack (the frontend asserted the handle does not outlive
 * the caller). At -O0 LLVM neither inlines nor elides: the frame stays on
 * the heap. */
static MlirLogicalResult alloc_kind(struct coro_fn *fn, struct sw_state *st) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      fn->func, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
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
  struct ir_builder b = ir_before(mlirBlockGetFirstOperation(entry));
  MlirValue one = ir_const_int(&b, 64, 1);
  st->promise = ir_alloca(&b, one, st->promise_type, CORO_PROMISE_OFFSET);
  st->flag = ir_alloca(&b, one, ir_int_type(b.ctx, 1), 1);
  /* true only on a destroy path, which never suspends again: coro-split
   * reads it as false where no destroy path runs (the ramp, NAME.resume) */
  mlirOperationSetAttributeByName(
      mlirOpResultGetOwner(st->flag),
      mlirStringRefCreateFromCString(CORO_DESTROY_FLAG_ATTR),
      mlirUnitAttrGet(b.ctx));
}

/* The cleanup and suspend-return blocks, at the end of the body. */
static void emit_exits(struct coro_fn *fn, struct sw_state *st,
                       MlirLocation loc) {
  MlirRegion body = mlirOperationGetRegion(fn->func, 0);
  MlirContext ctx = mlirLocationGetContext(loc);
  st->cleanup = ir_new_block(body, 0, NULL, loc);
  MlirBlock free_blk = ir_new_block(body, 0, NULL, loc);
  st->ret = ir_new_block(body, 0, NULL, loc);
  st->unreachable = ir_new_block(body, 0, NULL, loc);

  struct ir_builder b = ir_at_end(st->cleanup, loc);
  MlirValue fops[2] = {st->id, st->hdl};
  MlirValue mem = ir_val(&b, "llvm.intr.coro.free", 2, fops, ir_ptr_type(ctx));
  MlirValue nonnull = ir_icmp(&b, IR_NE, mem, ir_null(&b));
  ir_cond_br(&b, nonnull, free_blk, st->ret);

  b = ir_at_end(free_blk, loc);
  ir_call(&b, st->alloc.free_fn, st->alloc.free_is_func, 1, &mem,
          (MlirType){NULL});
  ir_br(&b, st->ret, 0, NULL);

  b = ir_at_end(st->ret, loc);
  MlirValue eops[3] = {st->hdl, ir_const_int(&b, 1, 0), ir_none_token(&b)};
  ir_intrinsic(&b, "llvm.coro.end", 3, eops, (MlirType){NULL});
  ir_op(&b, "func.return", 1, &st->hdl, 0, NULL, 0, NULL, 0, NULL);

  b = ir_at_end(st->unreachable, loc);
  ir_unreachable(&b);
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
  MlirBlock after = ir_split_after(fn->begin);
  MlirBlock head = mlirOperationGetBlock(fn->begin);
  struct ir_builder b = ir_before(fn->begin);
  MlirValue null = ir_null(&b);
  MlirValue idops[4] = {ir_const_int(&b, 32, 0), st->promise, null, null};
  st->id = ir_val(&b, "llvm.intr.coro.id", 4, idops, ir_token_type(ctx));
  MlirValue need =
      ir_intrinsic(&b, "llvm.coro.alloc", 1, &st->id, ir_int_type(ctx, 1));
  MlirType ptr = ir_ptr_type(ctx);
  MlirBlock alloc_blk = ir_block_after(head, 0, NULL, loc);
  MlirBlock begin_blk = ir_block_after(alloc_blk, 1, &ptr, loc);
  ir_cond_br_args(&b, need, alloc_blk, 0, NULL, begin_blk, 1, &null);

  b = ir_at_end(alloc_blk, loc);
  MlirType i64 = ir_int_type(ctx, 64);
  MlirValue size = ir_val(&b, "llvm.intr.coro.size", 0, NULL, i64);
  if (st->aligned_alloc) {
    /* malloc aligns to 16; a frame that needs more (a vector<8xf32> kept
     * across a suspension) comes from aligned_alloc, whose memory free
     * releases. CoroSplit makes coro.align a constant: one branch stays. */
    MlirValue align = ir_val(&b, "llvm.intr.coro.align", 0, NULL, i64);
    MlirValue big = ir_icmp(&b, IR_UGT, align, ir_const_int(&b, 64, 16));
    MlirBlock over = ir_block_after(alloc_blk, 0, NULL, loc);
    MlirBlock plain = ir_block_after(over, 0, NULL, loc);
    ir_cond_br(&b, big, over, plain);
    b = ir_at_end(over, loc);
    MlirValue mask = ir_binop(&b, "sub", align, ir_const_int(&b, 64, 1));
    MlirValue up = ir_binop(&b, "add", size, mask);
    MlirValue low = ir_binop(&b, "sub", ir_const_int(&b, 64, 0), align);
    MlirValue rounded = ir_binop(&b, "and", up, low);
    MlirValue args[2] = {align, rounded};
    MlirValue amem =
        ir_call(&b,
                mlirFlatSymbolRefAttrGet(
                    ctx, mlirStringRefCreateFromCString("aligned_alloc")),
                false, 2, args, ptr);
    ir_br(&b, begin_blk, 1, &amem);
    b = ir_at_end(plain, loc);
  }
  MlirValue mem =
      ir_call(&b, st->alloc.alloc_fn, st->alloc.alloc_is_func, 1, &size, ptr);
  ir_br(&b, begin_blk, 1, &mem);

  b = ir_at_end(begin_blk, loc);
  MlirValue bops[2] = {st->id, mlirBlockGetArgument(begin_blk, 0)};
  st->hdl = ir_val(&b, "llvm.intr.coro.begin", 2, bops, ptr);
  MlirValue nothing = ir_null(&b); /* built in order: C leaves argument order */
  ir_store(&b, nothing, ir_gep_field(&b, st->promise, st->promise_type, 0), 8);
  ir_store(&b, ir_const_int(&b, 1, 0), st->flag, 1);
  ir_br(&b, after, 0, NULL);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fn->begin, 0), st->hdl);
  mlirOperationDestroy(fn->begin);
}

static MlirLogicalResult sw_prepare(struct coro_fn *fn) {
  struct sw_state *st = ir_xcalloc(1, sizeof *st);
  fn->abi_state = st;
  if (!wrapper_name_ok(fn->module, CORO_SWITCH_AWAIT_WRAPPER) ||
      !wrapper_name_ok(fn->module, CORO_SWITCH_FINAL_WRAPPER) ||
      mlirLogicalResultIsFailure(promise_layout(fn, st)) ||
      mlirLogicalResultIsFailure(alloc_kind(fn, st)) ||
      mlirLogicalResultIsFailure(coro_allocator_get(
          fn->module, fn->func, "malloc", "free", &st->alloc)))
    return mlirLogicalResultFailure();
  st->aligned_alloc = st->alloc.is_default;
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirType i64s[2] = {ir_int_type(ctx, 64), ir_int_type(ctx, 64)};
  if (st->aligned_alloc &&
      !coro_declare_llvm_func(fn->module, ir_sym_ref(ctx, "aligned_alloc"),
                              ir_ptr_type(ctx), 2, i64s,
                              mlirOperationGetLocation(fn->func)))
    return mlirLogicalResultFailure();
  emit_allocas(fn, st);
  emit_begin(fn, st);
  emit_exits(fn, st, mlirOperationGetLocation(fn->func));
  static const char *const plain[] = {"presplitcoroutine", NULL};
  static const char *const inlined[] = {"presplitcoroutine", "alwaysinline",
                                        NULL};
  ir_add_passthrough(fn->func, st->elide ? inlined : plain);
  emit_wrapper(fn->module, CORO_SWITCH_AWAIT_WRAPPER, false,
               mlirOperationGetLocation(fn->func));
  emit_wrapper(fn->module, CORO_SWITCH_FINAL_WRAPPER, true,
               mlirOperationGetLocation(fn->func));
  return mlirLogicalResultSuccess();
}

/* Stores `v` as the published value, checking its type. */
static MlirLogicalResult publish(struct sw_state *st, struct ir_builder *b,
                                 MlirOperation op, MlirValue v) {
  MlirValue s = coro_published(b, op, v, st->value_storage);
  if (mlirValueIsNull(s))
    return mlirLogicalResultFailure();
  ir_store(b, s, ir_gep_field(b, st->promise, st->promise_type, 1),
           coro_value_align(st->value_storage));
  return mlirLogicalResultSuccess();
}

static MlirValue suspend_point(struct sw_state *st, struct ir_builder *b,
                               bool final, MlirValue awaiter,
                               const char *wrapper) {
  MlirContext ctx = b->ctx;
  MlirValue tok =
      ir_val(b, "llvm.intr.coro.save", 1, &st->hdl, ir_token_type(ctx));
  if (wrapper) {
    MlirValue fp = ir_addressof(b, wrapper);
    MlirValue ops[3] = {awaiter, st->hdl, fp};
    ir_intrinsic(b, "llvm.coro.await.suspend.handle", 3, ops, (MlirType){NULL});
  }
  MlirValue sops[2] = {tok, ir_const_int(b, 1, final)};
  return ir_val(b, "llvm.intr.coro.suspend", 2, sops, ir_int_type(ctx, 8));
}

static MlirLogicalResult sw_yield(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct ir_builder b = ir_before(op);
  if (mlirOperationGetNumResults(op) > 1) {
    mlirEmitError(b.loc, "the switch ABI passes no value on resume");
    return mlirLogicalResultFailure();
  }
  if (mlirOperationGetNumOperands(op) == 1 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 0))))
    return mlirLogicalResultFailure();
  MlirValue r = suspend_point(st, &b, false, (MlirValue){NULL}, NULL);
  MlirBlock next = ir_split_after(op);
  MlirValue destroyed = mlirOperationGetResult(op, 0);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(destroyed))) {
    switch01(&b, r, st->ret, next, (MlirValue){NULL}, st->cleanup,
             (MlirValue){NULL});
  } else {
    MlirValue arg = mlirBlockAddArgument(next, ir_int_type(b.ctx, 1), b.loc);
    mlirValueReplaceAllUsesOfWith(destroyed, arg);
    MlirBlock dblk = ir_block_after(mlirOperationGetBlock(op), 0, NULL, b.loc);
    MlirValue no = ir_const_int(&b, 1, 0);
    switch01(&b, r, st->ret, next, no, dblk, (MlirValue){NULL});
    struct ir_builder d = ir_at_end(dblk, b.loc);
    MlirValue yes = ir_const_int(&d, 1, 1);
    ir_store(&d, yes, st->flag, 1);
    ir_br(&d, next, 1, &yes);
  }
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult sw_await(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct ir_builder b = ir_before(op);
  MlirValue aw = mlirOperationGetOperand(op, 0);
  MlirBlock next, check;
  MlirBlock susp = coro_await_split(&b, op, aw, &next, &check);
  struct ir_builder s = ir_at_end(susp, b.loc);
  MlirValue r = suspend_point(st, &s, false, aw, CORO_SWITCH_AWAIT_WRAPPER);
  switch01(&s, r, st->ret, check, (MlirValue){NULL}, st->cleanup,
           (MlirValue){NULL});
  MlirLogicalResult res = coro_await_result(op, aw, next);
  mlirOperationDestroy(op);
  return res;
}

static MlirLogicalResult sw_end(struct coro_fn *fn, MlirOperation op) {
  struct sw_state *st = fn->abi_state;
  struct ir_builder b = ir_before(op);
  MlirOperation ret = coro_end_return(op);
  if (mlirOperationIsNull(ret))
    return mlirLogicalResultFailure();
  if (mlirOperationGetNumOperands(op) == 2 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 1))))
    return mlirLogicalResultFailure();
  mlirOperationDestroy(ret);
  MlirValue destroying = ir_load(&b, st->flag, ir_int_type(b.ctx, 1), 1);
  /* LLVM allows one final suspension: every coro.end branches to it */
  bool first = mlirBlockIsNull(st->final);
  if (first)
    st->final = ir_block_after(mlirOperationGetBlock(op), 0, NULL, b.loc);
  ir_cond_br(&b, destroying, st->cleanup, st->final);
  if (first) {
    struct ir_builder f = ir_at_end(st->final, b.loc);
    MlirValue r =
        suspend_point(st, &f, true, st->hdl, CORO_SWITCH_FINAL_WRAPPER);
    switch01(&f, r, st->ret, st->unreachable, (MlirValue){NULL}, st->cleanup,
             (MlirValue){NULL});
  }
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
};

MlirLogicalResult coro_convert_to_llvm_switch_run(MlirOperation module) {
  return coro_abi_convert(module, &switch_abi);
}
