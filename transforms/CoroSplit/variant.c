/* variant.c - rewriting one part (a variant) of a coroutine being split.
 *
 * A variant is the ramp, a switch clone (NAME.resume, .destroy, .cleanup),
 * the elided ramp or a continuation. split_rewrite_variant collects the
 * variant's own shape, enters it through its ABI (clone_entry or
 * ramp_frame), decides what it reaches and reloads (reach.c), places the
 * frame's allocas, lets the ABI rewrite each suspension, lowers the other
 * intrinsics (alloc, size, align, free, frame, begin, end, lone awaits),
 * then repairs SSA form and sweeps (sweep.c). */
#include "dialect/contract.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/CoroSplit/split_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdlib.h>

const char *const split_suffix[V_COUNT] = {"",
                                           CORO_PART_RESUME,
                                           CORO_PART_DESTROY,
                                           CORO_PART_CLEANUP,
                                           CORO_PART_ELIDED,
                                           CORO_PART_CONTINUATION};

MlirValue split_mapv(const struct variant_state *vs, MlirValue v) {
  return vs->map ? ir_map_lookup(vs->map, v) : v;
}

/* The await intrinsic `await`, invoked (an await_suspend that may throw),
 * becomes the invoke of its wrapper on args[0..2) returning `result`, with
 * the same destinations; returns the result (null for none). */
static MlirValue invoke_wrapper(struct ir_builder *b, MlirOperation await,
                                const MlirValue *args, MlirType result) {
  MlirValue fn = mlirOperationGetOperand(await, 2);
  MlirAttribute sym = ir_symbol_addressed(fn);
  MlirValue indirect[3] = {fn, args[0], args[1]};
  MlirOperation op =
      ir_invoke_like(b, await, sym, mlirAttributeIsNull(sym) ? 3 : 2,
                     mlirAttributeIsNull(sym) ? indirect : args, result);
  return mlirTypeIsNull(result) ? (MlirValue){NULL}
                                : mlirOperationGetResult(op, 0);
}

/* Calls the await wrapper in place of the await intrinsic; returns its
 * result (null for .void). */
MlirValue split_call_wrapper(const struct coro_suspend *s, MlirType ptr,
                             MlirType i1) {
  struct ir_builder b = ir_before(s->await);
  MlirValue args[2] = {mlirOperationGetOperand(s->await, 0),
                       mlirOperationGetOperand(s->await, 1)};
  MlirType result = s->await_kind == CI_AWAIT_BOOL     ? i1
                    : s->await_kind == CI_AWAIT_HANDLE ? ptr
                                                       : (MlirType){NULL};
  /* the wrapper is named (llvm.mlir.addressof) in every producer we know:
   * called directly */
  MlirValue r;
  if (coro_op_named(s->await, "llvm.invoke")) {
    r = invoke_wrapper(&b, s->await, args, result);
  } else {
    r = ir_call_through(&b, mlirOperationGetOperand(s->await, 2), 2, args,
                        result);
  }
  if (s->await_kind == CI_AWAIT_BOOL)
    split_replace_result(s->await, r);
  split_erase(s->await);
  return r;
}

/* Resumes the coroutine `next` points to: a call of its resume function,
 * `musttail` followed by the return when `tail`. On the device (`device`),
 * where the parts return the handle to run next: the return of `next`
 * when `tail`, else a call of the resume loop CORO_DEVICE_RUN. */
void split_resume_next(struct ir_builder *b, MlirValue next, bool tail,
                       bool device) {
  if (device) {
    /* no musttail on the device: a part returns the handle to run next to
     * the resume loop that called it, or runs that loop itself */
    if (tail)
      ir_op(b, "llvm.return", 1, &next, 0, NULL, 0, NULL, 0, NULL);
    else
      ir_call(b,
              mlirFlatSymbolRefAttrGet(
                  b->ctx, mlirStringRefCreateFromCString(CORO_DEVICE_RUN)),
              false, 1, &next, (MlirType){NULL});
    return;
  }
  MlirValue fn = ir_load(b, next, ir_ptr_type(b->ctx), 8);
  ir_call_indirect(b, fn, MlirLLVMCConvFast, tail ? 2 : 0, 1, &next,
                   (MlirType){NULL});
  if (tail)
    ir_op(b, "llvm.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
}

/* What llvm.coro.free gives in `vs`: the frame, where the part frees it;
 * null in NAME.cleanup and NAME.elided, whose frame their caller owns. */
static MlirValue freed_value(struct variant_state *vs, struct ir_builder *b) {
  if (!mlirValueIsNull(vs->freed))
    return vs->freed;
  if (vs->v == V_CLEANUP || vs->v == V_ELIDED)
    return ir_null(b);
  if (mlirValueIsNull(vs->alloc))
    return vs->frame;
  MlirValue null = ir_null(b); /* NAME.elided's, in a ramp it is copied from */
  return split_ramp_or_elided(vs, b, vs->frame, null);
}

static void rewrite_intrinsic(struct variant_state *vs, MlirOperation op,
                              enum coro_intr k) {
  struct ir_builder b = ir_before(op);
  switch (k) {
  case CI_ALLOC: {
    if (!mlirValueIsNull(vs->alloc)) { /* decided in each copy */
      split_replace_result(op, vs->alloc);
      split_erase(op);
      return;
    }
    /* Always allocate (eliding is --coro-elide's decision, made before);
     * fold the branches on it. */
    MlirValue yes = ir_const_int(&b, 1, vs->v != V_ELIDED);
    split_replace_result(op, yes);
    split_erase(op);
    for (MlirOpOperand u = mlirValueGetFirstUse(yes);
         !mlirOpOperandIsNull(u);) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      u = mlirOpOperandGetNextUse(u);
      if (coro_op_named(user, "llvm.cond_br"))
        split_fold_branch(mlirOperationGetBlock(user), user);
    }
    return;
  }
  case CI_SIZE:
    split_replace_by_const(&b, op, (int64_t)vs->sp->layout.size);
    break;
  case CI_ALIGN:
    split_replace_by_const(&b, op, (int64_t)vs->sp->layout.align);
    break;
  case CI_FREE:
    split_replace_result(op, freed_value(vs, &b));
    break;
  case CI_FRAME:
    split_replace_result(op, vs->frame);
    break;
  case CI_IS_IN_RAMP: /* clang's: an exception out of the ramp rethrows */
    split_replace_by_const(&b, op, !split_is_clone(vs->v));
    break;
  case CI_END:
  case CI_END_ASYNC:
    vs->sp->abi->end(vs, op);
    return;
  case CI_BEGIN:
    vs->sp->abi->begin(vs, op);
    return;
  default:
    return; /* suspensions are done; consumers are lowered module-wide */
  }
  split_erase(op);
}

/* Intrinsics rewrite_intrinsic rewrites in place, one at a time: not the
 * ends (last), awaits, nor what the shape and the suspensions stand on. */
static bool tail_rewritable(enum coro_intr k) {
  switch (k) {
  case CI_NONE:
  case CI_ID:
  case CI_SAVE:
  case CI_SUSPEND:
  case CI_END:
  case CI_END_ASYNC:
  case CI_AWAIT_VOID:
  case CI_AWAIT_BOOL:
  case CI_AWAIT_HANDLE:
  case CI_ID_RETCON:
  case CI_ID_RETCON_ONCE:
  case CI_SUSPEND_RETCON:
  case CI_END_RESULTS:
  case CI_ID_ASYNC:
  case CI_SUSPEND_ASYNC:
  case CI_ASYNC_RESUME:
  case CI_ASYNC_SIZE_REPLACE:
    return false;
  default:
    return true;
  }
}

/* Allocas kept in the frame, and the promise, become frame addresses
 * (field_ptr; aligned at run time where the frame cannot be: realign). */
static void place_allocas(struct variant_state *vs) {
  struct split *sp = vs->sp;
  for (size_t i = 0; i <= sp->crossing.nitem; ++i) {
    MlirValue a;
    uint64_t offset, realign = 0;
    if (i == sp->crossing.nitem) {
      if (mlirValueIsNull(sp->shape.promise))
        break;
      a = sp->shape.promise;
      offset = sp->layout.promise_offset;
    } else if (sp->crossing.item[i].alloca) {
      a = sp->crossing.item[i].value;
      offset = sp->layout.field[i].offset;
      realign = sp->layout.field[i].realign;
    } else {
      continue;
    }
    MlirValue mine = split_mapv(vs, a);
    /* in a clone, an address next to each use (the frame, the dispatch
     * block's argument, dominates them all), which -O0 folds into the
     * access; in the ramp, the one make_field_ptrs made */
    /* a frame field is no alloca: LLVM takes no lifetime marker on it */
    ir_erase_lifetime_markers(mine);
    while (!mlirOpOperandIsNull(mlirValueGetFirstUse(mine))) {
      MlirOpOperand u = mlirValueGetFirstUse(mine);
      MlirOperation user = mlirOpOperandGetOwner(u);
      struct ir_builder b = ir_before(user);
      MlirValue at = split_field_at(vs, &b, offset);
      if (realign)
        at = split_aligned(&b, at, realign);
      /* an alloca of another address space (a GPU's private one) gets its
       * field's address cast into it, as LLVM's CoroSplit does */
      if (!mlirTypeEqual(mlirValueGetType(at), mlirValueGetType(mine)))
        at = ir_val(&b, "llvm.addrspacecast", 1, &at, mlirValueGetType(mine));
      mlirOperationSetOperand(user, (intptr_t)mlirOpOperandGetOperandNumber(u),
                              at);
    }
    split_erase(mlirOpResultGetOwner(mine));
  }
}

/* Moves a clone's copies of the coroutine's allocas that stay allocas (not
 * in the frame: not live across a suspension, or kept out of it by
 * coro.outside.frame) into its dispatch block, where they dominate every
 * use: the copy of a block the clone does not reach, which holds such an
 * alloca, is erased later. */
static void hoist_local_allocas(struct variant_state *vs) {
  const struct split *sp = vs->sp;
  struct ir_ptrmap framed = {0};
  for (size_t i = 0; i < sp->crossing.nitem; ++i)
    if (sp->crossing.item[i].alloca)
      ir_ptrmap_put(&framed, sp->crossing.item[i].value.ptr, (void *)1);
  for (size_t i = 0; i < sp->shape.allocas.n; ++i) {
    MlirValue a = mlirOperationGetResult(sp->shape.allocas.v[i], 0);
    if (ir_ptrmap_find(&framed, a.ptr) ||
        (!mlirValueIsNull(sp->shape.promise) &&
         mlirValueEqual(a, sp->shape.promise)))
      continue;
    MlirValue mine = split_mapv(vs, a);
    if ((vs->map && mlirValueEqual(mine, a)) || !mlirValueIsAOpResult(mine))
      continue; /* not copied into this clone */
    MlirOperation op = mlirOpResultGetOwner(mine);
    MlirValue count = mlirOperationGetOperand(op, 0);
    MlirBlock home = mlirValueIsAOpResult(count)
                         ? mlirOperationGetBlock(mlirOpResultGetOwner(count))
                         : mlirBlockArgumentGetOwner(count);
    if (!mlirBlockEqual(home, vs->dispatch))
      continue; /* its size is computed elsewhere: left where it is */
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(vs->dispatch, op);
  }
  ir_ptrmap_free(&framed);
}

/* Erases the allocas hoist_local_allocas moved into `dispatch` that nothing
 * in the clone uses (their uses were in blocks it does not reach), and
 * then the constants only they used. */
static void drop_unused_allocas(MlirBlock dispatch) {
  struct ir_opvec counts = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(dispatch);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (coro_op_named(op, "llvm.alloca") &&
        mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, 0)))) {
      MlirValue count = mlirOperationGetOperand(op, 0);
      mlirOperationDestroy(op);
      if (mlirValueIsAOpResult(count))
        ir_opvec_push(&counts, mlirOpResultGetOwner(count));
    }
    op = next;
  }
  /* each constant once, when nothing else uses it */
  for (size_t i = 0; i < counts.n; ++i) {
    MlirOperation c = counts.v[i];
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j)
      seen = mlirOperationEqual(counts.v[j], c);
    if (!seen &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(c, 0))))
      mlirOperationDestroy(c);
  }
  free(counts.v);
}

/* Moves every constant of the clone into its dispatch block, where it
 * dominates every use: those of the block after the dispatch block (the
 * copy of the coroutine's entry, which also holds the copy's
 * placeholders), then the copies of the coroutine's other constants
 * (sp->consts: found once rather than in every clone's ops). */
static void hoist_constants(struct variant_state *vs) {
  MlirBlock entry = mlirBlockGetNextInRegion(vs->dispatch);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (ir_op_is_constant(op)) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(vs->dispatch, op);
    }
    op = next;
  }
  const struct ir_opvec *consts = &vs->sp->consts;
  for (size_t i = 0; i < consts->n; ++i) {
    MlirOperation op = consts->v[i];
    if (vs->map) {
      MlirValue r = mlirOperationGetResult(op, 0);
      MlirValue copy = ir_map_lookup(vs->map, r);
      if (mlirValueEqual(copy, r))
        continue; /* not copied */
      op = mlirOpResultGetOwner(copy);
    }
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(vs->dispatch, op);
  }
}

/* A switch clone is entered with the frame, in a dispatch block. */
void split_entry_block(struct variant_state *vs, intptr_t n,
                       const MlirType *types) {
  MlirLocation *locs = ir_xmalloc((size_t)(n + 1) * sizeof *locs);
  for (intptr_t i = 0; i < n; ++i)
    locs[i] = vs->sp->loc;
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  vs->dispatch = mlirBlockCreate(n, types, locs);
  free(locs);
  mlirRegionInsertOwnedBlockBefore(region, mlirRegionGetFirstBlock(region),
                                   vs->dispatch);
}

/* Reads the destroy flag (CORO_DESTROY_FLAG_ATTR) as false in a variant
 * where no destroy path runs. Only loads used in their own block are
 * folded: such a value never lives across a suspension, so the analysis
 * made on the original function does not refer to it. */
static void fold_destroy_flag(struct variant_state *vs) {
  if (vs->v != V_RAMP && vs->v != V_ELIDED && vs->v != V_RESUME)
    return;
  for (size_t i = 0; i < vs->sp->flags.n; ++i) {
    MlirValue flag =
        split_mapv(vs, mlirOperationGetResult(vs->sp->flags.v[i], 0));
    if (!mlirValueIsAOpResult(flag) ||
        !coro_op_named(mlirOpResultGetOwner(flag), "llvm.alloca"))
      continue; /* a placeholder: no copied op reads it */
    for (MlirOpOperand u = mlirValueGetFirstUse(flag);
         !mlirOpOperandIsNull(u);) {
      MlirOperation load = mlirOpOperandGetOwner(u);
      u = mlirOpOperandGetNextUse(u);
      if (!coro_op_named(load, "llvm.load"))
        continue;
      MlirValue v = mlirOperationGetResult(load, 0);
      bool local = true;
      for (MlirOpOperand w = mlirValueGetFirstUse(v);
           local && !mlirOpOperandIsNull(w); w = mlirOpOperandGetNextUse(w))
        local = mlirBlockEqual(mlirOperationGetBlock(mlirOpOperandGetOwner(w)),
                               mlirOperationGetBlock(load));
      if (!local)
        continue;
      struct ir_builder at = ir_before(load);
      split_replace_result(load, ir_const_int(&at, 1, 0));
      split_erase(load);
    }
  }
}

/* A dispatch whose cases all land on one plain branch (a destroy part
 * whose suspensions hold nothing to destroy) reads no index: a plain
 * branch there; true when it was. */
static bool collapse_dispatch(MlirBlock dispatch) {
  MlirOperation sw = mlirBlockGetTerminator(dispatch);
  intptr_t n = mlirOperationGetNumSuccessors(sw);
  if (!coro_op_named(sw, "llvm.switch") || n < 2 ||
      mlirOperationGetNumOperands(sw) != 1)
    return false;
  MlirBlock target = {NULL};
  for (intptr_t i = 1; i < n; ++i) { /* 0: the default, unreachable */
    MlirBlock c = mlirOperationGetSuccessor(sw, i);
    MlirOperation br = mlirBlockGetFirstOperation(c);
    if (mlirBlockGetNumArguments(c) || !coro_op_named(br, "llvm.br") ||
        mlirOperationGetNumOperands(br))
      return false;
    MlirBlock t = mlirOperationGetSuccessor(br, 0);
    if (i > 1 && !mlirBlockEqual(t, target))
      return false;
    target = t;
  }
  MlirValue index = mlirOperationGetOperand(sw, 0);
  struct ir_builder b = ir_before(sw);
  ir_br(&b, target, 0, NULL);
  split_erase(sw);
  /* the index's load, then its address, when nothing else reads them */
  while (mlirValueIsAOpResult(index) &&
         mlirOpOperandIsNull(mlirValueGetFirstUse(index))) {
    MlirOperation def = mlirOpResultGetOwner(index);
    if (!coro_op_named(def, "llvm.load") &&
        !coro_op_named(def, "llvm.getelementptr"))
      break;
    index = mlirOperationGetOperand(def, 0);
    split_erase(def);
  }
  return true;
}

/* Branches the rewrite left deciding on a constant (coro.alloc's and
 * coro.free's answers, an allocator's alignment test) become plain
 * branches, as does a dispatch that needs no index (collapse_dispatch),
 * and the blocks they no longer reach go: less for LLVM to translate
 * and generate. */
static void fold_constant_branches(struct variant_state *vs) {
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  bool changed = split_is_clone(vs->v) && vs->sp->abi->dispatch_by_index &&
                 collapse_dispatch(vs->dispatch);
  changed |= split_fold_cond_branches(region);
  if (changed)
    ir_erase_unreachable(region);
}

/* The shape of a variant made of the coroutine's own ops (NAME.resume,
 * which took them, resume_in_place): the coroutine's, without walking
 * them again. Only the lists a variant reads are copied: the ramp-only
 * ops and the allocas stay the coroutine's. */
static void same_shape(struct variant_state *vs) {
  const struct coro_shape *from = &vs->sp->shape;
  vs->shape = (struct coro_shape){.func = vs->fn,
                                  .abi = from->abi,
                                  .storage = from->storage,
                                  .buffer_size = from->buffer_size,
                                  .buffer_align = from->buffer_align,
                                  .id = from->id,
                                  .begin = from->begin,
                                  .promise = from->promise,
                                  .nintr = from->nintr,
                                  .nsusp = from->nsusp};
  vs->shape.intr = ir_xmalloc((from->nintr + 1) * sizeof *vs->shape.intr);
  vs->shape.susp = ir_xmalloc((from->nsusp + 1) * sizeof *vs->shape.susp);
  if (from->nintr) /* the lists are null when empty */
    memcpy(vs->shape.intr, from->intr, from->nintr * sizeof *from->intr);
  if (from->nsusp)
    memcpy(vs->shape.susp, from->susp, from->nsusp * sizeof *from->susp);
}

bool split_rewrite_variant(struct variant_state *vs) {
  struct split *sp = vs->sp;
  const struct split_abi *abi = sp->abi;
  fold_destroy_flag(vs);
  if (vs->v == V_RESUME && !vs->map)
    same_shape(vs);
  else if (!coro_shape_collect(&vs->shape, vs->fn))
    return false;
  assert(vs->shape.nsusp == sp->shape.nsusp && "clones keep the shape");
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  if (split_is_clone(vs->v)) {
    abi->clone_entry(vs);
    hoist_constants(vs);
  } else if (vs->v == V_ELIDED) {
    MlirBlock entry = mlirRegionGetFirstBlock(region);
    vs->frame =
        mlirBlockGetArgument(entry, mlirBlockGetNumArguments(entry) - 1);
  } else {
    abi->ramp_frame(vs);
  }
  size_t nlist = sp->crossing.start[sp->crossing.nsusp];
  vs->landing = ir_xcalloc(vs->shape.nsusp + 1, sizeof *vs->landing);
  vs->merged = ir_xcalloc(vs->shape.nsusp + 1, sizeof *vs->merged);
  vs->reload = ir_xcalloc(nlist + 1, sizeof *vs->reload);
  vs->live = ir_xcalloc(vs->shape.nsusp + 1, sizeof *vs->live);
  vs->need = ir_xcalloc(sp->crossing.nitem + 1, sizeof *vs->need);
  if (split_is_clone(vs->v) && abi->dispatch_by_index &&
      split_suspends_once_stored(&vs->shape))
    vs->index_store = ir_xcalloc(vs->shape.nsusp + 1, sizeof *vs->index_store);
  bool *seen = ir_xcalloc(sp->cfg.n + 1, sizeof *seen);
  split_variant_reach(sp, vs->v, vs->cont, vs->live, seen);
  /* A landing copies its suspension's tail: uses there count too (not
   * those before the suspend in its block, which the landing does not
   * run). */
  split_variant_needs(sp, vs->live, seen, split_is_clone(vs->v), vs->need);
  free(seen);
  struct ir_builder at = split_is_clone(vs->v)
                             ? ir_at_end(vs->dispatch, sp->loc)
                             : ir_before(vs->shape.begin);
  if (!split_is_clone(vs->v))
    split_make_field_ptrs(vs, &at);
  place_allocas(vs);
  if (split_is_clone(vs->v))
    hoist_local_allocas(vs);
  /* Awaits that belong to a suspension go with it; any other is the call
   * of its wrapper (and, for .handle, a call resuming what it returns). */
  struct ir_ptrmap with_suspend = {0};
  for (size_t i = 0; i < vs->shape.nsusp; ++i) {
    if (!mlirOperationIsNull(vs->shape.susp[i].await))
      ir_ptrmap_put(&with_suspend, vs->shape.susp[i].await.ptr, (void *)1);
    if (!mlirOperationIsNull(vs->shape.susp[i].save))
      ir_ptrmap_put(&with_suspend, vs->shape.susp[i].save.ptr, (void *)1);
    /* an async suspension's resume function */
    MlirOperation susp = vs->shape.susp[i].suspend;
    if (coro_intr_classify(susp) == CI_SUSPEND_ASYNC &&
        mlirOperationGetNumOperands(susp) > 1 &&
        mlirValueIsAOpResult(mlirOperationGetOperand(susp, 1)))
      ir_ptrmap_put(&with_suspend,
                    mlirOpResultGetOwner(mlirOperationGetOperand(susp, 1)).ptr,
                    (void *)1);
  }
  for (size_t i = 0; i < vs->shape.nsusp; ++i)
    abi->suspend(vs, i);
  split_forget_fronts(vs);
  /* The ends last: a part's end erases what follows it in its block, which
   * may hold intrinsics of the list (an is_in_ramp after a coro.end). */
  for (size_t i = 0; i < vs->shape.nintr; ++i) {
    enum coro_intr k = vs->shape.intr[i].kind;
    MlirOperation op = vs->shape.intr[i].op;
    if (k == CI_END || k == CI_END_ASYNC)
      continue;
    if (k == CI_SAVE) {
      /* a save no suspend takes (LLVM's pre-split passes dropped the
       * suspend, on a path they proved unreachable) saves nothing */
      if (!ir_ptrmap_find(&with_suspend, op.ptr) &&
          mlirOpOperandIsNull(
              mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
        split_erase(op);
      continue;
    }
    if (k == CI_ASYNC_RESUME) {
      /* the same for the resume function of an async suspension that is
       * gone: no continuation resumes there */
      if (!ir_ptrmap_find(&with_suspend, op.ptr)) {
        struct ir_builder b = ir_before(op);
        split_replace_result(op, ir_null(&b));
        split_erase(op);
      }
      continue;
    }
    if (k == CI_AWAIT_VOID || k == CI_AWAIT_BOOL || k == CI_AWAIT_HANDLE) {
      if (ir_ptrmap_find(&with_suspend, op.ptr))
        continue;
      struct coro_suspend alone = {.await = op, .await_kind = k};
      /* after the call, or at the front of an invoke's normal destination */
      struct ir_builder b = coro_op_named(op, "llvm.invoke")
                                ? ir_before(mlirBlockGetFirstOperation(
                                      mlirOperationGetSuccessor(op, 0)))
                                : ir_before(mlirOperationGetNextInBlock(op));
      MlirValue r = split_call_wrapper(&alone, sp->ptr, sp->i1);
      if (k == CI_AWAIT_HANDLE)
        split_resume_next(&b, r, false, sp->device);
    } else if (tail_rewritable(k)) {
      rewrite_intrinsic(vs, op, k);
    }
  }
  /* the copies landings made of intrinsics in a suspension's tail */
  struct ir_opvec tail_ends = {0};
  for (size_t i = 0; i < vs->tail_intr.n; ++i) {
    MlirOperation op = vs->tail_intr.v[i];
    enum coro_intr k = coro_intr_classify(op);
    if (k == CI_END || k == CI_END_ASYNC)
      ir_opvec_push(&tail_ends, op);
    else if (tail_rewritable(k))
      rewrite_intrinsic(vs, op, k);
  }
  for (size_t i = 0; i < vs->shape.nintr; ++i)
    if (vs->shape.intr[i].kind == CI_END ||
        vs->shape.intr[i].kind == CI_END_ASYNC)
      rewrite_intrinsic(vs, vs->shape.intr[i].op, vs->shape.intr[i].kind);
  for (size_t i = 0; i < tail_ends.n; ++i)
    rewrite_intrinsic(vs, tail_ends.v[i], coro_intr_classify(tail_ends.v[i]));
  free(tail_ends.v);
  free(vs->tail_intr.v);
  vs->tail_intr = (struct ir_opvec){0};
  ir_ptrmap_free(&with_suspend);
  split_erase(vs->shape.id);
  bool ok = true;
  /* a clone's graph, for the SSA repair and then for what its entry no
   * longer reaches (the repair adds no edge) */
  struct ir_cfg g = {0};
  if (split_is_clone(vs->v)) {
    abi->finish_entry(vs);
    ir_cfg_build(&g, region);
    ok = split_repair_ssa(vs, &g);
  }
  /* the templates use the frame: gone before the sweep looks for what
   * nothing uses */
  split_free_templates(&vs->tpl_gep);
  split_free_templates(&vs->tpl_load);
  split_free_templates(&vs->tpl_store);
  if (split_is_clone(vs->v)) {
    ir_erase_unnumbered(region, &g);
    ir_cfg_free(&g);
  } else {
    ir_erase_unreachable(region);
  }
  split_sweep(vs);
  fold_constant_branches(vs);
  if (split_is_clone(vs->v))
    drop_unused_allocas(vs->dispatch);
  ir_unify_returns(vs->fn);
  free(vs->landing);
  free(vs->merged);
  free(vs->reload);
  free(vs->live);
  free(vs->need);
  free(vs->index_store);
  vs->index_store = NULL;
  free(vs->tail_v);
  free(vs->tail_copy);
  free(vs->tail_at);
  vs->tail_v = vs->tail_copy = NULL;
  vs->tail_at = NULL;
  vs->ntail = vs->captail = 0;
  ir_ptrmap_free(&vs->fptr);
  coro_shape_free(&vs->shape);
  return ok;
}
