/* coro_elide.h - --coro-elide: which coroutine frames live in their caller
 * (see coro_elide.c).
 *
 * Invariant: a call is marked `coro.elided = true` only when its handle is
 * proven local to the calling function and destroyed on every path there
 * (dialect/handle_escape.h), the callee keeps its own handle to itself,
 * and no chain of such calls between coroutines leads back to the caller
 * (a frame cannot contain itself). Every other call of a switch coroutine
 * is marked `coro.elided = false`, with a remark that says why. */
#ifndef CORO_TRANSFORMS_CORO_ELIDE_H
#define CORO_TRANSFORMS_CORO_ELIDE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Decides every call of a switch coroutine in `module` (the coro dialect)
 * and marks it. Fails, with a located error at the op that lets the handle
 * escape, where coro.alloc = "elide" asserts what is not true. */
MlirLogicalResult coro_elide_run(MlirOperation module);

/* The coro-elide remark "'CALLEE' elided in 'CALLER'" at `loc` (the one
 * text for --coro-elide's decisions and --coro-split's own, made where
 * --coro-elide did not run). */
void coro_elide_remark_elided(MlirLocation loc, MlirStringRef callee,
                              MlirStringRef caller);

#endif /* CORO_TRANSFORMS_CORO_ELIDE_H */
