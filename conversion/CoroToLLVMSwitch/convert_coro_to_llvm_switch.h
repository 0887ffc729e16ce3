/* convert_coro_to_llvm_switch.h - entry point of the pass of that name. */
#ifndef CORO_CONVERSION_CORO_TO_LLVM_SWITCH_H
#define CORO_CONVERSION_CORO_TO_LLVM_SWITCH_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Lowers every coroutine with coro.abi = "switch" in `module` (borrowed) and
 * every consumer op to the LLVM dialect's coroutine intrinsics. Errors are
 * emitted at the offending op's location. */
MlirLogicalResult coro_convert_to_llvm_switch_run(MlirOperation module);

#endif
