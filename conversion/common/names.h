/* names.h - the names and marks of what a lowering generates: symbol
 * names that must be free, a coroutine renamed for its entry, LLVM's
 * mangled intrinsic names, the passthrough marks of a lowered body. None
 * of this builds IR (ir/ does). */
#ifndef CORO_CONVERSION_COMMON_NAMES_H
#define CORO_CONVERSION_COMMON_NAMES_H

#include "ir/support.h"

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Appends LLVM's mangled name of `t` (the suffix Intrinsic::getName gives
 * an overloaded intrinsic); false for a type it cannot mangle. */
bool coro_mangle_type(MlirType t, struct coro_str *out);

/* Whether `func`'s coro.alloc is absent or "heap": what the ABIs whose
 * handle outlives the call that creates it (retcon, async) accept. */
bool coro_alloc_is_heap(MlirOperation func);

/* Checks that `base` + each suffix (NULL-terminated) names no symbol of
 * `module`; else an error at the clashing symbol naming `abi`. */
MlirLogicalResult coro_names_unused(MlirOperation module,
                                    const struct coro_str *base,
                                    const char *abi,
                                    const char *const *suffixes);

/* Renames the coroutine `func` (named `name`) to the private function
 * NAME+suffix, freeing its name for the entry function the lowering
 * generates; returns the visibility that entry keeps ("" for public;
 * caller frees). */
struct coro_str coro_rename_private(MlirOperation func,
                                    const struct coro_str *name,
                                    const char *suffix);

/* Marks a lowered body for LLVM's CoroSplit ("presplitcoroutine"), never
 * inlined before it is split ("noinline"; CORO_NOINLINE_UNTIL_SPLIT_ATTR
 * says when that is the lowering's, which --coro-split drops), and drops
 * its coro.* attributes. */
void coro_mark_lowered_body(MlirOperation func);

#endif /* CORO_CONVERSION_COMMON_NAMES_H */
