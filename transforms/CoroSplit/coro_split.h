/* coro_split.h - --coro-split, coro's own coroutine split (route B).
 *
 * coro_split_run splits every presplit coroutine of the module, of any
 * ABI (coro_split.c and the rest of transforms/CoroSplit/), and then lowers the
 * consumer intrinsics of every function (split_consumers.c). Errors are located
 * diagnostics; the module may be partly rewritten after a failure. */
#ifndef CORO_TRANSFORMS_CORO_SPLIT_H
#define CORO_TRANSFORMS_CORO_SPLIT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

/* The body NAME.coro.ramp of the retcon or retcon.once coroutine `name`
 * in `table` (split or not yet), or null. */
MlirOperation coro_retcon_body(MlirSymbolTable table, MlirStringRef name);
/* When `callee` is a function that makes a retcon coroutine's handle,
 * NAME or NAME.elided (the control block in its caller's memory): that
 * coroutine's body (coro_retcon_body of NAME), with NAME in `*name` and
 * whether it was NAME.elided in `*elided`; null otherwise. */
MlirOperation coro_retcon_maker(MlirSymbolTable table, MlirStringRef callee,
                                MlirStringRef *name, bool *elided);

/* The pass, run on a builtin.module. */
MlirLogicalResult coro_split_run(MlirOperation module);

#endif /* CORO_TRANSFORMS_CORO_SPLIT_H */
