//===- registry.cpp - Put coro's passes into MLIR's pass registry --------===//
//
// The one C++ file of the project. MLIR has no C entry point for its global
// pass registry, which `--pass-pipeline=` strings and mlirParsePassPipeline
// consult; these extern "C" functions are that entry point. The passes
// themselves are C (mlirCreateExternalPass); pipelines are textual. The
// fourth function gives a pass manager mlir-opt's implicit nesting, which the
// C API cannot set, so that a pass anchored on another op than its pass
// manager's gets nested instead of aborting the process.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Pass.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <string>

extern "C" {

/// Whether a pass or pipeline is registered under `argument`.
bool coro_registry_has(const char *argument) {
  return mlir::PassInfo::lookup(argument) ||
         mlir::PassPipelineInfo::lookup(argument);
}

/// Registers the pass that `create` makes (each call a new, owned pass).
void coro_registry_add_pass(MlirPass (*create)(void)) {
  mlir::registerPass([create]() -> std::unique_ptr<mlir::Pass> {
    return std::unique_ptr<mlir::Pass>(unwrap(create()));
  });
}

/// Registers a named pipeline that expands to the textual pass pipeline
/// `elements` (static string), e.g. "coro-verify,canonicalize".
void coro_registry_add_pipeline(const char *argument, const char *description,
                                const char *elements) {
  mlir::registerPassPipeline(
      argument, description,
      [elements = std::string(elements)](
          mlir::OpPassManager &pm, llvm::StringRef options,
                 llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
                     errorHandler) -> llvm::LogicalResult {
        if (!options.empty())
          return errorHandler("this pipeline takes no options");
        std::string error;
        llvm::raw_string_ostream os(error);
        if (llvm::failed(mlir::parsePassPipeline(elements, pm, os)))
          return errorHandler(error);
        return llvm::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {});
}

/// Lets `pm` nest passes anchored on other ops implicitly, as mlir-opt does.
void coroPassManagerEnableImplicitNesting(MlirPassManager pm) {
  unwrap(pm)->setNesting(mlir::OpPassManager::Nesting::Implicit);
}

} // extern "C"
