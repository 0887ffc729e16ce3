/*===-- coro-c/Translate.h - LLVM IR and object files -------------*- C -*-===*\
|*                                                                            *|
|* From a module in the LLVM dialect (after coroLowerToLLVMDialect) to LLVM   *|
|* IR text or a host object file, through LLVM's own coroutine passes         *|
|* (CoroEarly, CoroSplit, CoroElide, CoroCleanup, part of `default<ON>`).     *|
|* The module is borrowed and not changed; LLVM objects made on the way are   *|
|* created and destroyed inside each call. Failures are error diagnostics at  *|
|* the module's location and a failed result; nothing is printed.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_C_TRANSLATE_H
#define CORO_C_TRANSLATE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads LLVM IR, as text (`.ll`) or bitcode (`.bc`), from `buffer`
/// (borrowed; need not be NUL-terminated) into a new module of the LLVM
/// dialect in `ctx` (owned by the caller), through MLIR's LLVM IR importer.
/// `name` (borrowed) is the file name locations carry. Malformed input gets
/// LLVM's parser error at its line and column (`name`:0:0 for bitcode and
/// for IR LLVM's verifier rejects) and a null module. A C++20 coroutine
/// compiled with `clang++ -Xclang -disable-llvm-passes -emit-llvm` reaches
/// coro's own split (`--coro-split`) this way.
MlirModule coroImportLLVMIR(MlirContext ctx, MlirStringRef buffer,
                            MlirStringRef name);

/// Translates `module` (borrowed) to LLVM IR for the host and prints it to
/// `callback` (called one or more times with borrowed pieces, valid only
/// during the call). With `split` false the IR is printed as translated:
/// coroutines are still `presplitcoroutine` functions with coroutine
/// intrinsics. With `split` true LLVM's `default<O{optLevel}>` pipeline runs
/// first, which splits every coroutine into ramp, resume and destroy
/// functions. `optLevel` is 0..3.
MlirLogicalResult coroTranslateToLLVMIR(MlirModule module, int optLevel,
                                        bool split, MlirStringCallback callback,
                                        void *userData);

/// Translates `module` (borrowed), runs LLVM's `default<O{optLevel}>`
/// pipeline and compiles it for the host (position-independent code) into
/// the object file `path` (borrowed, NUL-terminated), which is created or
/// replaced. The object defines every non-private function of the module
/// with the C calling convention, e.g. `func.func @f() -> i64` as
/// `int64_t f(void)`; it needs only the C library (malloc, free).
MlirLogicalResult coroEmitObjectFile(MlirModule module, int optLevel,
                                     const char *path);

/// Whether `cpu` (NUL-terminated) names a GPU architecture the way
/// coroTranslateForDevice takes it: sm_NN, optionally with an a or f
/// suffix (sm_90a).
bool coroGPUArchIsValid(const char *cpu);

/// Translates a device module (lowered by coroLowerForDevice; borrowed) to
/// LLVM IR for nvptx64-nvidia-cuda, runs LLVM's `default<O{optLevel}>`
/// pipeline (at -O0 only simplifycfg and globaldce, which drop the branches
/// coro's split left decided) and compiles it with LLVM's NVPTX backend for
/// `cpu` (e.g. "sm_90"; borrowed, NUL-terminated). With `ptx` the PTX text
/// goes to `callback`, else the LLVM IR does. `optLevel` is 0..3.
MlirLogicalResult coroTranslateForDevice(MlirModule module, int optLevel,
                                         const char *cpu, bool ptx,
                                         MlirStringCallback callback,
                                         void *userData);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_TRANSLATE_H */
