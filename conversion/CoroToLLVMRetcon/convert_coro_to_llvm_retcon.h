/* convert_coro_to_llvm_retcon.h - entry points of the passes
 * convert-coro-to-llvm-retcon and convert-coro-to-llvm-retcon-once. */
#ifndef CORO_CONVERSION_CORO_TO_LLVM_RETCON_H
#define CORO_CONVERSION_CORO_TO_LLVM_RETCON_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Lowers every coroutine with coro.abi = "retcon" (resp. "retcon.once") in
 * `module` (borrowed), and every consumer op on handles not known to belong
 * to another ABI, to LLVM's returned-continuation intrinsics. Errors are
 * emitted at the offending op's location. */
MlirLogicalResult coro_convert_to_llvm_retcon_run(MlirOperation module);
MlirLogicalResult coro_convert_to_llvm_retcon_once_run(MlirOperation module);

#endif
