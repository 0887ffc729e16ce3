/* remark.h - optimisation remarks for passes written in C.
 *
 * MLIR's C API has no way to emit an optimisation remark: this is it. A
 * remark belongs to a category ("coro-split", "coro-elide", "coro-frame")
 * and reaches the context's diagnostic handlers as one plain remark
 * diagnostic (`file:line:col: remark: <message>`) only when the context's
 * remark filter (coroContextEnableRemarks, coro-opt's --remarks-filter)
 * selects the category; otherwise it costs one pointer test. Implemented in
 * ir/shim.cpp over MLIR's remark engine (mlir/IR/Remarks.h). Safe to
 * call from passes running on several threads. */
#ifndef CORO_IR_REMARK_H
#define CORO_IR_REMARK_H

#include "mlir-c/IR.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The outcome a remark reports, as MLIR's remark engine has them. */
enum coro_remark_kind {
  CORO_REMARK_PASSED,  /* the transformation was applied */
  CORO_REMARK_MISSED,  /* it was possible in principle but not done */
  CORO_REMARK_ANALYSIS /* a fact found on the way (e.g. a frame layout) */
};

/* Emits an optimisation remark of `category` (e.g. "coro-split") named
 * `name` at `loc` with text `message` (borrowed, NUL-terminated). Shown only
 * when the context's remark filter selects the category. */
void coro_emit_remark(MlirLocation loc, enum coro_remark_kind kind,
                      const char *category, const char *name,
                      const char *message);

/* Whether `ctx` has a remark filter at all: lets a pass skip building
 * remark texts nobody will see. */
bool coro_remarks_enabled(MlirContext ctx);
/* Whether a remark of `category` would be shown: the filter
 * coroContextEnableRemarks set matches it (true for any category under a
 * remark engine set up some other way). */
bool coro_remark_category_enabled(MlirContext ctx, const char *category);

/* Turns MLIR's remark engine on for `ctx`, showing the categories that
 * match `categoryRegex` (borrowed) as plain remark diagnostics; a located
 * error and failure for an invalid expression. coroContextEnableRemarks
 * (coro-c/Diagnostics.h) is this. */
MlirLogicalResult coro_remarks_enable(MlirContext ctx,
                                      MlirStringRef categoryRegex);

#ifdef __cplusplus
}
#endif

#endif /* CORO_IR_REMARK_H */
