//===- CoroPlugin.cpp - coro's passes and dialect inside mlir-opt --------===//
//
// lib/CoroPlugin.so: what upstream mlir-opt-22 loads with
// `--load-pass-plugin` (every coro pass and named pipeline, through
// coroRegisterPasses) and `--load-dialect-plugin` (the coro dialect). The
// only C++ of it is the two entry points MLIR's plugin loaders look up; the
// work is the public C API of libCoroCAPI.so (docs/contract-notes.md).
//
// The dialect is IRDL, made in a context by loading its definitions, so it
// cannot be registered as a class: the dialect plugin names "coro" in the
// tool's DialectRegistry with an allocator that loads the embedded IRDL
// source (coroDialectGetIRDLSource, the same text coroDialectLoad loads)
// into the context the first time the parser meets a coro op or type.
//
// Passes, pipelines and dialects are registered into the libMLIR this
// plugin is linked with, so they reach the tool only if the tool runs on
// that same libMLIR (mlir-opt-22 links libMLIR.so.22.1 dynamically, as we
// do). Each entry point checks that its caller, the tool's plugin loader,
// lies in that libMLIR. A tool of another MLIR (another version, or one
// linked statically) gets API version 0, which no MLIR accepts, and
// callbacks that do nothing: it ignores the plugin (mlir-opt: "Failed to
// load passes from '...'. Request ignored.") after our message naming
// both MLIRs and the API version.
//
// No state of its own: the registries are MLIR's.
//
//===----------------------------------------------------------------------===//

#include "coro-c/Dialect.h"
#include "coro-c/Passes.h"

#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/TypeID.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Config/llvm-config.h"

#include <cstdio>
#include <dlfcn.h>

#ifndef CORO_PLUGIN_VERSION
#error "the build defines CORO_PLUGIN_VERSION (plugin/CMakeLists.txt)"
#endif

#define CORO_PLUGIN_NAME "CoroPlugin"

/// The API version that makes a tool refuse the plugin: MLIR's is 1 and
/// has never been 0.
static constexpr uint32_t refusedAPIVersion = 0;

/// Whether `caller`, a return address in the tool's plugin loader, lies in
/// the libMLIR this plugin registers into; if not, says so on stderr.
static bool calledFromOurMLIR(void *caller) {
  Dl_info tool, ours;
  void *ourLoader = reinterpret_cast<void *>(&mlir::PassPlugin::load);
  bool knowTool = dladdr(caller, &tool) != 0;
  bool knowOurs = dladdr(ourLoader, &ours) != 0;
  if (knowTool && knowOurs && tool.dli_fbase == ours.dli_fbase)
    return true;
  std::fprintf(stderr,
               "%s: built for MLIR %s in %s, but the tool loading it runs the "
               "MLIR in %s: refused with plugin API version %u (MLIR %s's is "
               "%u)\n",
               CORO_PLUGIN_NAME, LLVM_VERSION_STRING,
               knowOurs ? ours.dli_fname : "libMLIR",
               knowTool ? tool.dli_fname : "an unknown object",
               static_cast<unsigned>(refusedAPIVersion), LLVM_VERSION_STRING,
               static_cast<unsigned>(MLIR_PLUGIN_API_VERSION));
  return false;
}

//===----------------------------------------------------------------------===//
// Passes
//===----------------------------------------------------------------------===//

static void registerPasses() { coroRegisterPasses(); }
static void registerNoPasses() {}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  bool ok = calledFromOurMLIR(__builtin_return_address(0));
  return {ok ? MLIR_PLUGIN_API_VERSION : refusedAPIVersion, CORO_PLUGIN_NAME,
          CORO_PLUGIN_VERSION, ok ? registerPasses : registerNoPasses};
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

/// Loads the coro dialect from its IRDL source into `ctx` and returns it,
/// or null after the parser's diagnostics. Never asks the context for
/// "coro" by name: that would call this allocator again.
static mlir::Dialect *loadCoroDialect(mlir::MLIRContext *ctx) {
  llvm::StringRef name = unwrap(coroDialectGetNamespace());
  if (mlir::Dialect *loaded = ctx->getLoadedDialect(name))
    return loaded;
  MlirContext context = wrap(ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), context);
  MlirModule defs = mlirModuleCreateParse(context, coroDialectGetIRDLSource());
  if (mlirModuleIsNull(defs))
    return nullptr;
  MlirLogicalResult loaded = mlirLoadIRDLDialects(defs);
  mlirModuleDestroy(defs);
  return mlirLogicalResultIsSuccess(loaded) ? ctx->getLoadedDialect(name)
                                            : nullptr;
}

static void registerDialect(mlir::DialectRegistry *registry) {
  // TypeID of void: the mark DialectRegistry::insertDynamic gives a dialect
  // whose TypeID exists only once it is made.
  registry->insert(mlir::TypeID::get<void>(), unwrap(coroDialectGetNamespace()),
                   loadCoroDialect);
}
static void registerNoDialect(mlir::DialectRegistry *) {}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  bool ok = calledFromOurMLIR(__builtin_return_address(0));
  return {ok ? MLIR_PLUGIN_API_VERSION : refusedAPIVersion, CORO_PLUGIN_NAME,
          CORO_PLUGIN_VERSION, ok ? registerDialect : registerNoDialect};
}
