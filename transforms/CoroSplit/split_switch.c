/* split_switch.c - the switched-resume ABI of --coro-split.
 *
 * NAME (the ramp), NAME.resume, NAME.destroy and NAME.cleanup (internal
 * fastcc void(ptr frame); on the device they return the handle to run
 * next), and NAME.elided(args..., ptr frame) for callers that give the
 * frame. The frame starts with LLVM's header (resume fn at 0, destroy fn
 * at 8), then the promise and the suspension index. A clone is entered
 * through a dispatch block that switches on the index to the suspension's
 * landing. NAME.resume takes the coroutine's own ops rather than copying
 * them (split_resume_in_place); the ramp is copied back first.
 *
 * Semantics kept from LLVM: values are stored at llvm.coro.save (the
 * await.suspend wrapper between save and suspend may resume the coroutine
 * elsewhere); a final suspension clears the resume pointer (coro.done);
 * NAME.cleanup is NAME.destroy with llvm.coro.free returning null;
 * await.suspend.handle ends in a musttail call to the next coroutine's
 * resume function when the suspended path returns at once. */
#include "coro-runtime/HandleLayout.h"
#include "ir/blocks.h"
#include "ir/cfg.h"
#include "ir/fold.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "transforms/CoroSplit/frame_debug.h"
#include "transforms/CoroSplit/split_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdlib.h>

/* True when the suspended (-1) path of `s` goes straight to the fall-through
 * coro.end, so nothing runs between the suspension and the return. */
static bool returns_at_once(const struct coro_suspend *s) {
  intptr_t k = coro_suspend_target(s, -1);
  if (k < 0)
    return false;
  MlirOperation term =
      mlirBlockGetTerminator(mlirOperationGetBlock(s->suspend));
  MlirBlock dest = mlirOperationGetSuccessor(term, k);
  for (MlirOperation op = mlirBlockGetFirstOperation(dest);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (ir_op_is_constant(op))
      continue;
    if (coro_intr_classify(op) != CI_END)
      return false;
    int64_t unwind = 1;
    ir_const_int_value(mlirOperationGetOperand(op, 1), &unwind);
    return !unwind;
  }
  return false;
}

static void store_state(struct variant_state *vs, size_t i, MlirOperation at) {
  struct split *sp = vs->sp;
  split_store_kept(vs, i, at);
  struct ir_builder b = ir_before(at);
  MlirValue index = ir_const_int(&b, sp->layout.index_width, (long long)i);
  MlirOperation st = split_store_field(vs, &b, index, sp->layout.index_offset,
                                       sp->layout.index_width / 8);
  if (vs->index_store)
    vs->index_store[i] = st;
  /* A final suspension marks the coroutine done before anything it calls
   * can look; a save in another block may not reach the suspend, so then
   * the mark waits for the suspend itself. */
  const struct coro_suspend *s = &vs->shape.susp[i];
  if (s->final) {
    if (!mlirBlockEqual(mlirOperationGetBlock(at),
                        mlirOperationGetBlock(s->suspend)))
      b = ir_before(s->suspend);
    split_mark_done(vs, &b);
  }
}

/* Before the ops after `suspend` go (a clone's suspension that ends in a
 * tail call): the values among them that its landing copied for uses in
 * other blocks, variant_state.tail_v from `first` on, become poison in
 * the suspend's block, which the SSA repair takes for their definition on
 * this path, one that returns before any of those uses. */
static void keep_tail_values(struct variant_state *vs, MlirOperation suspend,
                             size_t first) {
  /* at the block's front: the tail call and return stand before the
   * suspend already */
  struct ir_builder b =
      ir_before(mlirBlockGetFirstOperation(mlirOperationGetBlock(suspend)));
  for (size_t j = first; j < vs->ntail; ++j) {
    MlirValue v = vs->tail_v[j];
    MlirValue p = ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(v));
    mlirValueReplaceAllUsesOfWith(v, p);
    vs->tail_v[j] = p;
  }
}

static void rewrite_suspend(struct variant_state *vs, size_t i) {
  struct split *sp = vs->sp;
  const struct coro_suspend *s = &vs->shape.susp[i];
  bool resumable = vs->v == V_DESTROY || vs->v == V_CLEANUP ||
                   (vs->v == V_RESUME && !s->final);
  /* what the landing notes of the suspension's tail (variant_state.tail_v) */
  size_t noted = vs->ntail;
  if (split_is_clone(vs->v) && resumable)
    vs->landing[i] = split_make_landing(vs, i, vs->v == V_RESUME ? 0 : 1);
  /* A save in another block may be reached without the suspend: then the
   * suspension is rewritten all the same, so no save outlives it. */
  if (!vs->live[i] && (mlirOperationIsNull(s->save) ||
                       mlirBlockEqual(mlirOperationGetBlock(s->save),
                                      mlirOperationGetBlock(s->suspend))))
    return; /* its block dies unreached */
  store_state(vs, i, mlirOperationIsNull(s->save) ? s->suspend : s->save);
  MlirValue waited = {NULL};
  if (!mlirOperationIsNull(s->await))
    waited = split_call_wrapper(s, sp->ptr, sp->i1);
  MlirBlock block = mlirOperationGetBlock(s->suspend);
  bool tail = false;
  if (s->await_kind == CI_AWAIT_HANDLE) {
    tail = split_is_clone(vs->v) && returns_at_once(s);
    struct ir_builder b = ir_before(s->suspend);
    split_resume_next(&b, waited, tail, sp->device);
  }
  if (tail) {
    keep_tail_values(vs, s->suspend, noted);
    split_erase_from(s->suspend);
  } else if (mlirOpOperandIsNull(
                 mlirValueGetFirstUse(mlirOperationGetResult(s->suspend, 0)))) {
    split_erase(s->suspend);
  } else {
    struct ir_builder b = ir_before(s->suspend);
    MlirValue minus1 = ir_const_int(&b, 8, -1);
    split_replace_result(s->suspend, minus1);
    split_erase(s->suspend);
    split_fold_branch(block, mlirOpResultGetOwner(minus1));
  }
  /* The save last: the suspend used its token. */
  if (!mlirOperationIsNull(s->save))
    split_erase(s->save);
}

static void rewrite_end(struct variant_state *vs, MlirOperation op) {
  struct ir_builder b = ir_before(op);
  int64_t unwind = 0;
  ir_const_int_value(mlirOperationGetOperand(op, 1), &unwind);
  if (!split_is_clone(vs->v)) {
    split_replace_by_const(&b, op, 0);
    split_erase(op);
    return;
  }
  split_replace_by_const(&b, op, 1);
  if (unwind) {
    split_mark_done(vs, &b);
    split_erase(op);
    return;
  }
  MlirBlock block = mlirOperationGetBlock(op);
  split_erase_from(op);
  struct ir_builder e = ir_at_end(block, b.loc);
  ir_op(&e, "llvm.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
}

static MlirValue fn_address(struct ir_builder *b, struct split *sp,
                            enum variant v) {
  struct coro_str n = split_part_name(sp, split_suffix[v]);
  MlirValue a = ir_addressof(b, coro_str_cstr(&n));
  coro_str_free(&n);
  return a;
}

static void rewrite_begin(struct variant_state *vs, MlirOperation op) {
  if (!split_is_clone(vs->v)) {
    struct ir_builder b = ir_before(mlirOperationGetNextInBlock(op));
    /* Each value built in its own statement: C leaves argument order. */
    MlirValue resume = fn_address(&b, vs->sp, V_RESUME);
    ir_store(&b, resume, split_field_at(vs, &b, CORO_HANDLE_RESUME_OFFSET), 8);
    /* A frame its caller owns is never freed: destroying it runs cleanup. */
    MlirValue destroy =
        fn_address(&b, vs->sp, vs->v == V_ELIDED ? V_CLEANUP : V_DESTROY);
    if (!mlirValueIsNull(vs->alloc)) { /* a ramp NAME.elided is copied from */
      MlirValue cleanup = fn_address(&b, vs->sp, V_CLEANUP);
      destroy = split_ramp_or_elided(vs, &b, destroy, cleanup);
    }
    ir_store(&b, destroy, split_field_at(vs, &b, CORO_HANDLE_DESTROY_OFFSET),
             8);
  }
  split_replace_result(op, vs->frame);
  split_erase(op);
}

static void switch_clone_entry(struct variant_state *vs) {
  split_entry_block(vs, 1, &vs->sp->ptr);
  vs->frame = mlirBlockGetArgument(vs->dispatch, 0);
  if (vs->v == V_DESTROY && vs->sp->sw.freed_arg)
    vs->freed = mlirBlockAddArgument(vs->dispatch, vs->sp->ptr, vs->sp->loc);
}

MlirValue split_ramp_or_elided(struct variant_state *vs, struct ir_builder *b,
                               MlirValue ramp, MlirValue elided) {
  if (mlirValueIsNull(vs->alloc))
    return ramp;
  MlirValue ops[3] = {vs->alloc, ramp, elided};
  return ir_val(b, "llvm.select", 3, ops, mlirValueGetType(ramp));
}

/* The switch ramp's frame is the memory coro.begin is given (NAME.elided's
 * is its last argument). */
static void switch_ramp_frame(struct variant_state *vs) {
  MlirValue mem = mlirOperationGetOperand(vs->shape.begin, 1);
  struct ir_builder b = ir_before(vs->shape.begin);
  vs->frame = split_ramp_or_elided(vs, &b, mem, vs->elided_frame);
}

/* The dispatch block's switch on the suspension index. */
static void finish_dispatch(struct variant_state *vs) {
  struct split *sp = vs->sp;
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  size_t n = vs->shape.nsusp, k = 0;
  int64_t *values = ir_xmalloc((n + 1) * sizeof *values);
  MlirBlock *cases = ir_xmalloc((n + 1) * sizeof *cases);
  for (size_t i = 0; i < n; ++i)
    if (!mlirBlockIsNull(vs->landing[i])) {
      values[k] = (int64_t)i;
      cases[k++] = vs->landing[i];
    }
  MlirBlock bad = ir_new_block(region, 0, NULL, sp->loc);
  struct ir_builder u = ir_at_end(bad, sp->loc);
  ir_unreachable(&u);
  struct ir_builder b = ir_at_end(vs->dispatch, sp->loc);
  MlirValue index = ir_load(&b, split_field_at(vs, &b, sp->layout.index_offset),
                            sp->idx, sp->layout.index_width / 8);
  ir_switch(&b, index, bad, (intptr_t)k, values, cases, NULL);
  free(values);
  free(cases);
}

/* Whether every suspension of the shape suspends once its state is
 * stored: its save, if any, is in the suspend's block, and it is no
 * await.suspend.bool (whose wrapper may decline). Read before the
 * suspensions are rewritten (their saves are erased then). */
bool split_suspends_once_stored(const struct coro_shape *shape) {
  for (size_t i = 0; i < shape->nsusp; ++i) {
    const struct coro_suspend *s = &shape->susp[i];
    if (s->await_kind == CI_AWAIT_BOOL ||
        (!mlirOperationIsNull(s->save) &&
         !mlirBlockEqual(mlirOperationGetBlock(s->save),
                         mlirOperationGetBlock(s->suspend))))
      return false;
  }
  return true;
}

/* On the device a part returns the handle to run next: every return that
 * transfers nowhere returns null. */
static void return_null(MlirOperation fn) {
  MlirRegion r = mlirOperationGetRegion(fn, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    MlirOperation term = mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(term) || !coro_op_named(term, "llvm.return") ||
        mlirOperationGetNumOperands(term))
      continue;
    struct ir_builder at = ir_before(term);
    MlirValue null = ir_null(&at);
    ir_op(&at, "llvm.return", 1, &null, 0, NULL, 0, NULL, 0, NULL);
    split_erase(term);
  }
}

static bool name_free(struct split *sp, MlirSymbolTable table, bool elide) {
  for (int v = V_RESUME; v < (elide ? V_CONT : V_ELIDED); ++v) {
    struct coro_str n = split_part_name(sp, split_suffix[v]);
    if (!split_name_free(sp, table, &n))
      return false;
  }
  return true;
}

/* NAME.elided(args..., ptr frame) -> ptr: the ramp on a frame its caller
 * provides. */
bool split_make_elided(struct split *sp, MlirSymbolTable table) {
  /* Without debug info (each part has a subprogram of its own) NAME.elided
   * is a copy of the finished ramp (copy_elided): made empty here, where
   * it takes its place among the parts. */
  bool copied = mlirAttributeIsNull(sp->subprogram);
  MlirType fty = ir_func_type(sp->func);
  intptr_t n = mlirLLVMFunctionTypeGetNumInputs(fty);
  MlirType *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirLLVMFunctionTypeGetInput(fty, i);
  args[n] = sp->ptr;
  struct coro_str name = split_part_name(sp, split_suffix[V_ELIDED]);
  struct ir_func_spec spec = {.name = coro_str_cstr(&name),
                              .result = mlirLLVMFunctionTypeGetReturnType(fty),
                              .nargs = n + 1,
                              .args = args,
                              .linkage = MlirLLVMLinkageInternal};
  MlirOperation fn = ir_llvm_func(sp->module, &spec, true,
                                  ir_generated_loc(sp->loc, "elided"));
  free(args);
  coro_str_free(&name);
  split_inherit_attributes(sp, fn);
  ir_symbol_table_insert(table, fn);
  if (copied) {
    sp->sw.elided_fn = fn;
    return true;
  }
  struct ir_map map = {0};
  MlirBlock entry = split_clone_reached(sp, fn, V_ELIDED, 0, &map);
  mlirBlockAddArgument(entry, sp->ptr, sp->loc);
  struct variant_state vs = {.sp = sp, .v = V_ELIDED, .fn = fn, .map = &map};
  bool ok = split_rewrite_variant(&vs);
  ir_map_free(&map);
  return ok;
}

/* NAME.cleanup is NAME.destroy with llvm.coro.free giving null: rather than
 * a part of its own made from the coroutine (most of which it would copy
 * and erase again), a copy of NAME.destroy once that is made, whose
 * dispatch block took what coro.free gives as a second argument
 * (sw.freed_arg). The copy gets null there, folds the branches that
 * decides and erases what only they used; NAME.destroy gets its frame. */
static void copy_cleanup(MlirOperation destroy, MlirOperation cleanup) {
  MlirOperation copy = mlirOperationClone(destroy);
  MlirRegion region = mlirOperationGetRegion(cleanup, 0);
  mlirRegionTakeBody(region, mlirOperationGetRegion(copy, 0));
  mlirOperationDestroy(copy);
  MlirBlock own = mlirRegionGetFirstBlock(mlirOperationGetRegion(destroy, 0));
  mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(own, 1),
                                mlirBlockGetArgument(own, 0));
  mlirBlockEraseArgument(own, 1);
  MlirBlock entry = mlirRegionGetFirstBlock(region);
  struct ir_builder b = ir_before(mlirBlockGetFirstOperation(entry));
  mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(entry, 1), ir_null(&b));
  mlirBlockEraseArgument(entry, 1);
  if (split_fold_cond_branches(region))
    ir_erase_unreachable(region);
  split_sweep_region(region);
}

/* NAME.resume, NAME.destroy and NAME.cleanup: internal fastcc
 * void(ptr frame) (on the device, returning the handle to run next). */
static bool switch_make_parts(struct split *sp, MlirSymbolTable table) {
  bool ok = true;
  /* with debug info each part has a subprogram of its own: NAME.cleanup is
   * made as the others are */
  sp->sw.freed_arg = mlirAttributeIsNull(sp->subprogram);
  MlirOperation destroy = {NULL};
  for (int v = V_RESUME; v <= V_CLEANUP && ok; ++v) {
    struct coro_str n = split_part_name(sp, split_suffix[v]);
    struct ir_func_spec spec = {.name = coro_str_cstr(&n),
                                .result =
                                    sp->device ? sp->ptr : (MlirType){NULL},
                                .nargs = 1,
                                .args = &sp->ptr,
                                .linkage = MlirLLVMLinkageInternal,
                                .cconv = MlirLLVMCConvFast};
    MlirOperation fn =
        ir_llvm_func(sp->module, &spec, true,
                     ir_generated_loc(sp->loc, split_suffix[v] + 1));
    coro_str_free(&n);
    split_inherit_attributes(sp, fn);
    if (v == V_RESUME) { /* filled by resume_in_place, last */
      ir_symbol_table_insert(table, fn);
      sp->sw.resume_fn = fn;
      continue;
    }
    if (v == V_CLEANUP && sp->sw.freed_arg) {
      ir_symbol_table_insert(table, fn);
      copy_cleanup(destroy, fn);
      continue;
    }
    ok = split_clone_part(sp, table, fn, v, 0);
    if (v == V_DESTROY)
      destroy = fn;
    if (ok && sp->device)
      return_null(fn);
  }
  sp->sw.freed_arg = false;
  return ok;
}

/* Decides the i1 `v` (what llvm.coro.alloc gave) to be `c`: the
 * llvm.select ops on it take their operand (the other erased when it is a
 * constant nothing else uses), any other use gets the constant and the
 * branches of the blocks that use it are folded; then the blocks that no
 * longer run are erased. The constant is left to the folds (which erase it
 * with the branch it decided) and to the sweep. */
static void decide_alloc(MlirRegion region, MlirValue v, bool c) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u);
    if (!coro_op_named(user, "llvm.select") ||
        !mlirValueEqual(mlirOperationGetOperand(user, 0), v))
      continue;
    MlirValue other = mlirOperationGetOperand(user, c ? 2 : 1);
    split_replace_result(user, mlirOperationGetOperand(user, c ? 1 : 2));
    split_erase(user);
    if (mlirValueIsAOpResult(other) &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(other)) &&
        ir_op_is_constant(mlirOpResultGetOwner(other)))
      split_erase(mlirOpResultGetOwner(other));
  }
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
    return;
  struct ir_blockvec decided = {0};
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    ir_blockvec_push(&decided,
                     mlirOperationGetBlock(mlirOpOperandGetOwner(u)));
  MlirBlock entry = mlirRegionGetFirstBlock(region);
  struct ir_builder b = ir_before(mlirBlockGetFirstOperation(entry));
  mlirValueReplaceAllUsesOfWith(v, ir_const_int(&b, 1, c));
  bool changed = false;
  for (size_t i = 0; i < decided.n; ++i) {
    MlirOperation term = mlirBlockGetTerminator(decided.v[i]);
    if (mlirOperationIsNull(term) || !coro_op_named(term, "llvm.cond_br"))
      continue;
    split_fold_branch(decided.v[i], mlirBlockGetFirstOperation(decided.v[i]));
    changed |= !mlirOperationEqual(term, mlirBlockGetTerminator(decided.v[i]));
  }
  free(decided.v);
  if (changed)
    ir_erase_unreachable(region);
}

/* NAME.elided is the finished ramp with coro.alloc false and its frame
 * given: rather than a variant of its own made from the coroutine (most of
 * which the ramp makes again), a copy of the ramp, rewritten with what
 * coro.alloc gives and NAME.elided's frame as arguments of its entry block
 * (variant_state.alloc, elided_frame). The copy gets false, keeps the frame
 * as its last argument and loses what only the allocation used; the ramp
 * gets true and drops both. */
static void copy_elided(MlirOperation ramp, MlirOperation elided,
                        MlirValue alloc, MlirValue frame) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(ramp, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  assert(mlirValueEqual(mlirBlockGetArgument(entry, n - 2), alloc) &&
         mlirValueEqual(mlirBlockGetArgument(entry, n - 1), frame) &&
         "the ramp's placeholders are its entry block's last arguments");
  MlirOperation copy = mlirOperationClone(ramp);
  MlirRegion region = mlirOperationGetRegion(elided, 0);
  mlirRegionTakeBody(region, mlirOperationGetRegion(copy, 0));
  mlirOperationDestroy(copy);
  MlirBlock own = mlirRegionGetFirstBlock(region);
  decide_alloc(region, mlirBlockGetArgument(own, n - 2), false);
  mlirBlockEraseArgument(own, (unsigned)(n - 2));
  split_sweep_region(region);
  ir_unify_returns(elided);
  struct ir_builder b = ir_before(mlirBlockGetFirstOperation(entry));
  mlirValueReplaceAllUsesOfWith(frame, ir_null(&b));
  decide_alloc(mlirOperationGetRegion(ramp, 0), alloc, true);
  mlirBlockEraseArgument(entry, (unsigned)(n - 1));
  mlirBlockEraseArgument(entry, (unsigned)(n - 2));
  ir_unify_returns(ramp);
}

/* The switch ABI's NAME.resume reaches most of a coroutine: rather than
 * copying it, it takes the coroutine's own ops. The ramp, which reaches
 * little, is copied back first (rewritten before NAME.resume changes what
 * the analyses refer to); the other parts were copied already. */
bool split_resume_in_place(struct split *sp) {
  MlirRegion body = mlirOperationGetRegion(sp->sw.resume_fn, 0);
  mlirRegionTakeBody(body, mlirOperationGetRegion(sp->func, 0));
  struct ir_map map = {0};
  split_clone_reached_from(sp, body, sp->func, V_RAMP, 0, &map);
  struct variant_state ramp = {
      .sp = sp, .v = V_RAMP, .fn = sp->func, .map = &map};
  MlirOperation elided = sp->sw.elided_fn;
  if (!mlirOperationIsNull(elided)) {
    MlirBlock entry =
        mlirRegionGetFirstBlock(mlirOperationGetRegion(sp->func, 0));
    ramp.alloc = mlirBlockAddArgument(entry, sp->i1, sp->loc);
    ramp.elided_frame = mlirBlockAddArgument(entry, sp->ptr, sp->loc);
  }
  bool ok = split_rewrite_variant(&ramp);
  ir_map_free(&map);
  if (ok && !mlirOperationIsNull(elided))
    copy_elided(sp->func, elided, ramp.alloc, ramp.elided_frame);
  sp->sw.elided_fn = (MlirOperation){NULL};
  if (!ok)
    return false;
  struct variant_state vs = {.sp = sp, .v = V_RESUME, .fn = sp->sw.resume_fn};
  ok = split_rewrite_variant(&vs);
  if (!mlirAttributeIsNull(sp->subprogram))
    frame_debug_attach(sp->sw.resume_fn, sp->subprogram, sp->frame_ty);
  if (ok && sp->device)
    return_null(sp->sw.resume_fn);
  return ok;
}

const struct split_abi split_abi_switch = {
    .name = "switch",
    .frame_header = true,
    .dispatch_by_index = true,
    .names_before_shape = true,
    .elided_ramp = true,
    .frame_debug_type = true,
    .device_frame_size = true,
    .resume_in_place = true,
    .check_names = name_free,
    .make_parts = switch_make_parts,
    .ramp_frame = switch_ramp_frame,
    .clone_entry = switch_clone_entry,
    .finish_entry = finish_dispatch,
    .suspend = rewrite_suspend,
    .begin = rewrite_begin,
    .end = rewrite_end,
};
