/* stage_pieces.h - a stage's passes on pieces of a large module at once
 * (capi/stage_pieces.c). */
#ifndef CORO_CAPI_STAGE_PIECES_H
#define CORO_CAPI_STAGE_PIECES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether cutting `module` (a builtin.module) into pieces would pay: its
 * context runs passes on several threads and its body holds enough ops
 * for two pieces or more. */
bool coro_stage_pieces_worthwhile(MlirOperation module);

/* Runs the textual pipeline `pipeline` (module passes, each converting a
 * function's ops without looking at another function, adding no symbol)
 * on runs of `module`'s top-level ops at once, each moved into a
 * builtin.module nested in `module` and moved back in order afterwards;
 * the ops of LLVM's dialect alone stay where they are (the pipeline has
 * nothing to convert in them). `module` has no nested module.
 * Fails when a piece's passes fail (their diagnostics emitted in the
 * pieces' order). */
MlirLogicalResult coro_stage_run_in_pieces(MlirOperation module,
                                           const char *pipeline);

#ifdef __cplusplus
}
#endif

#endif /* CORO_CAPI_STAGE_PIECES_H */
