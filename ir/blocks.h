/* blocks.h - block surgery and cloning with a value map.
 *
 * Splitting moves ops (never copies them), so uses stay valid. Cloning
 * copies a region's blocks and ops into another region, mapping every
 * value defined in the source to its copy (`struct ir_map`); values defined
 * outside the source map to themselves unless the caller mapped them first
 * (function arguments to the new function's, say). The map is owned by its
 * user and freed with ir_map_free. */
#ifndef CORO_IR_BLOCKS_H
#define CORO_IR_BLOCKS_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing array of ops (owned by its user: free `v`). */
/* Room for one more element in the array `v` of `n` elements of `size`
 * bytes and capacity `*cap` (doubled when full): returns the array, moved
 * if it had to be. */
void *ir_grow(void *v, size_t *cap, size_t n, size_t size);

struct ir_opvec {
  MlirOperation *v;
  size_t n, cap;
};
void ir_opvec_push(struct ir_opvec *o, MlirOperation op);
/* Pushes the ops of `from` onto `o`, in order. */
void ir_opvec_append(struct ir_opvec *o, const struct ir_opvec *from);
/* A growing array of blocks (a work list; owned by its user: free `v`). */
struct ir_blockvec {
  MlirBlock *v;
  size_t n, cap;
};
void ir_blockvec_push(struct ir_blockvec *o, MlirBlock b);

/* Splits the block of `op` after it: the ops following `op` move, in order,
 * to a new block inserted right after; returns that block. */
MlirBlock ir_split_after(MlirOperation op);
/* A new block with arguments (all at `loc`) appended to `region`. */
MlirBlock ir_new_block(MlirRegion region, intptr_t nArgs, const MlirType *types,
                       MlirLocation loc);
/* A new block with arguments inserted right after `after`. */
MlirBlock ir_block_after(MlirBlock after, intptr_t nArgs, const MlirType *types,
                         MlirLocation loc);

/* The home slot of pointer `p` in an open-addressed table of `cap` slots
 * (a power of two): the top bits of a Fibonacci hash, so pointers that
 * differ only in their high bits (a heap of gigabytes) spread too. */
static inline size_t ir_ptr_slot(const void *p, size_t cap) {
  unsigned long long h =
      (unsigned long long)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
  return cap > 1 ? (size_t)(h >> (64 - __builtin_ctzll(cap))) : 0;
}

/* A pointer-keyed hash map (open addressing). */
struct ir_ptrmap {
  void **from, **to;
  size_t n, cap;
};
/* Maps `from` (not NULL) to `to`. */
void ir_ptrmap_put(struct ir_ptrmap *m, const void *from, void *to);
/* What `k` maps to, or NULL. */
void *ir_ptrmap_find(const struct ir_ptrmap *m, const void *k);
void ir_ptrmap_free(struct ir_ptrmap *m);
/* Puts every key of `from` into `m`, with its value. */
void ir_ptrmap_merge(struct ir_ptrmap *m, const struct ir_ptrmap *from);
/* Empties `m`, keeping its memory. */
void ir_ptrmap_clear(struct ir_ptrmap *m);

/* A value map and a block map, for cloning. */
struct ir_map {
  struct ir_ptrmap values, blocks;
};
void ir_map_value(struct ir_map *m, MlirValue from, MlirValue to);
/* The value `v` maps to (`v` itself when unmapped). */
MlirValue ir_map_lookup(const struct ir_map *m, MlirValue v);
MlirBlock ir_map_block(const struct ir_map *m, MlirBlock b);
void ir_map_free(struct ir_map *m);

/* Clones `op` (with its regions) before `before` in `block` (appends when
 * `before` is null), remapping its operands, the operands of the ops
 * nested in it that come from outside it, and its successors through `m`;
 * records its results' copies in `m`. Returns the copy. */
MlirOperation ir_clone_op(MlirOperation op, struct ir_map *m, MlirBlock block,
                          MlirOperation before);
/* Clones every block of `src` to the end of `dst` (block arguments
 * included), then every op, mapping values and successors through `m`;
 * returns the copy of the first block. */
MlirBlock ir_clone_region(MlirRegion src, MlirRegion dst, struct ir_map *m);

/* Which ops of `b`, a block of the source region, ir_clone_region_some
 * copies: null for all of them, else an array of *n of its ops in block
 * order (borrowed; asked once per block, in block order). */
typedef const MlirOperation *(*ir_clone_pick)(MlirBlock b, size_t *n,
                                              void *user);
/* ir_clone_region, copying every block but only the ops `pick` gives.
 * A result of an op left out that a copied op uses is mapped to a
 * placeholder, an llvm.mlir.poison at the start of the copy of the first
 * block: the caller makes sure such uses are replaced or die (a use that
 * no path reaches, a value it defines again). */
MlirBlock ir_clone_region_some(MlirRegion src, MlirRegion dst, struct ir_map *m,
                               ir_clone_pick pick, void *user);

/* Appends to `out` `start` and every block reachable from it through
 * successors, each once, `start` first; `seen` (empty on entry) holds them
 * as keys afterwards. */
void ir_reachable_blocks(MlirBlock start, struct ir_blockvec *out,
                         struct ir_ptrmap *seen);

/* Clones `start` and every block reachable from it (through successors) to
 * the end of their region, mapping values and successors through `m`;
 * returns the copy of `start`, which no branch targets yet (tail
 * duplication: a predecessor of `start` may branch to it instead). */
MlirBlock ir_clone_reachable(MlirBlock start, struct ir_map *m);

/* A walk over the ops at the top of every block of a region, in order:
 *
 *   for (struct ir_op_walk w = ir_op_walk_start(region); ir_op_walk_next(&w);)
 *     visit(w.op); // w.block is its block
 *
 * The op after w.op is taken before the body runs, so the body may erase
 * w.op, or split its block after it (the walk goes on in the new block);
 * it must not erase the op after it. Blocks added after the current one
 * are walked; ops inserted before the next op are not. */
struct ir_op_walk {
  MlirBlock block;    /* the block of `op` */
  MlirOperation op;   /* the op the body sees */
  MlirOperation next; /* the op after it, taken beforehand */
};

static inline struct ir_op_walk ir_op_walk_start(MlirRegion region) {
  struct ir_op_walk w = {mlirRegionGetFirstBlock(region), {NULL}, {NULL}};
  if (!mlirBlockIsNull(w.block))
    w.next = mlirBlockGetFirstOperation(w.block);
  return w;
}

static inline bool ir_op_walk_next(struct ir_op_walk *w) {
  while (mlirOperationIsNull(w->next)) {
    if (mlirBlockIsNull(w->block))
      return false;
    w->block = mlirBlockGetNextInRegion(w->block);
    if (mlirBlockIsNull(w->block))
      return false;
    w->next = mlirBlockGetFirstOperation(w->block);
  }
  w->op = w->next;
  w->block = mlirOperationGetBlock(w->op);
  w->next = mlirOperationGetNextInBlock(w->op);
  return true;
}

#endif /* CORO_IR_BLOCKS_H */
