/* remat.h - the values a suspension recomputes instead of keeping.
 *
 * Invariant: remat[q] (parallel to sc->list) is true only when the item
 * list[q] of suspension s is an SSA value defined by a cheap op without
 * side effects (integer and floating-point arithmetic, comparisons,
 * casts, getelementptr, select) each of whose operands is, after s, a
 * constant, the frame pointer, the retcon storage, another item of s that is
 * either kept or recomputed itself, or a chain value: one s does not keep,
 * computed by a cheap op from operands of these kinds (at most REMAT_CHAIN
 * chain ops per item; chain[cstart[q] .. cstart[q+1]) lists the item's, each
 * after those it uses; two items' chains may share a value, which a split then
 * rebuilds once). Recomputing therefore never makes a suspension keep a value
 * it would not have kept anyway: the frame only shrinks (LLVM's
 * rematerialisation adds the operands to the frame instead). Items are visited
 * in definition order, so a chain of cheap ops over one kept value is rebuilt
 * op by op from it after the suspension: linear, where a copy of the whole
 * chain per value would be quadratic. iremat is the same flags parallel to
 * sc->ilist. Owned by the caller (remat_free). */
#ifndef CORO_TRANSFORMS_REMAT_H
#define CORO_TRANSFORMS_REMAT_H

#include "transforms/CoroSplit/coro_shape.h"
#include "transforms/CoroSplit/suspend_crossing.h"

struct remat {
  bool *remat;    /* [sc->start[nsusp]] */
  bool *iremat;   /* [same], parallel to sc->ilist */
  size_t *cstart; /* [same + 1]: each pair's chain values in `chain` */
  MlirValue *chain;
};

/* The most chain ops one recomputed value rebuilds (LLVM's CoroSplit
 * recomputes chains of up to four as well). */
#define REMAT_CHAIN 4

void remat_compute(struct remat *r, const struct suspend_crossing *sc,
                   const struct coro_shape *shape);
void remat_free(struct remat *r);
/* True when `op` is cheap to recompute and has no side effect. */
bool remat_op_is_cheap(MlirOperation op);

#endif /* CORO_TRANSFORMS_REMAT_H */
