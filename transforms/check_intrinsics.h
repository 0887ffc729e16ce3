/* check_intrinsics.h - LLVM's coroutine intrinsics written by hand, checked
 * where the lowering ends (the coro-check-lowered step), before LLVM's
 * coroutine passes (route A) or --coro-split (route B) take them.
 *
 * LLVM's passes assume what its frontends emit: a coroutine's own
 * intrinsics (its id, begin, suspensions, end, frame size and memory) in a
 * function marked presplitcoroutine, one id per coroutine, and a switch
 * id's promise an alloca of the coroutine. Written otherwise they abort,
 * crash or silently read the wrong memory (a promise that is a GEP into an
 * alloca is no promise to LLVM). Each is a located error here:
 *   - a coroutine's own intrinsic in a function that is not a coroutine;
 *   - a second id in one coroutine (a user's llvm.coro.id in a coro-dialect
 *     coroutine, whose conversion made one);
 *   - an llvm.coro.id whose promise is not an llvm.alloca of the coroutine
 *     or null.
 * The intrinsics any function may use on a handle (resume, destroy, done,
 * promise, noop, ...) are not checked. */
#ifndef CORO_TRANSFORMS_CHECK_INTRINSICS_H
#define CORO_TRANSFORMS_CHECK_INTRINSICS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* coro-check-lowered's checks of the function `fn`, in one walk of it: the
 * ops the conversions left (coro_check_lowered_visit, dialect/verify.h),
 * and then, of an llvm.func, its intrinsics as above, once the walk has
 * shown whether it is a coroutine (marked presplitcoroutine, or marked now
 * as coro_mark_presplit marks one). Failure after its errors. */
MlirLogicalResult coro_check_lowered_fn(MlirOperation fn);

#endif /* CORO_TRANSFORMS_CHECK_INTRINSICS_H */
