/* suspend_points.h - which values are live across a suspension point.
 *
 * Invariant: the analysis over-approximates control flow, never
 * under-approximates it. Its graph has one node per operation of a function
 * body, nested regions included; an edge means "may run next": the next op
 * in a block, the first op of each branch successor, the first op of each
 * region an op holds (and the op's own next op, as regions may be skipped),
 * and from a region's last op back out to its parent's next op; loops
 * (scf.for/while/parallel/forall, affine.for/parallel, and any op this file
 * does not know) also flow back into their regions. A value is live across a
 * suspension when a suspension (coro.yield, coro.await) is reachable from its
 * definition and a use of it, or of a pointer/memref derived from it, is
 * reachable from that suspension. So "not live across" is a proof; "live
 * across" may be a false alarm only inside unknown region ops. */
#ifndef CORO_DIALECT_SUSPEND_POINTS_H
#define CORO_DIALECT_SUSPEND_POINTS_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Whether `op` is a suspension point: coro.yield or coro.await. */
bool sp_is_suspension(MlirOperation op);

/* Whether control may leave `op`'s regions and re-enter them (a loop, or an
 * op this analysis does not know). */
bool sp_is_loop(MlirOperation op);

/* Whether `v`, defined by an op in a function body, is live across a
 * suspension; if so, *suspension is one such suspension. */
bool sp_live_across(MlirValue v, MlirOperation *suspension);

/* Whether the address `v` (or one computed from it, as collect_uses
 * follows them) escapes: it becomes an integer (llvm.ptrtoint), is stored
 * as a value, or is passed to a call; *where is that op. */
bool sp_address_escapes(MlirValue v, MlirOperation *where);

#endif /* CORO_DIALECT_SUSPEND_POINTS_H */
