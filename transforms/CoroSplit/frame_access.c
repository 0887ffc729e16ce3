/* frame_access.c - frame fields, spills, reloads and landings.
 *
 * Every access of a frame field goes through split_field_at, which keeps
 * the field's address in the block of the access (a GEP there folds into
 * the access at -O0) and shares addresses a merged landing made. Loads,
 * stores and GEPs are copied from per-variant templates (copying an op
 * costs a fraction of building one). A landing (split_make_landing) is
 * where a clone continues after suspension i: it reloads what the
 * suspension keeps and copies the suspension's tail with the suspend's
 * result known; merged into the front of the block it continues with when
 * that block has no other predecessor. */
#include "coro-runtime/HandleLayout.h"
#include "ir/copy.h"
#include "ir/support.h"
#include "transforms/CoroSplit/split_internal.h"

#include <assert.h>
#include <stdlib.h>

static void put_field_ptr(struct variant_state *vs, struct ir_builder *b,
                          uint64_t offset) {
  if (offset && !ir_ptrmap_find(&vs->fptr, (void *)(uintptr_t)offset))
    ir_ptrmap_put(&vs->fptr, (void *)(uintptr_t)offset,
                  (void *)ir_gep_bytes(b, vs->frame, (int)offset).ptr);
}

/* The ramp's addresses of the promise and of every alloca's field, at
 * `b` (before coro.begin's place), where they dominate every use of the
 * allocas they replace. */
void split_make_field_ptrs(struct variant_state *vs, struct ir_builder *b) {
  const struct split *sp = vs->sp;
  if (!mlirValueIsNull(sp->shape.promise))
    put_field_ptr(vs, b, sp->layout.promise_offset);
  for (size_t it = 0; it < sp->crossing.nitem; ++it)
    if (sp->crossing.item[it].alloca)
      put_field_ptr(vs, b, sp->layout.field[it].offset);
}

/* Frame accesses are built once per variant and kind, then cloned:
 * cloning an op costs a fraction of building one from its name and
 * attributes. A template is a detached copy whose operands are the frame,
 * so that it keeps nothing of the function alive (destroyed with the
 * variant's state). */
static MlirOperation from_template(const struct ir_ptrmap *m, const void *key,
                                   struct ir_builder *b, intptr_t n,
                                   const MlirValue *operands) {
  MlirOperation tpl = {ir_ptrmap_find(m, key)};
  if (mlirOperationIsNull(tpl))
    return tpl;
  MlirOperation op = ir_op_copy(tpl, b->loc, n, operands, 0, NULL);
  ir_insert(b, op);
  return op;
}

static void keep_template(const struct variant_state *vs, struct ir_ptrmap *m,
                          const void *key, MlirOperation made) {
  MlirValue frames[4] = {vs->frame, vs->frame, vs->frame, vs->frame};
  intptr_t n = mlirOperationGetNumOperands(made);
  assert(n <= 4 && "a frame access has at most a value and an address");
  MlirOperation tpl =
      ir_op_copy(made, mlirOperationGetLocation(made), n, frames, 0, NULL);
  ir_ptrmap_put(m, key, (void *)tpl.ptr);
}

void split_free_templates(struct ir_ptrmap *m) {
  for (size_t i = 0; i < m->cap; ++i)
    if (m->from[i])
      mlirOperationDestroy((MlirOperation){m->to[i]});
  ir_ptrmap_free(m);
}

/* The addresses a merged landing made at the front of `block`, or null
 * (see variant_state.front). */
static struct ir_ptrmap *front_of(struct variant_state *vs, MlirBlock block) {
  for (size_t k = 0; k < SPLIT_FRONTS && k < vs->nfront; ++k)
    if (mlirBlockEqual(vs->front[k].block, block))
      return &vs->front[k].at;
  return NULL;
}

/* Starts the front of `block`, where a landing is merged (make_landing). */
static void begin_front(struct variant_state *vs, MlirBlock block) {
  size_t k = vs->nfront++ % SPLIT_FRONTS;
  vs->front[k].block = block;
  ir_ptrmap_clear(&vs->front[k].at);
  vs->building = k + 1;
}

void split_forget_fronts(struct variant_state *vs) {
  for (size_t k = 0; k < SPLIT_FRONTS; ++k)
    ir_ptrmap_free(&vs->front[k].at);
  vs->nfront = vs->building = 0;
}

/* The address of the field at `offset` for an access at `b`: in the ramp
 * the one made for an alloca's field or the promise, in a block a landing
 * was merged into the one that landing made at its front, else a GEP
 * right there. Either way the address is in the access's block: at -O0 a
 * GEP in the block of its use folds into the access, where one made in
 * the entry block would be kept in a stack slot across the function. */
MlirValue split_field_at(struct variant_state *vs, struct ir_builder *b,
                         uint64_t offset) {
  if (!offset)
    return vs->frame;
  const void *key = (const void *)(uintptr_t)offset;
  MlirValue v = {ir_ptrmap_find(&vs->fptr, key)};
  if (!mlirValueIsNull(v))
    return v;
  struct ir_ptrmap *front = front_of(vs, b->block);
  if (front) {
    v.ptr = ir_ptrmap_find(front, key);
    if (!mlirValueIsNull(v))
      return v;
  }
  MlirOperation op = from_template(&vs->tpl_gep, key, b, 1, &vs->frame);
  if (!mlirOperationIsNull(op)) {
    v = mlirOperationGetResult(op, 0);
  } else {
    v = ir_gep_bytes(b, vs->frame, (int)offset);
    keep_template(vs, &vs->tpl_gep, key, mlirOpResultGetOwner(v));
  }
  /* only a landing's own addresses precede every later access */
  if (front && vs->building && front == &vs->front[vs->building - 1].at)
    ir_ptrmap_put(front, key, (void *)v.ptr);
  return v;
}

/* A load of the field at `offset` (of type `t`, aligned to `align`). */
static MlirValue load_field(struct variant_state *vs, struct ir_builder *b,
                            uint64_t offset, MlirType t, unsigned align) {
  MlirValue at = split_field_at(vs, b, offset);
  /* types are 8-aligned pointers: the low bits hold log2(align) <= 6 */
  if (!align || align > 64)
    return ir_load(b, at, t, align);
  const void *key =
      (const void *)((uintptr_t)t.ptr | (uintptr_t)__builtin_ctz(align));
  MlirOperation op = from_template(&vs->tpl_load, key, b, 1, &at);
  if (!mlirOperationIsNull(op))
    return mlirOperationGetResult(op, 0);
  MlirValue v = ir_load(b, at, t, align);
  keep_template(vs, &vs->tpl_load, key, mlirOpResultGetOwner(v));
  return v;
}

/* A store of `v` into the field at `offset`, aligned to `align`; returns
 * the store. */
MlirOperation split_store_field(struct variant_state *vs, struct ir_builder *b,
                                MlirValue v, uint64_t offset, unsigned align) {
  MlirValue at = split_field_at(vs, b, offset);
  const void *key = (const void *)(uintptr_t)(align + 1);
  MlirValue operands[2] = {v, at};
  MlirOperation op = from_template(&vs->tpl_store, key, b, 2, operands);
  if (mlirOperationIsNull(op)) {
    op = ir_store(b, v, at, align);
    keep_template(vs, &vs->tpl_store, key, op);
  }
  return op;
}

/* Clears the resume pointer of `frame`: the coroutine is done. */
void split_mark_done(struct variant_state *vs, struct ir_builder *b) {
  ir_store(b, ir_null(b), split_field_at(vs, b, CORO_HANDLE_RESUME_OFFSET), 8);
}

/* Stores what suspension `i` keeps, its index and, for a final one, the
 * null resume pointer, before `at`. */
void split_store_kept(struct variant_state *vs, size_t i, MlirOperation at) {
  struct split *sp = vs->sp;
  struct ir_builder b = ir_before(at);
  for (size_t q = sp->crossing.start[i]; q < sp->crossing.start[i + 1]; ++q) {
    size_t it = sp->crossing.list[q];
    if (sp->crossing.item[it].alloca || sp->remat.remat[q])
      continue;
    const struct frame_field *f = &sp->layout.field[it];
    split_store_field(vs, &b, split_mapv(vs, sp->crossing.item[it].value),
                      f->offset, (unsigned)f->align);
  }
}

/* Reloads, then recomputations from them (definition order). */
void split_reload_kept(struct variant_state *vs, size_t i,
                       struct ir_builder *b) {
  struct split *sp = vs->sp;
  /* the reloads a recomputation uses, if there is one */
  bool remat = false;
  for (size_t q = sp->crossing.start[i];
       q < sp->crossing.start[i + 1] && !remat; ++q)
    remat = sp->remat.remat[q];
  struct ir_map here = {0};
  for (size_t q = sp->crossing.start[i]; q < sp->crossing.start[i + 1]; ++q) {
    size_t it = sp->crossing.list[q];
    if (sp->crossing.item[it].alloca || !vs->need[it])
      continue;
    MlirValue mine = split_mapv(vs, sp->crossing.item[it].value);
    if (sp->remat.remat[q]) {
      /* the chain it is computed through first (remat.h), once each */
      for (size_t k = sp->remat.cstart[q]; k < sp->remat.cstart[q + 1]; ++k) {
        MlirValue c = split_mapv(vs, sp->remat.chain[k]);
        if (mlirValueEqual(ir_map_lookup(&here, c), c))
          ir_clone_op(mlirOpResultGetOwner(c), &here, b->block, b->before);
      }
      MlirOperation copy =
          ir_clone_op(mlirOpResultGetOwner(mine), &here, b->block, b->before);
      vs->reload[q] = mlirOperationGetResult(copy, 0);
      continue;
    }
    const struct frame_field *f = &sp->layout.field[it];
    vs->reload[q] = load_field(vs, b, f->offset, f->type, (unsigned)f->align);
    if (remat)
      ir_map_value(&here, mine, vs->reload[q]);
  }
  ir_map_free(&here);
}

/* Records the values of `suspend`'s tail used in another block, with
 * their copies `m` made in landing `l` (see variant_state.tail_v). */
static void note_tail_uses(struct variant_state *vs, MlirOperation suspend,
                           const struct ir_map *m, MlirBlock l) {
  MlirBlock home = mlirOperationGetBlock(suspend);
  for (MlirOperation op = mlirOperationGetNextInBlock(suspend);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      bool outside = false;
      for (MlirOpOperand u = mlirValueGetFirstUse(v);
           !mlirOpOperandIsNull(u) && !outside; u = mlirOpOperandGetNextUse(u))
        outside = !mlirBlockEqual(
            mlirOperationGetBlock(mlirOpOperandGetOwner(u)), home);
      MlirValue copy = ir_map_lookup(m, v);
      if (!outside || mlirValueIsNull(copy))
        continue;
      if (vs->ntail == vs->captail) {
        vs->captail = vs->captail ? 2 * vs->captail : 4;
        vs->tail_v = ir_xrealloc(vs->tail_v, vs->captail * sizeof *vs->tail_v);
        vs->tail_copy =
            ir_xrealloc(vs->tail_copy, vs->captail * sizeof *vs->tail_copy);
        vs->tail_at =
            ir_xrealloc(vs->tail_at, vs->captail * sizeof *vs->tail_at);
      }
      vs->tail_v[vs->ntail] = v;
      vs->tail_copy[vs->ntail] = copy;
      vs->tail_at[vs->ntail++] = l;
    }
}

/* The block suspension `i` continues with when its suspend returns `c`,
 * if the landing can be merged into its front: the suspension's tail
 * decides it (and the suspended path, so that the rewrite folds that
 * branch away), it takes no arguments and the suspension's block reaches
 * it through that one edge and is its only predecessor (in the
 * original's graph: a clone's edges are among its original's). Null
 * otherwise. */
static MlirBlock merge_target(const struct variant_state *vs, size_t i,
                              int64_t c) {
  const struct split *sp = vs->sp;
  const struct coro_suspend *s = &vs->shape.susp[i];
  intptr_t k = coro_suspend_target(s, c);
  if (k < 0 || coro_suspend_target(s, -1) < 0)
    return (MlirBlock){NULL};
  MlirBlock home = mlirOperationGetBlock(s->suspend);
  MlirOperation term = mlirBlockGetTerminator(home);
  MlirBlock t = mlirOperationGetSuccessor(term, k);
  if (mlirBlockEqual(t, home) || mlirBlockGetNumArguments(t))
    return (MlirBlock){NULL};
  for (intptr_t j = 0; j < mlirOperationGetNumSuccessors(term); ++j)
    if (j != k && mlirBlockEqual(mlirOperationGetSuccessor(term, j), t))
      return (MlirBlock){NULL};
  MlirOperation oterm =
      mlirBlockGetTerminator(mlirOperationGetBlock(sp->shape.susp[i].suspend));
  size_t ot = ir_cfg_index(&sp->cfg, mlirOperationGetSuccessor(oterm, k));
  if (ot == IR_CFG_NONE ||
      sp->cfg.pred_start[ot + 1] - sp->cfg.pred_start[ot] != 1)
    return (MlirBlock){NULL};
  return t;
}

/* Copies the ops of suspension `s`'s tail but its terminator before
 * `before` in `block` (at its end when null), the suspend returning `cv`,
 * into `copies` (`tail` maps the originals to them). */
static void copy_tail(const struct coro_suspend *s, MlirValue cv,
                      MlirBlock block, MlirOperation before,
                      struct ir_map *tail, struct ir_opvec *copies) {
  ir_map_value(tail, mlirOperationGetResult(s->suspend, 0), cv);
  MlirOperation term =
      mlirBlockGetTerminator(mlirOperationGetBlock(s->suspend));
  for (MlirOperation op = mlirOperationGetNextInBlock(s->suspend);
       !mlirOperationEqual(op, term); op = mlirOperationGetNextInBlock(op))
    ir_opvec_push(copies, ir_clone_op(op, tail, block, before));
}

/* Erases, last first, the copies of a tail that nothing uses once the
 * landing's branch is decided (dead_pure, or a dead_value the sweep would
 * find), but not those the SSA repair gives other blocks (vs->tail_copy
 * from `noted` on). */
static void erase_dead_copies(struct variant_state *vs,
                              const struct ir_opvec *copies, size_t noted) {
  for (size_t k = copies->n; k-- > 0;) {
    MlirOperation op = copies->v[k];
    bool keep = !split_dead_pure(op) && !split_dead_value(op);
    for (size_t j = noted; j < vs->ntail && !keep; ++j)
      keep = mlirOperationEqual(mlirOpResultGetOwner(vs->tail_copy[j]), op);
    if (!keep)
      split_erase(op);
    else if (coro_intr_classify(op) != CI_NONE)
      ir_opvec_push(&vs->tail_intr, op);
  }
}

/* The landing of suspension `i` merged into the front of `t`, the block it
 * continues with (merge_target): the reloads and the copy of the tail
 * before `t`'s own ops.
 * No branch to make, and the accesses `t` makes later share the
 * landing's addresses (a chain's next block stores into the fields it
 * reloaded from). */
static void merge_landing(struct variant_state *vs, size_t i, int64_t c,
                          MlirBlock t) {
  const struct coro_suspend *s = &vs->shape.susp[i];
  MlirOperation first = mlirBlockGetFirstOperation(t);
  vs->merged[i] = true;
  struct ir_builder b = ir_before(first);
  b.loc = mlirOperationGetLocation(s->suspend);
  begin_front(vs, t);
  split_reload_kept(vs, i, &b);
  vs->building = 0;
  MlirValue cv = ir_const_int(&b, 8, c);
  struct ir_map tail = {0};
  struct ir_opvec copies = {0};
  ir_opvec_push(&copies, mlirOpResultGetOwner(cv));
  copy_tail(s, cv, t, first, &tail, &copies);
  size_t noted = vs->ntail;
  note_tail_uses(vs, s->suspend, &tail, t);
  ir_map_free(&tail);
  erase_dead_copies(vs, &copies, noted);
  free(copies.v);
}

/* A landing block of suspension `i` for a clone: reloads what it keeps,
 * then a copy of the suspension's tail with the suspend returning `c`
 * (merged into the block that follows when it can be, merge_landing). */
MlirBlock split_make_landing(struct variant_state *vs, size_t i, int64_t c) {
  MlirBlock t = merge_target(vs, i, c);
  if (!mlirBlockIsNull(t)) {
    merge_landing(vs, i, c, t);
    return t;
  }
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  const struct coro_suspend *s = &vs->shape.susp[i];
  MlirLocation loc = mlirOperationGetLocation(s->suspend);
  MlirBlock l = ir_new_block(region, 0, NULL, loc);
  struct ir_builder b = ir_at_end(l, loc);
  split_reload_kept(vs, i, &b);
  MlirValue cv = ir_const_int(&b, 8, c);
  struct ir_map tail = {0};
  struct ir_opvec copies = {0};
  copy_tail(s, cv, l, (MlirOperation){NULL}, &tail, &copies);
  MlirOperation term =
      mlirBlockGetTerminator(mlirOperationGetBlock(s->suspend));
  MlirOperation tcopy = ir_clone_op(term, &tail, l, (MlirOperation){NULL});
  size_t noted = vs->ntail;
  note_tail_uses(vs, s->suspend, &tail, l);
  ir_map_free(&tail);
  split_fold_terminator(l, copies.n ? copies.v[0] : tcopy);
  erase_dead_copies(vs, &copies, noted);
  free(copies.v);
  return l;
}

MlirValue split_aligned(struct ir_builder *b, MlirValue p, uint64_t align) {
  MlirValue x = ir_ptrtoint(b, p, 64);
  MlirValue up =
      ir_binop(b, "add", x, ir_const_int(b, 64, (long long)(align - 1)));
  MlirValue y = ir_binop(b, "and", up, ir_const_int(b, 64, -(long long)align));
  return ir_val(b, "llvm.inttoptr", 1, &y, mlirValueGetType(p));
}
