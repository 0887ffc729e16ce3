/* convert_coro_to_llvm_async.h - entry point of convert-coro-to-llvm-async. */
#ifndef CORO_CONVERSION_CORO_TO_LLVM_ASYNC_H
#define CORO_CONVERSION_CORO_TO_LLVM_ASYNC_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Lowers every coroutine with coro.abi = "async" in `module` (borrowed),
 * and every consumer op on handles not known to belong to another ABI, to
 * LLVM's async coroutine intrinsics; contexts come from coro's runtime.
 * Errors are emitted at the offending op's location. */
MlirLogicalResult coro_convert_to_llvm_async_run(MlirOperation module);

#endif
