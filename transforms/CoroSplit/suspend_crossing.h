/* suspend_crossing.h - which values a suspension has to keep.
 *
 * Invariant: after suspend_crossing_compute, the items crossing suspension
 * s (list[start[s] .. start[s+1]) into `item`) are exactly
 *   - the SSA values (op results and block arguments) defined before s and
 *     used on some path from s's resumed or destroyed continuation that
 *     does not pass their definition again, and
 *   - the static allocas whose memory is read (directly, through a pointer
 *     computed from it by llvm.getelementptr, or anywhere at all once the
 *     pointer escapes) on such a path, before its block writes all of it,
 *     when some write of it reaches s: what a suspension keeps of an alloca
 *     is its memory, not its address (an alloca each part writes before it
 *     reads stays in each part, as LLVM keeps clang's exception slots);
 *     an alloca of dynamic size crosses s when it is used on such a path,
 *     written or not (its size is a value the parts may not have),
 * leaving out what the split rebuilds instead of keeping: constants and
 * addresses (rematerialised), the frame pointer (coro.begin), coro.id's
 * token and its promise alloca (a fixed field), the retcon storage (each
 * continuation is passed it) and, at a retcon suspension, its own result
 * (the continuation's parameters). Uses only the ramp runs
 * (after the fall-through coro.end in its block) do not count; neither do
 * paths through the -1 ("suspended") edge of a suspension, which leave the
 * function.
 *
 * Cost: one backward walk per value over the blocks it is live in (the
 * path-exploration liveness of Brandner et al.), plus one pass over each
 * suspension's successors: near-linear in the function, never a walk of
 * the function per suspension. Owned by the caller; free with
 * suspend_crossing_free. */
#ifndef CORO_TRANSFORMS_SUSPEND_CROSSING_H
#define CORO_TRANSFORMS_SUSPEND_CROSSING_H

#include "ir/cfg.h"
#include "transforms/CoroSplit/coro_shape.h"

/* Items are numbered in definition order: an item's operands that are
 * items have smaller numbers. Each suspension's list, and each item's list
 * of suspensions, is ascending. */
struct sc_item {
  MlirValue value; /* the value, or the alloca's result */
  size_t first;    /* the first suspension it crosses */
  /* noted while the analysis has the value at hand, so that the layout,
   * rematerialisation and checks after it need not fetch it again: its
   * type, the number of its block in the graph, and whether an op
   * remat_op_is_cheap defines it */
  MlirType type;
  size_t block;
  bool cheap;
  bool alloca; /* an llvm.alloca kept in the frame */
};

struct suspend_crossing {
  size_t nitem;
  struct sc_item *item;
  size_t nsusp;
  size_t *start, *list;   /* CSR: items crossing each suspension */
  size_t *istart, *ilist; /* CSR: suspensions each item crosses */
  /* [nitem] for an alloca with lifetime markers: its markers, the blocks
   * of the graph it is alive on entry to, and those it is alive anywhere
   * in (a bit each); else empty and null */
  const struct ir_cfg *g;
  struct ir_opvec *markers;
  uint8_t **alive, **present;
};

/* Computes the crossing sets of the coroutine `s` over its graph `g`, in
 * the module whose symbol table is `table` (may be null: calls' callees
 * are then not looked at). False after located errors: a token, or an
 * alloca of dynamic size, live across a suspension. With `dynamic`, allocas of
 * dynamic size are appended there instead of reported (the sets then leave them
 * out: the caller rewrites them and computes again). */
bool suspend_crossing_compute(struct suspend_crossing *sc,
                              const struct coro_shape *s,
                              const struct ir_cfg *g, MlirSymbolTable table,
                              struct ir_opvec *dynamic);
void suspend_crossing_free(struct suspend_crossing *sc);

/* Whether items `i` and `j`, allocas with lifetime markers both, are
 * never alive at once (from a llvm.intr.lifetime.start to the
 * llvm.intr.lifetime.end after it): they may then share frame memory, as
 * LLVM's CoroSplit shares the slots of such allocas. False for any other
 * pair. */
bool suspend_crossing_disjoint(const struct suspend_crossing *sc, size_t i,
                               size_t j);

#endif /* CORO_TRANSFORMS_SUSPEND_CROSSING_H */
