/*===-- coro-c/Passes.h - coro passes and their registration ------*- C -*-===*\
|*                                                                            *|
|* Each `coroCreate...Pass` returns a new pass owned by the caller; adding it *|
|* to a pass manager (mlirPassManagerAddOwnedPass) transfers it.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_C_PASSES_H
#define CORO_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

/// `--coro-verify`: checks every coroutine and coro op in the module against
/// the rules of the dialect reference; each violation is an error at the
/// op's location and fails the pass. Owned by the caller.
MlirPass coroCreateVerifyPass(void);

/// `--convert-coro-to-llvm-switch`: lowers every coroutine with
/// coro.abi = "switch" and every consumer op (coro.resume, destroy, done,
/// promise, noop) to the LLVM dialect's coroutine intrinsics; handles become
/// !llvm.ptr frame pointers. Suspensions must be in CFG form. Owned by the
/// caller.
MlirPass coroCreateConvertCoroToLLVMSwitchPass(void);

/// `--convert-coro-to-llvm-retcon` / `--convert-coro-to-llvm-retcon-once`:
/// lower every coroutine with coro.abi = "retcon" (resp. "retcon.once") to
/// LLVM's returned-continuation intrinsics, and the consumer ops on their
/// handles; a handle becomes a pointer to a heap control block with the
/// same header as a switch frame. Owned by the caller.
MlirPass coroCreateConvertCoroToLLVMRetconPass(void);
MlirPass coroCreateConvertCoroToLLVMRetconOncePass(void);

/// `--convert-coro-to-llvm-async`: lowers every coroutine with
/// coro.abi = "async" to LLVM's async coroutine intrinsics
/// (`llvm.coro.id.async`, `llvm.coro.suspend.async`,
/// `llvm.coro.end.async`); a handle becomes the coroutine's async context,
/// allocated by coro's runtime (`coro_rt_task_alloc`) unless
/// coro.alloc_fn says otherwise. Owned by the caller.
MlirPass coroCreateConvertCoroToLLVMAsyncPass(void);

/// Runs the checks of `--coro-verify` on `op` (borrowed) and everything
/// nested in it, without a pass manager. Diagnostics go to the context.
MlirLogicalResult coroVerify(MlirOperation op);

/// Registers every coro pass and named pipeline in MLIR's global registry, so
/// that `mlirParsePassPipeline`/`mlirOpPassManagerAddPipeline` and
/// `--pass-pipeline=` strings can name them. Also registers every upstream
/// MLIR pass. Idempotent and cheap after the first call.
void coroRegisterPasses(void);

/// Makes `pm` (borrowed) nest passes anchored on other operations implicitly,
/// as mlir-opt does: `func.func` passes added to a `builtin.module` pass
/// manager run on each function instead of aborting the process.
void coroPassManagerEnableImplicitNesting(MlirPassManager pm);

/// Calls `callback(argument, description, userData)` for every coro pass and
/// named pipeline, in registration order. The strings are static.
void coroForEachPass(void (*callback)(MlirStringRef argument,
                                      MlirStringRef description,
                                      void *userData),
                     void *userData);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_PASSES_H */
