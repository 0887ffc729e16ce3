/* reach.c - what each part of a coroutine reaches, reloads and copies.
 *
 * All of it is decided on the original coroutine's graph, once per
 * coroutine where it can be (split_collect_keep, split_note_item_uses),
 * so that a part copies only the blocks it reaches, plus the ops every
 * part needs wherever they are (sp->keep: intrinsics, allocas, values
 * recomputed after a suspension, and what they use), and reloads only the
 * items it may use. Answers err only towards "reached". */
#include "dialect/contract.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/CoroSplit/frame_debug.h"
#include "transforms/CoroSplit/split_internal.h"

#include <assert.h>
#include <stdlib.h>

/* Pushes successor `k` of the terminator of `b` (all of them when `k` is
 * -1) onto the work list, once. */
static void reach_succ(const struct ir_cfg *g, size_t b, MlirBlock block,
                       intptr_t k, bool *seen, size_t *work, size_t *n) {
  if (k >= 0) {
    MlirOperation term = mlirBlockGetTerminator(block);
    size_t t = ir_cfg_index(g, mlirOperationGetSuccessor(term, k));
    if (t != IR_CFG_NONE && !seen[t]) {
      seen[t] = true;
      work[(*n)++] = t;
    }
    return;
  }
  for (size_t e = g->succ_start[b]; e < g->succ_start[b + 1]; ++e)
    if (!seen[g->succ[e]]) {
      seen[g->succ[e]] = true;
      work[(*n)++] = g->succ[e];
    }
}

/* Which suspensions variant `v` reaches once rewritten, on the original's
 * graph: the ramp starts at the entry, a clone at what its landings
 * continue with (the suspend returning 0 in NAME.resume, 1 in the others);
 * every suspension reached goes on as if the suspend returned -1. Where a
 * tail does not decide its successor from the suspend's result alone, all
 * successors count, so the answer only ever errs towards "reached". The
 * suspensions a variant does not reach are left to die with their blocks
 * rather than rewritten (NAME.destroy reaches no more than the cleanup
 * paths, the ramp no more than its first suspensions). */
void split_variant_reach(const struct split *sp, enum variant v, size_t cont,
                         bool *live, bool *seen) {
  const struct ir_cfg *g = &sp->cfg;
  size_t ns = sp->shape.nsusp;
  size_t *work = ir_xmalloc((g->n + 1) * sizeof *work);
  size_t *at = ir_xmalloc((ns + 1) * sizeof *at); /* block of each */
  size_t *decisive = ir_xmalloc((g->n + 1) * sizeof *decisive); /* 1 + susp */
  for (size_t b = 0; b < g->n; ++b) {
    decisive[b] = 0;
    seen[b] = false;
  }
  for (size_t i = 0; i < ns; ++i) {
    at[i] = ir_cfg_index(g, mlirOperationGetBlock(sp->shape.susp[i].suspend));
    live[i] = false;
    if (at[i] != IR_CFG_NONE)
      decisive[at[i]] = decisive[at[i]] ? SIZE_MAX : i + 1; /* two: none */
  }
  size_t n = 0;
  if (split_is_clone(v)) {
    for (size_t i = 0; i < ns; ++i) {
      const struct coro_suspend *s = &sp->shape.susp[i];
      if (at[i] == IR_CFG_NONE || (v == V_RESUME && s->final) ||
          (v == V_CONT && i != cont))
        continue;
      reach_succ(g, at[i], mlirOperationGetBlock(s->suspend),
                 coro_suspend_target(s, v == V_RESUME ? 0 : 1), seen, work, &n);
    }
  } else if (g->n) {
    seen[0] = true;
    work[n++] = 0;
  }
  while (n) {
    size_t b = work[--n];
    size_t d = decisive[b];
    intptr_t k = -1;
    if (d && d != SIZE_MAX) {
      live[d - 1] = true;
      if (sp->abi->suspend_returns)
        continue;
      k = coro_suspend_target(&sp->shape.susp[d - 1], -1);
    } else if (d == SIZE_MAX) {
      for (size_t i = 0; i < ns; ++i)
        live[i] |= at[i] == b;
    }
    reach_succ(g, b, g->block[b], k, seen, work, &n);
  }
  free(work);
  free(at);
  free(decisive);
}

enum {
  ITEM_USE_UNNUMBERED = 1, /* a use in a block the graph does not number */
  ITEM_USE_TAIL = 2        /* a use by an op of a suspension's tail */
};

/* Fills sp->use_start, use_block and use_flags: one walk over the uses of
 * the items, which every variant then reads (variant_needs) instead of
 * walking them again. */
void split_note_item_uses(struct split *sp) {
  const struct suspend_crossing *sc = &sp->crossing;
  struct ir_ptrmap tail = {0}; /* the ops after each suspend in its block */
  for (size_t i = 0; i < sp->shape.nsusp; ++i)
    for (MlirOperation op =
             mlirOperationGetNextInBlock(sp->shape.susp[i].suspend);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      ir_ptrmap_put(&tail, op.ptr, (void *)1);
  sp->use_start = ir_xmalloc((sc->nitem + 1) * sizeof *sp->use_start);
  sp->use_flags = ir_xcalloc(sc->nitem + 1, sizeof *sp->use_flags);
  size_t n = 0, cap = sc->nitem + 1; /* a use each, to begin with */
  sp->use_block = ir_xmalloc(cap * sizeof *sp->use_block);
  for (size_t it = 0; it < sc->nitem; ++it) {
    sp->use_start[it] = n;
    if (sc->item[it].alloca)
      continue;
    MlirBlock last = {NULL};
    for (MlirOpOperand u = mlirValueGetFirstUse(sc->item[it].value);
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation owner = mlirOpOperandGetOwner(u);
      if (ir_ptrmap_find(&tail, owner.ptr))
        sp->use_flags[it] |= ITEM_USE_TAIL;
      MlirBlock ub = mlirOperationGetBlock(owner);
      if (mlirBlockEqual(ub, last))
        continue;
      last = ub;
      size_t b = ir_cfg_index(&sp->cfg, ub);
      if (b == IR_CFG_NONE) {
        sp->use_flags[it] |= ITEM_USE_UNNUMBERED;
        continue;
      }
      sp->use_block = ir_grow(sp->use_block, &cap, n, sizeof *sp->use_block);
      sp->use_block[n++] = b;
    }
  }
  sp->use_start[sc->nitem] = n;
  ir_ptrmap_free(&tail);
}

/* The items a clone needs, with a stack of those newly needed whose
 * recomputations (first[it]: 1 + the first of them in sc->list, next[q]:
 * 1 + the one after q) have not marked their operands yet. */
struct needs {
  bool *need;
  const struct ir_ptrmap *item_of; /* value -> 1 + item */
  size_t *first, *next, *work, nwork;
};

/* Marks the items among `op`'s operands needed. */
static void need_operands(struct needs *n, MlirOperation op) {
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); ++o) {
    uintptr_t it = (uintptr_t)ir_ptrmap_find(
        n->item_of, mlirOperationGetOperand(op, o).ptr);
    if (it && !n->need[it - 1]) {
      n->need[it - 1] = true;
      n->work[n->nwork++] = it - 1;
    }
  }
}

/* Which items a clone reloads: those used in a block it reaches (`seen`,
 * on the original's graph; a use elsewhere counts) or, in a clone
 * (`clone`), by an op of a suspension's tail (which a clone's landing
 * copies), those a suspension it reaches (`live`) stores again, and the
 * operands of any item recomputed after a suspension and of its chain. The
 * others (everything a chain keeps, in NAME.destroy) need no reload. */
void split_variant_needs(const struct split *sp, const bool *live,
                         const bool *seen, bool clone, bool *need) {
  const struct suspend_crossing *sc = &sp->crossing;
  bool any_remat = false;
  for (size_t q = 0; q < sc->start[sc->nsusp] && !any_remat; ++q)
    any_remat = sp->remat.remat[q];
  struct ir_ptrmap item_of = {0}; /* value -> 1 + item */
  unsigned char always = ITEM_USE_UNNUMBERED | (clone ? ITEM_USE_TAIL : 0);
  for (size_t it = 0; it < sc->nitem; ++it) {
    need[it] = false;
    if (sc->item[it].alloca)
      continue;
    if (any_remat)
      ir_ptrmap_put(&item_of, sc->item[it].value.ptr,
                    (void *)(uintptr_t)(it + 1));
    need[it] = sp->use_flags[it] & always;
    for (size_t k = sp->use_start[it]; k < sp->use_start[it + 1] && !need[it];
         ++k)
      need[it] = seen[sp->use_block[k]];
  }
  for (size_t su = 0; su < sc->nsusp; ++su)
    for (size_t q = sc->start[su]; live[su] && q < sc->start[su + 1]; ++q)
      need[sc->list[q]] = true;
  if (!any_remat)
    return;
  /* a value this clone recomputes after a suspension needs its operands
   * and those of the chain it is computed through; one it does not use is
   * not recomputed, and needs nothing (NAME.destroy of a generator whose
   * yields are recomputed). An operand may itself be recomputed, after
   * another suspension: each item is marked, and its recomputations
   * visited, once. */
  size_t nq = sc->start[sc->nsusp];
  struct needs n = {need,
                    &item_of,
                    ir_xcalloc(sc->nitem + 1, sizeof *n.first),
                    ir_xcalloc(nq + 1, sizeof *n.next),
                    ir_xmalloc((sc->nitem + 1) * sizeof *n.work),
                    0};
  for (size_t q = nq; q-- > 0;)
    if (sp->remat.remat[q]) {
      n.next[q] = n.first[sc->list[q]];
      n.first[sc->list[q]] = q + 1;
    }
  for (size_t it = 0; it < sc->nitem; ++it)
    if (need[it] && n.first[it])
      n.work[n.nwork++] = it;
  while (n.nwork) {
    size_t it = n.work[--n.nwork];
    for (size_t q1 = n.first[it]; q1; q1 = n.next[q1 - 1]) {
      size_t q = q1 - 1;
      for (size_t k = sp->remat.cstart[q]; k < sp->remat.cstart[q + 1]; ++k)
        need_operands(&n, mlirOpResultGetOwner(sp->remat.chain[k]));
      need_operands(&n, mlirOpResultGetOwner(sc->item[it].value));
    }
  }
  free(n.first);
  free(n.next);
  free(n.work);
  ir_ptrmap_free(&item_of);
}

/* Marks `op` and, through their operands, the ops of the coroutine that
 * compute what it uses: kept by every copy. */
static void keep_with_operands(struct split *sp, MlirOperation op,
                               struct ir_opvec *work) {
  if (ir_ptrmap_find(&sp->keep, op.ptr))
    return;
  ir_ptrmap_put(&sp->keep, op.ptr, (void *)SPLIT_KEEP_OP);
  ir_opvec_push(work, op);
  while (work->n) {
    MlirOperation o = work->v[--work->n];
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      if (!mlirValueIsAOpResult(v))
        continue;
      MlirOperation def = mlirOpResultGetOwner(v);
      if (ir_ptrmap_find(&sp->keep, def.ptr) ||
          !mlirOperationEqual(mlirOperationGetParentOperation(def), sp->func))
        continue;
      ir_ptrmap_put(&sp->keep, def.ptr, (void *)SPLIT_KEEP_OP);
      ir_opvec_push(work, def);
    }
  }
}

/* The ops every variant copies wherever they are (sp->keep): the
 * coroutine's intrinsics and allocas, the values recomputed after a
 * suspension, and what each of them uses. A suspension maps to 2: the
 * rest of its block is copied too (its landings copy that tail). Also
 * lists the destroy flags (sp->flags). */
void split_collect_keep(struct split *sp) {
  struct ir_opvec work = {0};
  for (size_t i = 0; i < sp->shape.nintr; ++i)
    keep_with_operands(sp, sp->shape.intr[i].op, &work);
  for (size_t i = 0; i < sp->crossing.nitem; ++i)
    if (sp->crossing.item[i].alloca &&
        mlirValueIsAOpResult(sp->crossing.item[i].value))
      keep_with_operands(sp, mlirOpResultGetOwner(sp->crossing.item[i].value),
                         &work);
  for (size_t q = 0; q < sp->crossing.start[sp->crossing.nsusp]; ++q) {
    MlirValue v = sp->crossing.item[sp->crossing.list[q]].value;
    if (sp->remat.remat[q] && mlirValueIsAOpResult(v))
      keep_with_operands(sp, mlirOpResultGetOwner(v), &work);
  }
  for (size_t i = 0; i < sp->shape.allocas.n; ++i) {
    MlirOperation op = sp->shape.allocas.v[i];
    keep_with_operands(sp, op, &work);
    if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(
            op, mlirStringRefCreateFromCString(CORO_DESTROY_FLAG_ATTR))))
      ir_opvec_push(&sp->flags, op);
  }
  for (size_t i = 0; i < sp->shape.nsusp; ++i) {
    MlirOperation s = sp->shape.susp[i].suspend;
    keep_with_operands(sp, s, &work);
    ir_ptrmap_put(&sp->keep, s.ptr, (void *)SPLIT_KEEP_WITH_TAIL);
  }
  free(work.v);
  /* what each block gives a variant that does not reach it */
  const struct ir_cfg *g = &sp->cfg;
  sp->pick_start = ir_xmalloc((g->n + 1) * sizeof *sp->pick_start);
  sp->pick.cap = 2 * g->n + 1; /* a terminator and a constant each */
  sp->pick.v = ir_xmalloc(sp->pick.cap * sizeof *sp->pick.v);
  for (size_t b = 0; b < g->n; ++b) {
    sp->pick_start[b] = sp->pick.n;
    bool rest = false;
    for (MlirOperation op = mlirBlockGetFirstOperation(g->block[b]);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      uintptr_t k = (uintptr_t)ir_ptrmap_find(&sp->keep, op.ptr);
      bool constant = ir_op_is_constant(op);
      if (constant && b)
        ir_opvec_push(&sp->consts, op);
      if (!(rest || k || mlirOperationIsNull(mlirOperationGetNextInBlock(op)) ||
            constant))
        continue;
      rest |= k == SPLIT_KEEP_WITH_TAIL;
      ir_opvec_push(&sp->pick, op);
    }
  }
  sp->pick_start[g->n] = sp->pick.n;
}

/* What a variant copies of the original (ir_clone_region_some): every op
 * of a block it reaches (`seen`), every op of sp->keep and the tails
 * after its suspensions, terminators and constants. What else it leaves
 * out computes values only blocks it never reaches use, or values kept
 * across a suspension, which the variant reloads (the placeholders of the
 * clone die with those blocks or give way to the reloads in repair_ssa). */
struct keep_filter {
  const struct split *sp;
  const bool *seen; /* [cfg.n] */
};

static const MlirOperation *pick_ops(MlirBlock b, size_t *n, void *user) {
  const struct keep_filter *f = user;
  size_t i = ir_cfg_index(&f->sp->cfg, b);
  if (i == IR_CFG_NONE || f->seen[i])
    return NULL;
  *n = f->sp->pick_start[i + 1] - f->sp->pick_start[i];
  return f->sp->pick.v + f->sp->pick_start[i];
}

/* Copies into `fn` what variant `v` (`cont`) of the coroutine reaches,
 * from `body`, the region that holds the coroutine's ops (the coroutine's
 * own, or NAME.resume's once it has taken them), mapping the original's
 * values and blocks in `map`; returns the copy of the entry block. */
MlirBlock split_clone_reached_from(struct split *sp, MlirRegion body,
                                   MlirOperation fn, enum variant v,
                                   size_t cont, struct ir_map *map) {
  bool *live = ir_xcalloc(sp->shape.nsusp + 1, sizeof *live);
  bool *seen = ir_xcalloc(sp->cfg.n + 1, sizeof *seen);
  split_variant_reach(sp, v, cont, live, seen);
  struct keep_filter f = {.sp = sp, .seen = seen};
  MlirBlock entry = ir_clone_region_some(body, mlirOperationGetRegion(fn, 0),
                                         map, pick_ops, &f);
  free(live);
  free(seen);
  return entry;
}

MlirBlock split_clone_reached(struct split *sp, MlirOperation fn,
                              enum variant v, size_t cont, struct ir_map *map) {
  return split_clone_reached_from(sp, mlirOperationGetRegion(sp->func, 0), fn,
                                  v, cont, map);
}

bool split_clone_part(struct split *sp, MlirSymbolTable table, MlirOperation fn,
                      enum variant v, size_t cont) {
  ir_symbol_table_insert(table, fn);
  struct ir_map map = {0};
  split_clone_reached(sp, fn, v, cont, &map);
  struct variant_state vs = {
      .sp = sp, .v = v, .cont = cont, .fn = fn, .map = &map};
  bool ok = split_rewrite_variant(&vs);
  ir_map_free(&map);
  if (!mlirAttributeIsNull(sp->subprogram))
    frame_debug_attach(fn, sp->subprogram, sp->frame_ty);
  return ok;
}
