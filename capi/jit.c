/* jit.c - coro-c/JIT.h: MLIR's ExecutionEngine for lowered coro modules.
 *
 * The engine owns everything it compiles; the module handed in is only
 * read. Failures are diagnostics at the module's location. */
#include "coro-c/JIT.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/RegisterEverything.h"

MlirExecutionEngine coroJITCreate(MlirModule module, int optLevel,
                                  intptr_t nSharedLibs,
                                  const MlirStringRef *sharedLibPaths) {
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(module));
  if (optLevel < 0 || optLevel > 3) {
    mlirEmitError(loc, "optimization level must be 0, 1, 2 or 3");
    return (MlirExecutionEngine){NULL};
  }
  mlirRegisterAllLLVMTranslations(mlirModuleGetContext(module));
  MlirExecutionEngine jit = mlirExecutionEngineCreate(
      module, optLevel, (int)nSharedLibs, sharedLibPaths, false, false);
  if (mlirExecutionEngineIsNull(jit))
    mlirEmitError(loc, "could not translate or JIT-compile the module (is it "
                       "lowered to the LLVM dialect?)");
  return jit;
}

void *coroJITLookup(MlirExecutionEngine jit, const char *name) {
  return mlirExecutionEngineLookup(jit, mlirStringRefCreateFromCString(name));
}
