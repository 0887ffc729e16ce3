/* blocks.c - block surgery and cloning with a value map (see blocks.h).
 * Values and blocks map through pointer-keyed hash tables, so a clone is
 * linear in the size of what it copies. */
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/copy.h"
#include "ir/support.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *ir_grow(void *v, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return v;
  *cap = *cap ? 2 * *cap : 16;
  v = ir_xrealloc(v, *cap * size);
  return v;
}

void ir_opvec_push(struct ir_opvec *o, MlirOperation op) {
  o->v = ir_grow(o->v, &o->cap, o->n, sizeof *o->v);
  o->v[o->n++] = op;
}

void ir_opvec_append(struct ir_opvec *o, const struct ir_opvec *from) {
  for (size_t i = 0; i < from->n; ++i)
    ir_opvec_push(o, from->v[i]);
}

void ir_blockvec_push(struct ir_blockvec *o, MlirBlock b) {
  o->v = ir_grow(o->v, &o->cap, o->n, sizeof *o->v);
  o->v[o->n++] = b;
}

MlirBlock ir_split_after(MlirOperation op) {
  MlirBlock block = mlirOperationGetBlock(op);
  MlirRegion region = mlirBlockGetParentRegion(block);
  MlirBlock next = mlirBlockCreate(0, NULL, NULL);
  mlirRegionInsertOwnedBlockAfter(region, block, next);
  MlirOperation it = mlirOperationGetNextInBlock(op);
  while (!mlirOperationIsNull(it)) {
    MlirOperation following = mlirOperationGetNextInBlock(it);
    mlirOperationRemoveFromParent(it);
    mlirBlockAppendOwnedOperation(next, it);
    it = following;
  }
  return next;
}

static MlirBlock create_block(intptr_t nArgs, const MlirType *types,
                              MlirLocation loc) {
  MlirLocation *locs = ir_xmalloc((size_t)(nArgs + 1) * sizeof *locs);
  for (intptr_t i = 0; i < nArgs; ++i)
    locs[i] = loc;
  MlirBlock b = mlirBlockCreate(nArgs, types, locs);
  free(locs);
  return b;
}

MlirBlock ir_new_block(MlirRegion region, intptr_t nArgs, const MlirType *types,
                       MlirLocation loc) {
  MlirBlock b = create_block(nArgs, types, loc);
  mlirRegionAppendOwnedBlock(region, b);
  return b;
}

MlirBlock ir_block_after(MlirBlock after, intptr_t nArgs, const MlirType *types,
                         MlirLocation loc) {
  MlirBlock b = create_block(nArgs, types, loc);
  mlirRegionInsertOwnedBlockAfter(mlirBlockGetParentRegion(after), after, b);
  return b;
}

/*===--- value map ----------------------------------------------------------*/

/* `cap` is a power of two kept at least twice `n`. */
static size_t slot_of(const struct ir_ptrmap *m, const void *k) {
  size_t i = ir_ptr_slot(k, m->cap);
  while (m->from[i] && m->from[i] != k)
    i = (i + 1) & (m->cap - 1);
  return i;
}

void ir_ptrmap_put(struct ir_ptrmap *m, const void *from, void *to) {
  if (2 * (m->n + 1) > m->cap) {
    struct ir_ptrmap old = *m;
    m->cap = old.cap ? 2 * old.cap : 64;
    /* one block: the keys, zeroed, then the values, read only where a
     * key is */
    m->from = ir_xmalloc(2 * m->cap * sizeof *m->from);
    memset(m->from, 0, m->cap * sizeof *m->from);
    m->to = m->from + m->cap;
    for (size_t i = 0; i < old.cap; ++i)
      if (old.from[i]) {
        size_t j = slot_of(m, old.from[i]);
        m->from[j] = old.from[i];
        m->to[j] = old.to[i];
      }
    free(old.from);
  }
  size_t i = slot_of(m, from);
  if (!m->from[i])
    ++m->n;
  m->from[i] = (void *)from;
  m->to[i] = to;
}

void ir_ptrmap_merge(struct ir_ptrmap *m, const struct ir_ptrmap *from) {
  for (size_t i = 0; i < from->cap; ++i)
    if (from->from[i])
      ir_ptrmap_put(m, from->from[i], from->to[i]);
}

void *ir_ptrmap_find(const struct ir_ptrmap *m, const void *k) {
  if (!m->cap)
    return NULL;
  size_t i = slot_of(m, k);
  return m->from[i] ? m->to[i] : NULL;
}

void ir_ptrmap_free(struct ir_ptrmap *m) {
  free(m->from); /* and m->to, in the same block */
  *m = (struct ir_ptrmap){0};
}

void ir_ptrmap_clear(struct ir_ptrmap *m) {
  if (m->cap)
    memset(m->from, 0, m->cap * sizeof *m->from);
  m->n = 0;
}

static void *ptrmap_get(const struct ir_ptrmap *m, void *k) {
  if (!m->cap)
    return k;
  size_t i = slot_of(m, k);
  return m->from[i] ? m->to[i] : k;
}

void ir_map_value(struct ir_map *m, MlirValue from, MlirValue to) {
  ir_ptrmap_put(&m->values, (void *)from.ptr, (void *)to.ptr);
}

MlirValue ir_map_lookup(const struct ir_map *m, MlirValue v) {
  return (MlirValue){ptrmap_get(&m->values, (void *)v.ptr)};
}

static void map_block(struct ir_map *m, MlirBlock from, MlirBlock to) {
  ir_ptrmap_put(&m->blocks, from.ptr, to.ptr);
}

MlirBlock ir_map_block(const struct ir_map *m, MlirBlock b) {
  return (MlirBlock){ptrmap_get(&m->blocks, b.ptr)};
}

void ir_map_free(struct ir_map *m) {
  ir_ptrmap_free(&m->values);
  ir_ptrmap_free(&m->blocks);
}

/*===--- cloning ------------------------------------------------------------*/

/* Remaps the operands of every op nested in `clone` (a copy made by
 * mlirOperationClone, which maps what is defined inside it) that still
 * refer to values outside it. */
static MlirWalkResult remap_nested(MlirOperation op, void *user) {
  const struct ir_map *m = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirValue to = ir_map_lookup(m, v);
    if (!mlirValueEqual(v, to))
      mlirOperationSetOperand(op, i, to);
  }
  return MlirWalkResultAdvance;
}

/* `fn` on `op` and, pre-order, every op nested in it. Most ops have no
 * region: they get a direct call, not MLIR's walker, whose callback costs
 * more than the look-ups `fn` makes. */
static void visit(MlirOperation op, MlirOperationWalkCallback fn, void *user) {
  if (mlirOperationGetNumRegions(op) == 0)
    fn(op, user);
  else
    mlirOperationWalk(op, fn, user, MlirWalkPreOrder);
}

/* A copy of `op`, which has no region, with its operands and successors
 * mapped through `m`. */
static MlirOperation copy_flat(MlirOperation op, const struct ir_map *m) {
  MlirValue few[8];
  MlirBlock succ[4];
  intptr_t n = mlirOperationGetNumOperands(op);
  intptr_t ns = mlirOperationGetNumSuccessors(op);
  MlirValue *vals = n <= 8 ? few : ir_xmalloc((size_t)n * sizeof *vals);
  MlirBlock *blocks = ns <= 4 ? succ : ir_xmalloc((size_t)ns * sizeof *blocks);
  for (intptr_t i = 0; i < n; ++i)
    vals[i] = ir_map_lookup(m, mlirOperationGetOperand(op, i));
  for (intptr_t i = 0; i < ns; ++i)
    blocks[i] = ir_map_block(m, mlirOperationGetSuccessor(op, i));
  MlirOperation copy =
      ir_op_copy(op, mlirOperationGetLocation(op), n, vals, ns, blocks);
  if (vals != few)
    free(vals);
  if (blocks != succ)
    free(blocks);
  return copy;
}

MlirOperation ir_clone_op(MlirOperation op, struct ir_map *m, MlirBlock block,
                          MlirOperation before) {
  MlirOperation copy;
  if (mlirOperationGetNumRegions(op) == 0) {
    copy = copy_flat(op, m);
  } else {
    copy = mlirOperationClone(op);
    mlirOperationWalk(copy, remap_nested, m, MlirWalkPreOrder);
    for (intptr_t i = 0; i < mlirOperationGetNumSuccessors(copy); ++i)
      mlirOperationSetSuccessor(
          copy, i, ir_map_block(m, mlirOperationGetSuccessor(copy, i)));
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    ir_map_value(m, mlirOperationGetResult(op, i),
                 mlirOperationGetResult(copy, i));
  if (mlirOperationIsNull(before))
    mlirBlockAppendOwnedOperation(block, copy);
  else
    mlirBlockInsertOwnedOperationBefore(block, before, copy);
  return copy;
}

/* The second pass of a clone: operands that referred to values cloned
 * later; with `placeholders`, a value of `src` left uncloned gets one. */
struct remap_late {
  struct ir_map *m;
  MlirRegion src;
  MlirBlock first; /* where placeholders go */
  bool placeholders;
};

/* Whether `v` is defined by an op of a block of `src` (not nested). */
static bool defined_in(MlirValue v, MlirRegion src) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirBlock b = mlirOperationGetBlock(mlirOpResultGetOwner(v));
  return !mlirBlockIsNull(b) &&
         mlirRegionEqual(mlirBlockGetParentRegion(b), src);
}

static MlirWalkResult remap_late_op(MlirOperation op, void *user) {
  struct remap_late *r = user;
  for (intptr_t i = 0; r->placeholders && i < mlirOperationGetNumOperands(op);
       ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueEqual(ir_map_lookup(r->m, v), v) || !defined_in(v, r->src))
      continue;
    MlirOperation at = mlirBlockGetFirstOperation(r->first);
    struct ir_builder b = mlirOperationIsNull(at)
                              ? ir_at_end(r->first, mlirValueGetLocation(v))
                              : ir_before(at);
    b.loc = mlirValueGetLocation(v);
    ir_map_value(r->m, v,
                 ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(v)));
  }
  return remap_nested(op, r->m);
}

/* An empty copy of the block `b` (its arguments, mapped in `m`) appended
 * to `dst`, with `b` mapped to it. */
static MlirBlock clone_block_shell(MlirBlock b, MlirRegion dst,
                                   struct ir_map *m) {
  MlirBlock c = mlirBlockCreate(0, NULL, NULL);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(b); ++i) {
    MlirValue a = mlirBlockGetArgument(b, i); /* keeps its own location */
    ir_map_value(
        m, a,
        mlirBlockAddArgument(c, mlirValueGetType(a), mlirValueGetLocation(a)));
  }
  mlirRegionAppendOwnedBlock(dst, c);
  map_block(m, b, c);
  return c;
}

MlirBlock ir_clone_region_some(MlirRegion src, MlirRegion dst, struct ir_map *m,
                               ir_clone_pick pick, void *user) {
  MlirBlock first = {NULL};
  for (MlirBlock b = mlirRegionGetFirstBlock(src); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    MlirBlock c = clone_block_shell(b, dst, m);
    if (mlirBlockIsNull(first))
      first = c;
  }
  /* Values are defined before they are used in dominance order, not block
   * order: map every result first by cloning in block order, then fix the
   * operands that referred to values cloned later. */
  for (MlirBlock b = mlirRegionGetFirstBlock(src); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    MlirBlock c = ir_map_block(m, b);
    size_t n = 0;
    const MlirOperation *some = pick ? pick(b, &n, user) : NULL;
    if (some) {
      for (size_t i = 0; i < n; ++i)
        ir_clone_op(some[i], m, c, (MlirOperation){NULL});
      continue;
    }
    for (MlirOperation op = mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      ir_clone_op(op, m, c, (MlirOperation){NULL});
  }
  struct remap_late late = {m, src, first, pick != NULL};
  for (MlirBlock b = mlirRegionGetFirstBlock(src); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(ir_map_block(m, b));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      visit(op, remap_late_op, &late);
  return first;
}

MlirBlock ir_clone_region(MlirRegion src, MlirRegion dst, struct ir_map *m) {
  return ir_clone_region_some(src, dst, m, NULL, NULL);
}

void ir_reachable_blocks(MlirBlock start, struct ir_blockvec *out,
                         struct ir_ptrmap *seen) {
  size_t first = out->n;
  ir_blockvec_push(out, start);
  ir_ptrmap_put(seen, start.ptr, start.ptr);
  for (size_t i = first; i < out->n; ++i) {
    MlirOperation t = mlirBlockGetTerminator(out->v[i]);
    intptr_t n = mlirOperationIsNull(t) ? 0 : mlirOperationGetNumSuccessors(t);
    for (intptr_t k = 0; k < n; ++k) {
      MlirBlock s = mlirOperationGetSuccessor(t, k);
      if (!ir_ptrmap_find(seen, s.ptr)) {
        ir_ptrmap_put(seen, s.ptr, s.ptr);
        ir_blockvec_push(out, s);
      }
    }
  }
}

MlirBlock ir_clone_reachable(MlirBlock start, struct ir_map *m) {
  MlirRegion region = mlirBlockGetParentRegion(start);
  struct ir_blockvec todo = {0};
  struct ir_ptrmap seen = {0};
  ir_reachable_blocks(start, &todo, &seen);
  for (size_t i = 0; i < todo.n; ++i)
    clone_block_shell(todo.v[i], region, m);
  /* as ir_clone_region_some: results first, then the operands that
   * referred to values cloned later */
  for (size_t i = 0; i < todo.n; ++i)
    for (MlirOperation op = mlirBlockGetFirstOperation(todo.v[i]);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      ir_clone_op(op, m, ir_map_block(m, todo.v[i]), (MlirOperation){NULL});
  for (size_t i = 0; i < todo.n; ++i)
    for (MlirOperation op =
             mlirBlockGetFirstOperation(ir_map_block(m, todo.v[i]));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      visit(op, remap_nested, m);
  MlirBlock first = ir_map_block(m, start);
  free(todo.v);
  ir_ptrmap_free(&seen);
  return first;
}
