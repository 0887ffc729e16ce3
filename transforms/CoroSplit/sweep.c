/* sweep.c - SSA repair and the sweep after a variant's rewrite.
 *
 * Erasing and replacing ops the rewrite leaves (split_erase asserts no
 * result is still used), folding the branches the suspend results now
 * decide, rebuilding SSA form over a clone's reloads (ir/ssa.h), dropping
 * index stores that store what the frame holds already, and erasing the
 * reloads, constants and addresses nothing uses any more, looking only
 * where the rewrite leaves them. */
#include "ir/ssa.h"
#include "ir/support.h"
#include "transforms/CoroSplit/split_internal.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <assert.h>
#include <stdlib.h>

static bool unused(MlirOperation op);

/* Destroys `op`. Its results must be unused by now (asserted); should one
 * not be, its uses get poison rather than a dangling value. */
void split_erase(MlirOperation op) {
  if (!unused(op)) {
    assert(false && "erasing an op whose results are still used");
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      struct ir_builder b = ir_before(op);
      mlirValueReplaceAllUsesOfWith(
          v, ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(v)));
    }
  }
  mlirOperationDestroy(op);
}

void split_replace_result(MlirOperation op, MlirValue with) {
  if (mlirOperationGetNumResults(op))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), with);
}

static MlirValue const_like(struct ir_builder *b, MlirOperation op, int64_t v) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return ir_const_int(b, mlirIntegerTypeGetWidth(t), v);
}

/* Replaces the result of `op`, if it has one that is used, by the constant
 * `v` (at `b`): no constant nothing uses (the sweep looks only where the
 * rewrite leaves those, see sweep). */
void split_replace_by_const(struct ir_builder *b, MlirOperation op, int64_t v) {
  if (mlirOperationGetNumResults(op) &&
      !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
    split_replace_result(op, const_like(b, op, v));
}

/* The ops of `block` from `from` on (all of them when `from` is null), in
 * order; the caller frees the array. */
static MlirOperation *ops_from(MlirBlock block, MlirOperation from, size_t *n) {
  size_t cap = 16;
  MlirOperation *ops = ir_xmalloc(cap * sizeof *ops);
  *n = 0;
  for (MlirOperation op =
           mlirOperationIsNull(from) ? mlirBlockGetFirstOperation(block) : from;
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (*n == cap) {
      cap *= 2;
      ops = ir_xrealloc(ops, cap * sizeof *ops);
    }
    ops[(*n)++] = op;
  }
  return ops;
}

/* Whether `op` is a constant or a conversion or comparison (what a
 * suspension's tail decides its branch with) that nothing uses. */
bool split_dead_pure(MlirOperation op) {
  static const char *const pure[] = {"llvm.sext", "llvm.zext", "llvm.trunc",
                                     "llvm.icmp"};
  bool dead = ir_op_is_constant(op);
  for (size_t k = 0; k < sizeof pure / sizeof *pure && !dead; ++k)
    dead = coro_op_named(op, pure[k]);
  for (intptr_t r = 0; dead && r < mlirOperationGetNumResults(op); ++r)
    dead = mlirOpOperandIsNull(
        mlirValueGetFirstUse(mlirOperationGetResult(op, r)));
  return dead;
}

/* Erases the dead_pure ops among `from` and the ops after it in its
 * block, last first (so chains of them go too). */
static void erase_dead_pure(MlirBlock block, MlirOperation from) {
  size_t n;
  MlirOperation *ops = ops_from(block, from, &n);
  for (size_t i = n; i-- > 0;)
    if (split_dead_pure(ops[i]))
      split_erase(ops[i]);
  free(ops);
}

/* Replaces the terminator of `block` by a plain branch when the ops from
 * `from` on (the suspend results are constants by now) decide it; true
 * when it did. */
bool split_fold_terminator(MlirBlock block, MlirOperation from) {
  MlirOperation term = mlirBlockGetTerminator(block);
  if (mlirOperationGetNumSuccessors(term) < 2)
    return false;
  intptr_t k = ir_branch_target(mlirOperationIsNull(from) ? term : from);
  intptr_t first, count;
  if (k < 0 || !ir_successor_operands(term, k, &first, &count))
    return false;
  MlirValue *args = ir_xmalloc((size_t)(count + 1) * sizeof *args);
  for (intptr_t i = 0; i < count; ++i)
    args[i] = mlirOperationGetOperand(term, first + i);
  struct ir_builder b = ir_before(term);
  ir_br(&b, mlirOperationGetSuccessor(term, k), count, args);
  free(args);
  split_erase(term);
  return true;
}

/* fold_terminator, then erases what only decided the branch. */
void split_fold_branch(MlirBlock block, MlirOperation from) {
  bool at_term = mlirOperationIsNull(from) ||
                 mlirOperationEqual(from, mlirBlockGetTerminator(block));
  if (split_fold_terminator(block, from) && !at_term)
    erase_dead_pure(block, from);
}

bool split_fold_cond_branches(MlirRegion region) {
  bool changed = false;
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    MlirOperation term = mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(term) || !coro_op_named(term, "llvm.cond_br"))
      continue;
    /* what decides it may be computed in the block (an icmp of constants) */
    split_fold_branch(b, mlirBlockGetFirstOperation(b));
    changed |= !mlirOperationEqual(term, mlirBlockGetTerminator(b));
  }
  return changed;
}

/* Erases `from` and everything after it in its block. A result still
 * used elsewhere (in blocks only reachable through this one) gets poison. */
void split_erase_from(MlirOperation from) {
  size_t n;
  MlirOperation *ops = ops_from(mlirOperationGetBlock(from), from, &n);
  for (size_t i = n; i-- > 0;) {
    MlirOperation op = ops[i];
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
        continue;
      struct ir_builder b = ir_before(from);
      mlirValueReplaceAllUsesOfWith(
          v, ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(v)));
    }
    split_erase(op);
  }
  free(ops);
}

/* Erases the index stores of a clone that store the index its frame
 * already holds: a store of suspension i's index in a block that landing
 * i dominates. The clone records its index stores only when
 * suspends_once_stored holds; then no path from landing i to the store
 * stores another index, and the clone was entered with index i. A
 * generator resumed in a loop then writes nothing but its values, as a
 * hand-written state machine does. `g` is the clone's graph with
 * dominators. */
static void erase_dead(MlirOperation op, MlirBlock scan, struct ir_opvec *work);

static void drop_known_index_stores(struct variant_state *vs,
                                    const struct ir_cfg *g) {
  if (!vs->index_store)
    return;
  /* owner[b]: the suspension whose landing dominates block b, if any;
   * blocks are in reverse post-order, so idom[b] comes before b */
  size_t *owner = ir_xmalloc((g->n + 1) * sizeof *owner);
  for (size_t b = 0; b < g->n; ++b)
    owner[b] = IR_CFG_NONE;
  for (size_t i = 0; i < vs->shape.nsusp; ++i) {
    size_t l = mlirBlockIsNull(vs->landing[i])
                   ? IR_CFG_NONE
                   : ir_cfg_index(g, vs->landing[i]);
    if (l != IR_CFG_NONE && l)
      owner[l] = i;
  }
  for (size_t b = 1; b < g->n; ++b)
    if (owner[b] == IR_CFG_NONE)
      owner[b] = owner[g->idom[b]];
  struct ir_opvec work = {0};
  for (size_t i = 0; i < vs->shape.nsusp; ++i) {
    MlirOperation st = vs->index_store[i];
    if (mlirOperationIsNull(st))
      continue;
    size_t b = ir_cfg_index(g, mlirOperationGetBlock(st));
    if (b != IR_CFG_NONE && owner[b] == i)
      erase_dead(st, (MlirBlock){NULL}, &work);
  }
  free(work.v);
  free(owner);
}

/* Rebuilds SSA form in a clone over the reloads of its landing blocks, on
 * `g`, the clone's graph (the caller's, which adds dominators to it). */
bool split_repair_ssa(struct variant_state *vs, struct ir_cfg *g) {
  struct split *sp = vs->sp;
  struct ir_ssa ssa;
  ir_ssa_init(&ssa, g);
  size_t cap = 8;
  MlirBlock *blocks = ir_xmalloc(cap * sizeof *blocks);
  MlirValue *defs = ir_xmalloc(cap * sizeof *defs);
  /* cur[su]: where item `it` is in suspension su's list; items go up, so
   * every cursor only moves forward (linear in all lists together). */
  size_t *cur = ir_xmalloc((sp->crossing.nsusp + 1) * sizeof *cur);
  memcpy(cur, sp->crossing.start, sp->crossing.nsusp * sizeof *cur);
  bool ok = true;
  for (size_t it = 0; it < sp->crossing.nitem; ++it) {
    if (sp->crossing.item[it].alloca || !vs->need[it])
      continue;
    size_t n = 0;
    for (size_t q = sp->crossing.istart[it]; q < sp->crossing.istart[it + 1];
         ++q) {
      size_t su = sp->crossing.ilist[q];
      if (mlirBlockIsNull(vs->landing[su]))
        continue;
      /* The reload of item `it` at suspension `su`. */
      size_t at = cur[su];
      while (sp->crossing.list[at] != it)
        ++at;
      cur[su] = at;
      if (n == cap) {
        cap *= 2;
        blocks = ir_xrealloc(blocks, cap * sizeof *blocks);
        defs = ir_xrealloc(defs, cap * sizeof *defs);
      }
      blocks[n] = vs->landing[su];
      defs[n++] = vs->reload[at];
    }
    if (n)
      ok &= ir_ssa_add_defs(&ssa, split_mapv(vs, sp->crossing.item[it].value),
                            n, blocks, defs);
  }
  free(cur);
  free(blocks);
  free(defs);
  for (size_t i = 0; i < vs->ntail; ++i)
    ok &= ir_ssa_add_defs(&ssa, vs->tail_v[i], 1, &vs->tail_at[i],
                          &vs->tail_copy[i]);
  ir_ssa_free(&ssa);
  drop_known_index_stores(vs, g);
  if (!ok)
    mlirEmitError(sp->loc, "--coro-split could not rebuild SSA form: a block "
                           "reached through a terminator other than "
                           "llvm.br, llvm.cond_br or llvm.switch needs an "
                           "argument");
  return ok;
}

static bool unused(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, r))))
      return false;
  return true;
}

/* Whether `op` is a constant or an address that nothing uses. */
bool split_dead_value(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 1 && unused(op) &&
         (ir_op_is_constant(op) || coro_op_named(op, "llvm.getelementptr"));
}

/* Erases `op` and then the constants and addresses it was the last user
 * of, except those of block `scan` (the caller's loop meets them later). */
static void erase_dead(MlirOperation op, MlirBlock scan,
                       struct ir_opvec *work) {
  ir_opvec_push(work, op);
  while (work->n) {
    MlirOperation o = work->v[--work->n];
    size_t below = work->n;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      if (!mlirValueIsAOpResult(v))
        continue;
      MlirOperation d = mlirOpResultGetOwner(v);
      bool dup = mlirBlockEqual(mlirOperationGetBlock(d), scan);
      for (size_t j = below; j < work->n && !dup; ++j)
        dup = mlirOperationEqual(work->v[j], d);
      if (!dup)
        ir_opvec_push(work, d);
    }
    split_erase(o);
    /* keep those `o` was the last user of */
    size_t keep = below;
    for (size_t k = below; k < work->n; ++k)
      if (split_dead_value(work->v[k]))
        work->v[keep++] = work->v[k];
    work->n = keep;
  }
}

/* Erases the ops of `blocks` that `dead` picks, and then the constants and
 * addresses each was the last user of. Blocks last first and ops last
 * first, so an op is met after its users in its block. */
static void sweep_blocks(const struct ir_blockvec *blocks,
                         bool (*dead)(MlirOperation), struct ir_opvec *work) {
  for (size_t k = blocks->n; k-- > 0;) {
    size_t n;
    MlirOperation *ops = ops_from(blocks->v[k], (MlirOperation){NULL}, &n);
    for (size_t i = n; i-- > 0;)
      if (dead(ops[i]))
        erase_dead(ops[i], blocks->v[k], work);
    free(ops);
  }
}

/* Whether `op` computes a value nothing uses and does nothing else: a
 * constant, an address, a comparison or conversion, a load that is not
 * volatile. */
static bool dead_computation(MlirOperation op) {
  if (split_dead_value(op) || split_dead_pure(op))
    return true;
  return mlirOperationGetNumResults(op) == 1 && unused(op) &&
         coro_op_named(op, "llvm.load") &&
         mlirAttributeIsNull(mlirOperationGetAttributeByName(
             op, mlirStringRefCreateFromCString("volatile_")));
}

/* Every block of `region`, in order, onto `blocks`. */
static void push_blocks(struct ir_blockvec *blocks, MlirRegion region) {
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    ir_blockvec_push(blocks, b);
}

void split_sweep_region(MlirRegion region) {
  struct ir_blockvec blocks = {0};
  struct ir_opvec work = {0};
  push_blocks(&blocks, region);
  sweep_blocks(&blocks, dead_computation, &work);
  free(blocks.v);
  free(work.v);
}

/* Erases the unused reloads, and the constants and frame addresses nothing
 * uses any more, of a variant (and what they alone used). Blocks last
 * first and ops last first, so an op is met after its users in its
 * block. */
void split_sweep(struct variant_state *vs) {
  struct ir_opvec work = {0};
  size_t nlist = vs->sp->crossing.start[vs->sp->crossing.nsusp];
  for (size_t q = 0; q < nlist; ++q)
    if (!mlirValueIsNull(vs->reload[q]) &&
        unused(mlirOpResultGetOwner(vs->reload[q])))
      erase_dead(mlirOpResultGetOwner(vs->reload[q]), (MlirBlock){NULL}, &work);
  /* A clone's constants are all in its dispatch block (hoist_constants);
   * the others the rewrite made that may die are in its landing blocks,
   * and the addresses of the index stores dropped went with them: the
   * clone's other blocks (all of NAME.resume's, which is most of a
   * coroutine) need no look. Neither do the fronts landings were merged
   * into: their reloads were seen to above, with their addresses, and
   * merge_landing erased what was dead of the tail's copies. */
  struct ir_blockvec blocks = {0};
  if (split_is_clone(vs->v)) {
    ir_blockvec_push(&blocks, vs->dispatch);
    for (size_t i = 0; i < vs->shape.nsusp; ++i)
      if (!mlirBlockIsNull(vs->landing[i]) && !vs->merged[i])
        ir_blockvec_push(&blocks, vs->landing[i]);
  } else {
    push_blocks(&blocks, mlirOperationGetRegion(vs->fn, 0));
  }
  sweep_blocks(&blocks, split_dead_value, &work);
  free(blocks.v);
  free(work.v);
}
