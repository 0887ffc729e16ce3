/*===-- coro-c/JIT.h - Compile a module in memory and call it -----*- C -*-===*\
|*                                                                            *|
|* A thin layer over MLIR's ExecutionEngine (mlir-c/ExecutionEngine.h) for    *|
|* modules lowered by coroLowerToLLVMDialect: the engine runs LLVM's          *|
|* coroutine passes itself. Call a function through the pointer returned by   *|
|* coroJITLookup, cast to its C type (`func.func @f(i64) -> i64` is           *|
|* `int64_t (*)(int64_t)`). Host functions the code calls (declared           *|
|* `func.func private @g(i64)`) are provided with                             *|
|* mlirExecutionEngineRegisterSymbol before the first lookup.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_C_JIT_H
#define CORO_C_JIT_H

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Compiles `module` (borrowed, in the LLVM dialect; the engine keeps its own
/// copy in LLVM IR, so the module may be destroyed afterwards) with LLVM's
/// pipeline at `optLevel` (0..3), loading the `nSharedLibs` shared libraries
/// named in `sharedLibPaths` (borrowed) so that the code can call them.
/// Returns an engine owned by the caller (release it with
/// mlirExecutionEngineDestroy), or a null engine after an error diagnostic at
/// the module's location.
MlirExecutionEngine coroJITCreate(MlirModule module, int optLevel,
                                  intptr_t nSharedLibs,
                                  const MlirStringRef *sharedLibPaths);

/// The address of the function (or global) `name` (borrowed, NUL-terminated)
/// in `jit` (borrowed), compiling it on first use; NULL if there is none.
/// The code belongs to the engine and is valid until it is destroyed.
/// The module may declare symbols it does not define (host functions,
/// coro's runtime): each must be found in the shared libraries given to
/// coroJITCreate, in the process, or be registered with
/// mlirExecutionEngineRegisterSymbol before this call. If one is still
/// missing, this returns NULL after an error diagnostic at its declaration,
/// on the module's context (which must then still be alive), and prints
/// nothing.
void *coroJITLookup(MlirExecutionEngine jit, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_JIT_H */
