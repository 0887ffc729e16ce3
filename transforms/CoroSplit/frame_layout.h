/* frame_layout.h - where each value a switched-resume coroutine keeps lives
 * in its frame.
 *
 * The frame starts with LLVM's header, so route-A and route-B code
 * interoperate: the resume function at 0, the destroy function at 8, the
 * promise (coro.id's alloca) at HandleLayout.h's offset rounded up to its
 * alignment, then the kept values, the allocas kept in the frame and the
 * suspension index, in one order (below). An alloca's storage is its own
 * wherever it is alive, not only at suspensions (its memory is live
 * between its uses): two allocas share bytes only when lifetime markers
 * show they are never alive at once.
 *
 * Invariant: two spilled values share bytes only if no suspension keeps
 * both, and a spilled value shares bytes with an alloca only if no
 * suspension keeps both; values are stored right before a suspension and
 * loaded right after it, so that is all sharing needs. Values are placed
 * by decreasing alignment, then size, each at the lowest offset free at
 * every suspension it crosses (a bump pointer per suspension, and below
 * it the largest gap alignment left, which a smaller field placed later
 * fills, as LLVM's layout fills padding): a chain whose suspensions each
 * keep K values gets header + K values, not the sum over the chain.
 * Linear in the number of (value, suspension) pairs after one sort. The size is padded at its end to the frame's alignment,
 * or to 16 for a frame aligned to more (one object, whose allocator rounds
 * the size up for aligned_alloc). */
#ifndef CORO_TRANSFORMS_FRAME_LAYOUT_H
#define CORO_TRANSFORMS_FRAME_LAYOUT_H

#include "transforms/CoroSplit/suspend_crossing.h"

#include <stdint.h>

struct frame_field {
  uint64_t offset, size, align;
  MlirType type; /* the value's type, or an alloca's element type */
  /* an alloca aligned to more than the frame can be (value_align): its
   * alignment, which its address gets at run time within `size` bytes
   * padded for it; 0 otherwise */
  uint64_t realign;
};

struct frame_layout {
  uint64_t size, align;
  uint64_t promise_offset; /* meaningful when the coroutine has a promise */
  uint64_t index_offset;
  unsigned index_width;      /* 8, 16 or 32 */
  struct frame_field *field; /* [sc->nitem] */
};

/* Lays out the frame of a coroutine with crossing sets `sc`, of which the
 * pairs flagged in `iremat` (parallel to sc->ilist; may be null) are
 * recomputed rather than kept, and promise alloca `promise` (or null). An
 * item kept at no suspension gets no field (size 0). Without `header` (a
 * returned-continuation coroutine, whose continuations know where they
 * resume) the frame has no header, no promise and no index: fields start
 * at 0. With `value_align` (not 0), a kept value aligned to more is
 * aligned to that in the frame, as LLVM does where the frame's alignment is
 * bounded (the async context's), and an alloca aligned to more gets room
 * to be aligned at run time (`realign`). False after a
 * located error (a value whose size is unknown or too large). */
bool frame_layout_compute(struct frame_layout *fl,
                          const struct suspend_crossing *sc, const bool *iremat,
                          MlirValue promise, bool header, uint64_t value_align);
void frame_layout_free(struct frame_layout *fl);

/* The element type, size and alignment an llvm.alloca with a constant
 * count reserves. False for an unknown layout. */
bool frame_alloca_layout(MlirOperation alloca, MlirType *elem, uint64_t *size,
                         uint64_t *align);

#endif /* CORO_TRANSFORMS_FRAME_LAYOUT_H */
