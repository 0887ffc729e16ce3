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

/// --coro-split: coro's own split of switched-resume coroutines (route B).
/// Takes LLVM-dialect functions marked passthrough = ["presplitcoroutine"]
/// and produces NAME (the ramp), NAME.resume, NAME.destroy and NAME.cleanup
/// with an explicit frame; lowers llvm.coro.resume/destroy/done/promise/noop
/// everywhere. Runs on a builtin.module.
MlirPass coroCreateCoroSplitPass(void);

/// --coro-elide: decides, on the coro dialect, which calls of switch
/// coroutines get their frames in the caller (marks each call
/// coro.elided = true or false; remarks in category coro-elide) and checks
/// coro.alloc = "elide" (transforms/coro_elide.c).
MlirPass coroCreateCoroElidePass(void);

/// --convert-coro-to-nvvm: the GPU path's rules on the coro dialect, after
/// --coro-elide (conversion/CoroToNVVM/): switch coroutines only, every
/// frame in its caller, resume/destroy where the handle is made, no await;
/// marks the module coro.device.
MlirPass coroCreateConvertCoroToNVVMPass(void);

/// --coro-check-device: the last step of the coro-lower-nvvm pipeline: in a
/// module marked coro.device, a call of an allocator or an indirect call
/// left is a located error; marks the kernels (gpu.kernel) nvvm.kernel and
/// sets the NVPTX target triple.
MlirPass coroCreateCheckDevicePass(void);

/// --coro-misuse-checks: the checked mode. On the coro dialect, after
/// coro-verify and before the conversions: resuming a coroutine that has
/// ended, or yielding again after coro.destroy, writes a message naming the
/// coroutine and the op to stderr (write(2)) and traps. Runs on a
/// builtin.module. Owned by the caller.
MlirPass coroCreateMisuseChecksPass(void);

/// --coro-debug-info: debug info for a lowered module (the tools' -g): a
/// subprogram for every llvm.func definition from its location, in one C++
/// compile unit with full debug info (what LLVM's CoroSplit needs to
/// describe a coroutine frame as `__coro_frame`). Runs on a builtin.module.
MlirPass coroCreateDebugInfoPass(void);

/// --coro-check-lowered: the last step of the named pipelines; a coroutine
/// or coro op left after the conversions (of an ABI the pipeline does not
/// lower) is a located error. Runs on a builtin.module.
MlirPass coroCreateCheckLoweredPass(void);

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
/// named pipeline, in registration order. The strings are borrowed: valid
/// only during the callback.
void coroForEachPass(void (*callback)(MlirStringRef argument,
                                      MlirStringRef description,
                                      void *userData),
                     void *userData);

/// Whether a pass or named pipeline (MLIR's or coro's) is registered under
/// `argument` (borrowed), e.g. "cse": how a driver tells a pass flag from an
/// unknown option.
bool coroIsRegisteredPass(MlirStringRef argument);

/// Registers coro's test-only passes (`--test-coro-remarks`, see
/// docs/contract-notes.md) in MLIR's registry, as mlir-opt registers MLIR's
/// test passes; coroRegisterPasses does not. For coro-opt and coro's tests.
/// Idempotent; call coroRegisterPasses first.
void coroRegisterTestPasses(void);

/// Writes every pass in MLIR's registry (MLIR's and coro's, with their
/// options) to standard output, as `mlir-opt --help` lists them; MLIR's
/// listing leaves named pipelines out (coroForEachPass has coro's). For a
/// tool's --help: this is the one coro function that prints. Flushes
/// standard output first.
void coroPrintRegisteredPasses(void);

//===----------------------------------------------------------------------===//
// One timing report for a whole run (mlir-opt's --mlir-timing)
//===----------------------------------------------------------------------===//

/// A tree of timers: phases the caller times itself (mlir-opt's "Parser" and
/// "Output") and the passes of every pass manager attached to it. Timers of
/// the same name under the same parent add up, so a tool that runs several
/// pass managers (one per `// -----` chunk) prints one report.
typedef struct CoroTimingReport {
  void *ptr;
} CoroTimingReport;

/// A running timer of a report.
typedef struct CoroTimer {
  void *ptr;
} CoroTimer;

/// Creates an empty report, owned by the caller (a null `ptr` when out of
/// memory).
CoroTimingReport coroTimingReportCreate(void);

/// Prints `report` to stderr, as MLIR's pass timing does, and destroys it.
/// Every timer started from it must be stopped first. Does nothing for a
/// null report.
void coroTimingReportDestroy(CoroTimingReport report);

/// Starts the timer `name` (borrowed, copied) at the top level of `report`
/// (borrowed). The timer is owned by the caller: stop it with coroTimerStop.
CoroTimer coroTimingReportStartTimer(CoroTimingReport report,
                                     MlirStringRef name);

/// Stops and destroys `timer`. Does nothing for a null timer.
void coroTimerStop(CoroTimer timer);

/// Times the passes `pm` (borrowed) runs into `report` (borrowed; it must
/// outlive the runs), at its top level.
void coroPassManagerEnableTimingReport(MlirPassManager pm,
                                       CoroTimingReport report);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_PASSES_H */
