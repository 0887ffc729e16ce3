/* coro_split.h - --coro-split, coro's own coroutine split (route B).
 *
 * coro_split_run splits every switched-resume coroutine of the module
 * (coro_split.c) and then lowers the consumer intrinsics of every function
 * (split_consumers.c). Errors are located diagnostics; the module may be
 * partly rewritten after a failure. */
#ifndef CORO_TRANSFORMS_CORO_SPLIT_H
#define CORO_TRANSFORMS_CORO_SPLIT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

/* The pass, run on a builtin.module. */
MlirLogicalResult coro_split_run(MlirOperation module);

/* Lowers llvm.coro.resume, destroy, done, promise and noop in every
 * llvm.func of `module` to accesses of the frame header (HandleLayout.h);
 * any other coroutine intrinsic left is an error, except in a coroutine of
 * another ABI left presplit for LLVM's CoroSplit, which keeps its own. */
bool coro_split_lower_consumers(MlirOperation module, MlirSymbolTable table);

/* Whether the llvm.func `fn` has `what` in its passthrough attribute. */
bool coro_split_passthrough_has(MlirOperation fn, const char *what);

#endif /* CORO_TRANSFORMS_CORO_SPLIT_H */
