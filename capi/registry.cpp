//===- registry.cpp - Thin C wrappers where MLIR's C API has none --------===//
//
// The one C++ file of the project. Every function here is a few lines over
// MLIR's C++ API, exported with C linkage, for something the MLIR C API
// cannot do; each is named in docs/contract-notes.md.
//
// - MLIR's global pass registry, which `--pass-pipeline=` strings and
//   mlirParsePassPipeline consult (coro_registry_*: the passes themselves are
//   C, made with mlirCreateExternalPass; pipelines are textual).
// - Implicit nesting on a pass manager, so that a pass anchored on another
//   op than its pass manager's gets nested instead of aborting the process.
// - A copy of an op with new operands (ir/copy.h): mlirOperationClone
//   builds and frees an IRMapping per copy.
// - Optimisation remarks: emitting one from C (ir/remark.h) and turning
//   MLIR's remark engine on for a context with a category filter.
// - Whether a diagnostic on an op carries the "see current operation" note.
// - Importing an LLVM module back into the LLVM dialect (the C API only
//   translates the other way): route B's pre-split optimisation.
// - What an mlir-opt-like driver needs: parsing with an implicit module
//   named after the file, the dialect and pass listings, and one timing
//   report per run (coro-c/Dialect.h, coro-c/Passes.h).
//
// Nothing here keeps global state of its own: the pass registry is MLIR's,
// and everything else belongs to the context or to an object the caller
// owns.
//
//===----------------------------------------------------------------------===//

#include "capi/registry.h"
#include "coro-c/Diagnostics.h"
#include "coro-c/Dialect.h"
#include "coro-c/Passes.h"
#include "ir/copy.h"
#include "ir/remark.h"

#include "mlir-c/Pass.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Import.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

//===----------------------------------------------------------------------===//
// Pass registry and nesting
//===----------------------------------------------------------------------===//

extern "C" bool coro_registry_has(const char *argument) {
  return mlir::PassInfo::lookup(argument) ||
         mlir::PassPipelineInfo::lookup(argument);
}

extern "C" void coro_registry_add_pass(MlirPass (*create)(void)) {
  mlir::registerPass([create]() -> std::unique_ptr<mlir::Pass> {
    return std::unique_ptr<mlir::Pass>(unwrap(create()));
  });
}

extern "C" void coro_registry_add_pipeline(const char *argument,
                                           const char *description,
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

extern "C" void coroPassManagerEnableImplicitNesting(MlirPassManager pm) {
  unwrap(pm)->setNesting(mlir::OpPassManager::Nesting::Implicit);
}

//===----------------------------------------------------------------------===//
// Diagnostics and remarks
//===----------------------------------------------------------------------===//

extern "C" void coroContextSetPrintOpOnDiagnostic(MlirContext ctx,
                                                  bool enable) {
  unwrap(ctx)->printOpOnDiagnostic(enable);
}

namespace {
/// Turns each remark the engine lets through into one plain remark
/// diagnostic at its location whose text is the emitter's message, so that
/// tools print it as one `file:line:col: remark: <message>` line and
/// --verify-diagnostics matches it with expected-remark.
class DiagnosticRemarkStreamer final
    : public mlir::remark::detail::MLIRRemarkStreamerBase {
public:
  void streamOptimizationRemark(
      const mlir::remark::detail::Remark &remark) override {
    std::string text;
    for (const mlir::remark::detail::Remark::Arg &arg : remark.getArgs())
      text += arg.val;
    mlir::emitRemark(remark.getLocation()) << text;
  }
};

/// Emits every remark the engine's filters let through, as
/// RemarkEmittingPolicyAll does, and keeps those filters' expression so
/// that a pass can ask before it builds a remark's text (a frame layout
/// remark per kept value of a coroutine keeping a million):
/// coro_remark_category_enabled. The engine keeps its own filters private.
/// Every instance is listed, so that a policy someone else installed is
/// never taken for one.
class CategoryPolicy final : public mlir::remark::RemarkEmittingPolicyAll {
public:
  explicit CategoryPolicy(const std::string &pattern)
      : filter("^(" + pattern + ")$") {
    std::lock_guard<std::mutex> lock(mutex());
    live().insert(base());
  }
  ~CategoryPolicy() override {
    std::lock_guard<std::mutex> lock(mutex());
    live().erase(base());
  }
  /// The policy `p` as one of these, or null.
  static const CategoryPolicy *
  find(const mlir::remark::detail::RemarkEmittingPolicyBase *p) {
    std::lock_guard<std::mutex> lock(mutex());
    return live().count(p) ? static_cast<const CategoryPolicy *>(p) : nullptr;
  }
  bool matches(llvm::StringRef category) const {
    return filter.match(category);
  }

private:
  llvm::Regex filter;
  /// What the engine hands back (getRemarkEmittingPolicy).
  const mlir::remark::detail::RemarkEmittingPolicyBase *base() const {
    return this;
  }
  static std::mutex &mutex() {
    static std::mutex m;
    return m;
  }
  static std::set<const void *> &live() {
    static std::set<const void *> s;
    return s;
  }
};
} // namespace

extern "C" MlirLogicalResult
coroContextEnableRemarks(MlirContext ctx, MlirStringRef categoryRegex) {
  mlir::MLIRContext *context = unwrap(ctx);
  std::string pattern = unwrap(categoryRegex).str();
  std::string error;
  if (!llvm::Regex(pattern).isValid(error)) {
    mlir::emitError(mlir::UnknownLoc::get(context))
        << "invalid remark category regular expression '" << pattern
        << "': " << error;
    return mlirLogicalResultFailure();
  }
  mlir::remark::RemarkCategories categories;
  categories.passed = categories.missed = categories.analysis =
      categories.failed = pattern;
  return wrap(mlir::remark::enableOptimizationRemarks(
      *context, std::make_unique<DiagnosticRemarkStreamer>(),
      std::make_unique<CategoryPolicy>(pattern), categories,
      /*printAsEmitRemarks=*/false));
}

extern "C" MlirOperation ir_op_copy(MlirOperation op, MlirLocation loc,
                                    intptr_t noperands,
                                    const MlirValue *operands,
                                    intptr_t nsuccessors,
                                    const MlirBlock *successors) {
  mlir::Operation *from = unwrap(op);
  assert(from->getNumRegions() == 0 && "ir_op_copy copies no region");
  llvm::SmallVector<mlir::Value, 4> values;
  values.reserve(noperands);
  for (intptr_t i = 0; i < noperands; ++i)
    values.push_back(unwrap(operands[i]));
  llvm::SmallVector<mlir::Block *, 2> blocks;
  for (intptr_t i = 0; i < nsuccessors; ++i)
    blocks.push_back(unwrap(successors[i]));
  // What Operation::clone does, without the IRMapping.
  return wrap(mlir::Operation::create(
      unwrap(loc), from->getName(), from->getResultTypes(), values,
      from->getRawDictionaryAttrs(), from->getPropertiesStorage(), blocks,
      /*numRegions=*/0));
}

extern "C" bool coro_remarks_enabled(MlirContext ctx) {
  return unwrap(ctx)->getRemarkEngine() != nullptr;
}

extern "C" bool coro_remark_category_enabled(MlirContext ctx,
                                             const char *category) {
  mlir::remark::detail::RemarkEngine *engine = unwrap(ctx)->getRemarkEngine();
  if (!engine)
    return false;
  const CategoryPolicy *policy =
      CategoryPolicy::find(engine->getRemarkEmittingPolicy());
  return !policy || policy->matches(category);
}

extern "C" void coro_emit_remark(MlirLocation loc, enum coro_remark_kind kind,
                                 const char *category, const char *name,
                                 const char *message) {
  mlir::Location location = unwrap(loc);
  // The options borrow the strings; the remark is reported (and the strings
  // read) when `remark` goes out of scope, before this returns.
  auto opts = mlir::remark::RemarkOpts::name(name).category(category);
  mlir::remark::detail::InFlightRemark remark =
      kind == CORO_REMARK_PASSED   ? mlir::remark::passed(location, opts)
      : kind == CORO_REMARK_MISSED ? mlir::remark::missed(location, opts)
                                   : mlir::remark::analysis(location, opts);
  if (remark)
    remark << llvm::StringRef(message);
}

//===----------------------------------------------------------------------===//
// What an mlir-opt-like driver needs
//===----------------------------------------------------------------------===//

extern "C" MlirModule coroModuleCreateParseWithName(MlirContext ctx,
                                                    MlirStringRef source,
                                                    MlirStringRef sourceName) {
  mlir::ParserConfig config(unwrap(ctx));
  bool reported = false;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    // notes whether the parser said anything, and lets it through
    mlir::ScopedDiagnosticHandler seen(unwrap(ctx), [&](mlir::Diagnostic &d) {
      reported |= d.getSeverity() == mlir::DiagnosticSeverity::Error;
      return mlir::failure();
    });
    module = mlir::parseSourceString<mlir::ModuleOp>(unwrap(source), config,
                                                     unwrap(sourceName));
  }
  if (!module && !reported)
    coroEmitSilentParseFailure(ctx, source, sourceName);
  return MlirModule{module.release().getOperation()};
}

extern "C" void coroContextForEachAvailableDialect(
    MlirContext ctx, void (*callback)(MlirStringRef, void *), void *userData) {
  mlir::MLIRContext *context = unwrap(ctx);
  std::vector<llvm::StringRef> names = context->getAvailableDialects();
  for (mlir::Dialect *dialect : context->getLoadedDialects())
    names.push_back(dialect->getNamespace());
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (llvm::StringRef name : names)
    callback(wrap(name), userData);
}

extern "C" bool coroIsRegisteredPass(MlirStringRef argument) {
  return coro_registry_has(unwrap(argument).str().c_str());
}

extern "C" void coroPrintRegisteredPasses(void) {
  std::fflush(stdout);
  mlir::printRegisteredPasses();
  llvm::outs().flush();
}

namespace {
struct TimingReport {
  mlir::DefaultTimingManager manager;
  mlir::TimingScope root; // destroyed (stopped) before the manager prints
};
} // namespace

static TimingReport *unwrapReport(CoroTimingReport report) {
  return static_cast<TimingReport *>(report.ptr);
}

extern "C" CoroTimingReport coroTimingReportCreate(void) {
  TimingReport *report = new (std::nothrow) TimingReport();
  if (report) {
    report->manager.setEnabled(true);
    report->root = report->manager.getRootScope();
  }
  return CoroTimingReport{report};
}

extern "C" void coroTimingReportDestroy(CoroTimingReport report) {
  TimingReport *r = unwrapReport(report);
  if (!r)
    return;
  r->root.stop();
  delete r; // the manager prints its report when destroyed
}

extern "C" CoroTimer coroTimingReportStartTimer(CoroTimingReport report,
                                                MlirStringRef name) {
  return CoroTimer{new (std::nothrow) mlir::TimingScope(
      unwrapReport(report)->root.nest(unwrap(name)))};
}

extern "C" void coroTimerStop(CoroTimer timer) {
  delete static_cast<mlir::TimingScope *>(timer.ptr);
}

extern "C" void coroPassManagerEnableTimingReport(MlirPassManager pm,
                                                  CoroTimingReport report) {
  unwrap(pm)->enableTiming(unwrapReport(report)->root);
}

extern "C" MlirOperation coro_import_llvm_module(LLVMModuleRef m,
                                                 MlirContext ctx) {
  std::unique_ptr<llvm::Module> module(llvm::unwrap(m));
  mlir::DialectRegistry registry;
  mlir::registerAllFromLLVMIRTranslations(registry);
  unwrap(ctx)->appendDialectRegistry(registry);
  mlir::OwningOpRef<mlir::ModuleOp> imported = mlir::translateLLVMIRToModule(
      std::move(module), unwrap(ctx), /*emitExpensiveWarnings=*/false);
  return wrap(imported ? imported.release().getOperation() : nullptr);
}
