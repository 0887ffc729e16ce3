/* debug_info.h - --coro-debug-info (see debug_info.c): a subprogram for
 * every llvm.func definition with a file location, in one C++ compile
 * unit with full debug info, so the translated code has line tables of the
 * .mlir file and LLVM's CoroSplit describes coroutine frames
 * (`__coro_frame`).
 *
 * Invariant: only locations change; a function that already has a
 * subprogram keeps it. */
#ifndef CORO_TRANSFORMS_DEBUG_INFO_H
#define CORO_TRANSFORMS_DEBUG_INFO_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

MlirLogicalResult coro_debug_info_run(MlirOperation module);

#endif /* CORO_TRANSFORMS_DEBUG_INFO_H */
