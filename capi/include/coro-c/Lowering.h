/*===-- coro-c/Lowering.h - Lowering and running pass pipelines ---*- C -*-===*\
|*                                                                            *|
|* What a frontend calls after building or parsing a module: lower every      *|
|* coroutine (of every ABI with a registered conversion) and everything else  *|
|* to the LLVM dialect, or run any pipeline, given as text or as pass         *|
|* objects. The module is borrowed and changed in place; every failure is an  *|
|* error diagnostic on the module's context (attach a handler with            *|
|* mlirContextAttachDiagnosticHandler to see it) and a failed result. These   *|
|* functions register coro's passes themselves (coroRegisterPasses).          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_C_LOWERING_H
#define CORO_C_LOWERING_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Lowers `module` (borrowed, changed in place) to the LLVM dialect:
/// coro-verify, lower-affine, convert-scf-to-cf, every registered
/// `convert-coro-to-llvm-<abi>` conversion (so a module may mix ABIs), then
/// MLIR's conversions of vector, memref, index, arith, cf and func to LLVM.
/// A coroutine whose ABI has no registered conversion is an error at its
/// location. On failure the module may be partly lowered.
MlirLogicalResult coroLowerToLLVMDialect(MlirModule module);

/// The routes from the coro dialect to code. Route A (CoroRouteLLVM, the
/// default): the conversions leave LLVM's coroutine intrinsics, which LLVM's
/// own CoroSplit splits. Route B (CoroRouteMLIRSplit): coro splits the
/// coroutines itself, in MLIR (--coro-split).
typedef enum { CoroRouteLLVM = 0, CoroRouteMLIRSplit = 1 } CoroRoute;

/// Marks `module` as lowered by `route` (the module attribute coro.route =
/// "mlir-split" for route B; for route A, none: an attribute the module
/// had, on it or on a module nested in it, is removed), so that coroVerify
/// accepts what only that route lowers: an alloca of dynamic size live
/// across a suspension. coroLowerToLLVMDialectWithOptions marks the module
/// itself; call this before a coroVerify of your own.
void coroSetRoute(MlirModule module, CoroRoute route);

/// Parses a route's name as the tools' --route= takes it ("llvm" or
/// "mlir-split"; `name` borrowed) into *route; false for another name.
bool coroRouteParse(MlirStringRef name, CoroRoute *route);

/// coroLowerToLLVMDialect for `route`. A route that does not exist yet is
/// an error at the module's location, and a failed result.
MlirLogicalResult coroLowerToLLVMDialectWithRoute(MlirModule module,
                                                  CoroRoute route);

/// How to lower: the route, and the checked mode. In the checked mode
/// (--coro-misuse-checks, off by default), resuming a coroutine that has
/// ended, or yielding again after coro.destroy, writes a message naming the
/// coroutine and the op to stderr and traps, where it would otherwise be
/// undefined behaviour; it costs a load and a branch per resume and per
/// yield.
///
/// With `debug_info` (the tools' -g), every function of the lowered module
/// gets debug info from its location (--coro-debug-info, before any split),
/// so the translated code (coroTranslateToLLVMIR, coroEmitObjectFile, the
/// JIT) has line tables for the .mlir file, in the resume and destroy
/// functions of a split coroutine too, and each coroutine's frame is the
/// variable `__coro_frame` there.
///
/// --coro-elide runs by default: a call of a switch coroutine whose handle
/// provably stays in its caller gets its frame there (route B, at every -O
/// level) instead of on the heap. `no_elide` turns that off: then only
/// coroutines marked coro.alloc = "elide" have their frames in their
/// callers.
typedef struct {
  CoroRoute route;
  bool checked;
  bool debug_info;
  bool no_elide;
} CoroLowerOptions;

/// Lowers a device module (kernels: func.func with the unit attribute
/// gpu.kernel, calling switch coroutines) to the LLVM dialect with NVVM ops:
/// the pipeline coro-lower-nvvm (--coro-elide, --convert-coro-to-nvvm, the
/// switch conversion, coro's own --coro-split, --coro-check-device). Every
/// frame lives in its caller; what would need device malloc or an indirect
/// call is a located error. A module in MLIR's GPU form (a gpu.module of
/// device code, host code with gpu.launch_func around it) becomes its
/// gpu.module's device code first: gpu.func kernels become kernels, and the
/// host code is dropped (compile it for the host separately); one
/// gpu.module per module.
MlirLogicalResult coroLowerForDevice(MlirModule module);

/// coroLowerForDevice for code to be optimised at `optLevel` (0 to 3;
/// coroTranslateForDevice's level). At 0 and 1 it is coroLowerForDevice.
/// At 2 and 3, before coro's split, LLVM's own pre-split simplification
/// (that of its -O2 pipeline) runs on the
/// module (as LLVM's pipeline runs it before its CoroSplit), with the costs
/// of the NVPTX target for `cpu` (borrowed, "sm_90" when NULL): the split
/// then sees loops whose exit tests LLVM has rewritten. What the split
/// reports afterwards is located at its op's line (the trip carries the
/// ops' locations as line tables), or at its function for an op LLVM made.
MlirLogicalResult coroLowerForDeviceAtLevel(MlirModule module, int optLevel,
                                            const char *cpu);

/// The frame size in bytes of the coroutine `coroutine` (borrowed) of a
/// module coroLowerForDevice lowered: the value of its constant
/// NAME_frame_size (in the PTX too, which a host reads with
/// cuModuleGetGlobal to size an arena). -1 when the module has none.
int64_t coroFrameSize(MlirModule module, MlirStringRef coroutine);

/// coroLowerToLLVMDialect with `options`.
MlirLogicalResult coroLowerToLLVMDialectWithOptions(MlirModule module,
                                                    CoroLowerOptions options);

/// coroLowerToLLVMDialectWithOptions for code to be optimised at
/// `optLevel` (0 to 3). Under route B at 2 and 3 (without debug_info),
/// LLVM's own pre-split simplification (that of its -O2 pipeline, with the
/// host's costs) runs on the module between the conversions and coro's
/// split, as LLVM's pipeline runs it before its CoroSplit; otherwise it is
/// coroLowerToLLVMDialectWithOptions. What the split reports after that
/// simplification is located at its op's line (the trip carries the ops'
/// locations as line tables), or at its function for an op LLVM made.
MlirLogicalResult coroLowerToLLVMDialectAtLevel(MlirModule module,
                                                CoroLowerOptions options,
                                                int optLevel);

/// The one lowering entry point: how coroLowerModule lowers. A zeroed
/// config is the project's default route (coroDefaultRoute) at -O0, on the
/// host, with elision, unchecked and without debug info.
typedef enum {
  CoroLowerRouteDefault = 0,   /* coroDefaultRoute() */
  CoroLowerRouteLLVM = 1,      /* route A: LLVM's CoroSplit (--route=llvm) */
  CoroLowerRouteMLIRSplit = 2, /* route B: coro's --coro-split */
} CoroLowerRoute;
typedef struct {
  CoroLowerRoute route;
  /// The level the code will be optimised at, 0 to 3 (the tools' -O): at 2
  /// and 3 route B runs LLVM's pre-split simplification before its split
  /// (coroLowerToLLVMDialectAtLevel, coroLowerForDeviceAtLevel).
  int opt_level;
  bool no_elide;   /* CoroLowerOptions.no_elide */
  bool checked;    /* CoroLowerOptions.checked: the checked mode */
  bool debug_info; /* CoroLowerOptions.debug_info: the tools' -g */
  /// A device module (coroLowerForDevice): route B only; no checked mode
  /// and no debug info there.
  bool device;
  /// With `device`: the GPU whose costs the -O2 pre-split simplification
  /// uses ("sm_90" when NULL; borrowed).
  const char *device_cpu;
} CoroLowerConfig;
/// The route a config of CoroLowerRouteDefault, and the tools without
/// --route, take: route B (CoroRouteMLIRSplit), since the conditions of
/// docs/route-b.md ("Which route is the default") hold. Route A stays as
/// CoroLowerRouteLLVM (the tools' --route=llvm).
CoroRoute coroDefaultRoute(void);
/// Lowers `module` (borrowed, changed in place) to the LLVM dialect as
/// `config` says (NULL: a zeroed config): for the host,
/// coroLowerToLLVMDialectAtLevel with the route resolved; for a device,
/// coroLowerForDeviceAtLevel. A config that asks for what does not exist
/// (an unknown route or level, route A or the checked mode or debug info
/// on a device) is an error at the module's location, and a failed result
/// with the module unchanged. Every tool lowers through this function; the
/// older entry points stay, with their documented behaviour (route A where
/// they take no route). The lowering's pipelines run without MLIR's
/// verifier after each pass and verify the module once at their end (an
/// error is reported at its op); coroRunPassPipeline verifies after each
/// pass.
MlirLogicalResult coroLowerModule(MlirModule module,
                                  const CoroLowerConfig *config);
/// The route `config` (NULL: zeroed) resolves to: its own, or
/// coroDefaultRoute() for CoroLowerRouteDefault. False for a route that
/// does not exist.
bool coroLowerConfigRoute(const CoroLowerConfig *config, CoroRoute *route);
/// A pass manager anchored on builtin.module, with implicit nesting (passes
/// anchored on func.func run on every function). Destroy it with
/// mlirPassManagerDestroy.
MlirPassManager coroPassManagerCreate(MlirContext context);
/// Adds the textual pipeline `pipeline` (borrowed) to `pm`, a manager of
/// coroPassManagerCreate, with or without its anchor:
/// "builtin.module(coro-lower-switch,coro-split)" and
/// "coro-lower-switch,coro-split" add the same passes. The trap this
/// avoids: mlirOpPassManagerAddPipeline takes a pipeline without its
/// anchor, and given "builtin.module(...)" nests it one level down, on the
/// modules inside the module, so the pipeline lowers nothing and succeeds.
/// A pipeline that does not parse is a failure, with the parser's message
/// to `errorCallback`.
MlirLogicalResult coroPassManagerAddPipeline(MlirPassManager pm,
                                             MlirStringRef pipeline,
                                             MlirStringCallback errorCallback,
                                             void *userData);
/// Whether coroutines with `coro.abi = abi` can be lowered: whether the
/// conversion `convert-coro-to-llvm-<abi>` (with '.' spelled '-', so
/// "retcon.once" needs `convert-coro-to-llvm-retcon-once`) is registered.
/// `abi` is borrowed.
bool coroABIIsSupported(MlirStringRef abi);

/// Parses the textual pipeline `pipeline` (borrowed) and runs it on `module`
/// (borrowed, changed in place). The text is either anchored,
/// "builtin.module(coro-verify,cse)", or a comma-separated list of passes
/// and named pipelines run on the module, "coro-lower-switch" or
/// "coro-verify,canonicalize"; passes anchored on other ops (func.func) are
/// nested implicitly. A pipeline that does not parse is an error at the
/// module's location quoting the parser's message.
MlirLogicalResult coroRunPassPipeline(MlirModule module,
                                      MlirStringRef pipeline);

/// Runs the `nPasses` passes of `passes` in order on `module` (borrowed,
/// changed in place). The passes are transferred: this function owns and
/// destroys every one of them, on success and on failure; the array itself
/// stays the caller's. Passes anchored on other ops are nested implicitly.
MlirLogicalResult coroRunPasses(MlirModule module, intptr_t nPasses,
                                const MlirPass *passes);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_LOWERING_H */
