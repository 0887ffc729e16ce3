//===- registry.cpp - Thin C wrappers where MLIR's C API has none --------===//
//
// The C API's C++ file (ir/shim.cpp is the IR layer's). Every function here is
// a few lines over MLIR's C++ API, exported with C linkage, for something the
// MLIR C API cannot do; each is named in docs/contract-notes.md.
//
// - MLIR's global pass registry, which `--pass-pipeline=` strings and
//   mlirParsePassPipeline consult (coro_registry_*: the passes themselves are
//   C, made with mlirCreateExternalPass; pipelines are textual).
// - The lowering's stages (coro_stage_pass_create): a module pass that runs,
//   as a dynamic pipeline nested in it, the passes a C function chooses for
//   the module at hand (Pass::runPipeline, which the C API lacks).
// - Implicit nesting on a pass manager, so that a pass anchored on another
//   op than its pass manager's gets nested instead of aborting the process.
// - Turning MLIR's remark engine on for a context with a category filter
//   (coroContextEnableRemarks, over ir/remark.h's coro_remarks_enable).
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
#include "capi/stage_pieces.h"
#include "coro-c/Diagnostics.h"
#include "coro-c/Dialect.h"
#include "coro-c/Passes.h"
#include "coro-c/Translate.h"
#include "dialect/contract.h"
#include "ir/remark.h"

#include "mlir-c/Pass.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Remarks.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Import.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/AsmParser/AsmParserContext.h"
#include "llvm/AsmParser/LLParser.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
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

namespace {
/// A stage of the lowering (capi/pipeline.c): on a builtin.module, the
/// pipeline its C row chooses for that module, run nested in this pass, so
/// that timing, IR printing and crash reproducers see each pass of it (or,
/// on a large module, on pieces of it at once: capi/stage_pieces.h).
class StagePass : public mlir::Pass {
public:
  explicit StagePass(const coro_stage_info *info)
      : Pass(mlir::TypeID::getFromOpaquePointer(info),
             mlir::ModuleOp::getOperationName()),
        info(info) {}
  StagePass(const StagePass &other) : Pass(other), info(other.info) {}

  llvm::StringRef getName() const override { return info->name; }
  llvm::StringRef getArgument() const override { return info->argument; }
  llvm::StringRef getDescription() const override { return info->description; }
  bool canScheduleOn(mlir::RegisteredOperationName op) const override {
    return op.getStringRef() == mlir::ModuleOp::getOperationName();
  }
  /// The dialects of every pass the stage may run.
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
    if (mlir::succeeded(choose(nullptr, pm)))
      pm.getDependentDialects(registry);
  }
  /// A large module whose chosen passes may run on pieces of it runs them
  /// so, on the context's threads (capi/stage_pieces.c, outside this pass
  /// manager's instrumentation); any other, nested in this pass.
  void runOnOperation() override {
    mlir::Operation *module = getOperation();
    bool inPieces = false;
    char *chosen = info->choose(wrap(module), &inPieces);
    mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
    bool ok = mlir::succeeded(parse(chosen, module, pm));
    if (ok && inPieces && coro_stage_pieces_worthwhile(wrap(module)))
      ok = mlirLogicalResultIsSuccess(
          coro_stage_run_in_pieces(wrap(module), chosen));
    else if (ok)
      ok = mlir::succeeded(runPipeline(pm, module));
    std::free(chosen);
    if (!ok)
      signalPassFailure();
  }

protected:
  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<StagePass>(*this);
  }

private:
  /// Fills `pm` with the passes chosen for `module` (every pass when null).
  mlir::LogicalResult choose(mlir::Operation *module,
                             mlir::OpPassManager &pm) const {
    bool inPieces = false;
    char *chosen =
        info->choose(module ? wrap(module) : MlirOperation{nullptr}, &inPieces);
    mlir::LogicalResult parsed = parse(chosen, module, pm);
    std::free(chosen);
    return parsed;
  }

  /// Fills `pm` with the textual pipeline `chosen` (null: out of memory).
  mlir::LogicalResult parse(const char *chosen, mlir::Operation *module,
                            mlir::OpPassManager &pm) const {
    if (!chosen)
      return mlir::failure();
    std::string error;
    llvm::raw_string_ostream os(error);
    mlir::LogicalResult parsed = mlir::parsePassPipeline(chosen, pm, os);
    if (mlir::failed(parsed) && module)
      module->emitError() << info->argument << ": " << error;
    return parsed;
  }

  const coro_stage_info *info;
};
} // namespace

extern "C" bool coro_dialect_converts_to_llvm(MlirContext ctx,
                                              const char *ns) {
  mlir::Dialect *dialect = unwrap(ctx)->getLoadedDialect(ns);
  return dialect &&
         dialect->getRegisteredInterface<mlir::ConvertToLLVMPatternInterface>();
}

extern "C" MlirPass coro_stage_pass_create(const coro_stage_info *info) {
  return wrap(static_cast<mlir::Pass *>(new StagePass(info)));
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

extern "C" MlirLogicalResult
coroContextEnableRemarks(MlirContext ctx, MlirStringRef categoryRegex) {
  return coro_remarks_enable(ctx, categoryRegex);
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

/// LLVM IR text without debug info gives MLIR's importer nothing to locate
/// an op with, so a diagnostic about it could name only the file. Each
/// function of `module` without a subprogram gets a synthetic one, and
/// each of its instructions a debug location at the line and column where
/// the parser read it (`positions`); the importer turns those into
/// file:line:col locations, and stripSyntheticScopes then drops the
/// synthetic subprograms again, so that no debug info reaches the output.
/// Returns whether it made any.
static bool locateInstructions(llvm::Module &module, llvm::StringRef file,
                               const llvm::AsmParserContext &positions) {
  llvm::DIBuilder di(module);
  llvm::DIFile *difile = di.createFile(file, ".");
  bool made = false;
  for (llvm::Function &fn : module) {
    if (fn.isDeclaration() || fn.getSubprogram())
      continue;
    if (!made)
      di.createCompileUnit(llvm::dwarf::DW_LANG_C, difile, "coro-import",
                           /*isOptimized=*/false, "", 0);
    made = true;
    std::optional<llvm::FileLocRange> at = positions.getFunctionLocation(&fn);
    unsigned line = at ? at->Start.Line + 1 : 0;
    llvm::DISubprogram *sp = di.createFunction(
        difile, fn.getName(), fn.getName(), difile, line,
        di.createSubroutineType(di.getOrCreateTypeArray({})), line,
        llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
    fn.setSubprogram(sp);
    for (llvm::Instruction &inst : llvm::instructions(fn)) {
      if (inst.getDebugLoc())
        continue;
      std::optional<llvm::FileLocRange> r =
          positions.getInstructionLocation(&inst);
      inst.setDebugLoc(llvm::DILocation::get(module.getContext(),
                                             r ? r->Start.Line + 1 : line,
                                             r ? r->Start.Col + 1 : 0, sp));
    }
  }
  di.finalize();
  return made;
}

/// A static data member's declaration in its class's debug info
/// (`DIDerivedType(tag: DW_TAG_variable, flags: DIFlagStaticMember)`, what
/// clang emits for libstdc++'s `noop_coroutine_handle::_S_fr`) loses its
/// flags in MLIR's importer, and LLVM's verifier rejects the tag without
/// them when the module is translated back. Such members leave their
/// classes' element lists here, and the global variables they declare stop
/// naming them: the class's debug info then shows no static member (the
/// global itself keeps its own debug info), rather than an invalid module.
static void dropStaticMemberDeclarations(llvm::Module &module) {
  auto isStatic = [](const llvm::Metadata *m) {
    auto *t = llvm::dyn_cast_or_null<llvm::DIDerivedType>(m);
    return t && t->getTag() == llvm::dwarf::DW_TAG_variable;
  };
  llvm::DebugInfoFinder finder;
  finder.processModule(module);
  for (llvm::DIType *type : finder.types()) {
    auto *composite = llvm::dyn_cast<llvm::DICompositeType>(type);
    if (!composite || !composite->getRawElements())
      continue;
    llvm::DINodeArray elements = composite->getElements();
    if (llvm::none_of(elements, isStatic))
      continue;
    llvm::SmallVector<llvm::Metadata *> kept;
    for (llvm::DINode *e : elements)
      if (!isStatic(e))
        kept.push_back(e);
    composite->replaceElements(llvm::MDTuple::get(module.getContext(), kept));
  }
  for (llvm::DIGlobalVariableExpression *gve : finder.global_variables()) {
    llvm::DIGlobalVariable *var = gve->getVariable();
    if (var && isStatic(var->getRawStaticDataMemberDeclaration()))
      var->replaceOperandWith(6, nullptr);
  }
}

/// `!coro.outside.frame` on an alloca (clang's ramp-only slots), which
/// MLIR's importer drops, as a call of CORO_OUTSIDE_FRAME_MARKER on it
/// right after it (dialect/contract.h).
static void markOutsideFrame(llvm::Module &module) {
  unsigned kind = module.getContext().getMDKindID("coro.outside.frame");
  llvm::FunctionCallee marker;
  for (llvm::Function &fn : module)
    for (llvm::Instruction &inst : llvm::instructions(fn)) {
      auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
      if (!alloca || !alloca->getMetadata(kind))
        continue;
      if (!marker)
        marker = module.getOrInsertFunction(
            CORO_OUTSIDE_FRAME_MARKER,
            llvm::FunctionType::get(llvm::Type::getVoidTy(module.getContext()),
                                    {alloca->getType()}, false));
      llvm::IRBuilder<> b(alloca->getNextNode());
      b.CreateCall(marker, {alloca});
    }
}

/// Where in the input `inst` is (its debug location, else its place in the
/// text; 0:0 in bitcode without debug info), or `fn` when `inst` is null.
static mlir::Location inputLocation(mlir::MLIRContext *context,
                                    llvm::StringRef file,
                                    const llvm::AsmParserContext &positions,
                                    const llvm::Function &fn,
                                    const llvm::Instruction *inst) {
  if (inst && inst->getDebugLoc() && inst->getDebugLoc().getLine())
    return mlir::FileLineColLoc::get(
        context, inst->getDebugLoc()->getFilename(),
        inst->getDebugLoc().getLine(), inst->getDebugLoc().getCol());
  std::optional<llvm::FileLocRange> at =
      inst ? positions.getInstructionLocation(inst)
           : positions.getFunctionLocation(&fn);
  if (!at && inst)
    at = positions.getFunctionLocation(&fn);
  // a declaration has no position of its own: its first call's
  if (!at)
    for (const llvm::User *user : fn.users())
      if (auto *call = llvm::dyn_cast<llvm::Instruction>(user))
        if ((at = positions.getInstructionLocation(call)))
          break;
  return mlir::FileLineColLoc::get(context, file, at ? at->Start.Line + 1 : 0,
                                   at ? at->Start.Col + 1 : 0);
}

/// Where the verifier's first complaint about `module` is: the first
/// function it rejects, else the function the line after the complaint
/// (`culprit`, the value LLVM prints) names, else the file.
static mlir::Location verifierLocation(mlir::MLIRContext *context,
                                       llvm::StringRef file,
                                       const llvm::AsmParserContext &positions,
                                       llvm::Module &module,
                                       llvm::StringRef culprit) {
  for (llvm::Function &fn : module)
    if (!fn.isDeclaration() && llvm::verifyFunction(fn))
      return inputLocation(context, file, positions, fn, nullptr);
  size_t at = culprit.find('@');
  if (at != llvm::StringRef::npos) {
    llvm::StringRef name = culprit.substr(at + 1);
    name = name.take_while([](char c) {
      return llvm::isAlnum(c) || c == '.' || c == '_' || c == '$';
    });
    if (llvm::Function *fn = module.getFunction(name))
      return inputLocation(context, file, positions, *fn, nullptr);
  }
  return mlir::FileLineColLoc::get(context, file, 0, 0);
}

/// The first of swiftself, swiftasync and swifterror in `attrs`, or none.
static std::optional<llvm::Attribute::AttrKind>
swiftParameter(llvm::AttributeList attrs, unsigned n, unsigned *at) {
  static const llvm::Attribute::AttrKind kinds[] = {
      llvm::Attribute::SwiftSelf, llvm::Attribute::SwiftAsync,
      llvm::Attribute::SwiftError};
  for (unsigned i = 0; i < n; ++i)
    for (llvm::Attribute::AttrKind k : kinds)
      if (attrs.hasParamAttr(i, k)) {
        *at = i;
        return k;
      }
  return std::nullopt;
}

/// Refuses a parameter or argument marked swiftself, swiftasync or
/// swifterror, with an error at it: MLIR's LLVM dialect has no such
/// attribute and its importer drops them, which would change silently how
/// the function passes that value (in a register of its own) to and from
/// code compiled elsewhere.
static bool refuseSwiftParameters(mlir::MLIRContext *context,
                                  llvm::StringRef file,
                                  const llvm::AsmParserContext &positions,
                                  const llvm::Module &module) {
  for (const llvm::Function &fn : module) {
    unsigned at = 0;
    const llvm::Instruction *where = nullptr;
    std::optional<llvm::Attribute::AttrKind> kind =
        swiftParameter(fn.getAttributes(), fn.arg_size(), &at);
    for (const llvm::Instruction &inst : llvm::instructions(fn)) {
      if (kind)
        break;
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if ((kind =
                 swiftParameter(call->getAttributes(), call->arg_size(), &at)))
          where = &inst;
    }
    if (!kind)
      continue;
    mlir::emitError(inputLocation(context, file, positions, fn, where))
        << "'" << llvm::Attribute::getNameFromAttrKind(*kind) << "' on "
        << (where ? "argument " : "parameter ") << at
        << (where ? " of a call in @" : " of @") << fn.getName()
        << ": MLIR's LLVM dialect cannot hold it (its importer would drop "
           "it, and change how that value is passed): not supported";
    return false;
  }
  return true;
}

/// Refuses a personality that is not a function (LLVM's tests write
/// `personality i32 0`) of a function with landing pads, with an error at
/// the function: MLIR's importer keeps only a function's symbol, and drops
/// anything else, after which every landing pad of the function was
/// refused as one without a personality. Without landing pads the
/// personality has no use, and its loss none.
static bool refuseOtherPersonalities(mlir::MLIRContext *context,
                                     llvm::StringRef file,
                                     const llvm::AsmParserContext &positions,
                                     const llvm::Module &module) {
  for (const llvm::Function &fn : module) {
    if (!fn.hasPersonalityFn() ||
        llvm::isa<llvm::Function>(fn.getPersonalityFn()->stripPointerCasts()) ||
        llvm::none_of(llvm::instructions(fn),
                      [](const llvm::Instruction &i) { return i.isEHPad(); }))
      continue;
    mlir::emitError(inputLocation(context, file, positions, fn, nullptr))
        << "the personality of @" << fn.getName()
        << " is not a function: MLIR's LLVM dialect takes only a function's "
           "symbol there (not supported)";
    return false;
  }
  return true;
}

/// A location of `module` without the synthetic subprograms
/// locateInstructions made: their file:line:col alone.
static mlir::Location stripSyntheticScope(mlir::Location loc) {
  auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc);
  if (!fused)
    return loc;
  auto sp =
      llvm::dyn_cast_or_null<mlir::LLVM::DISubprogramAttr>(fused.getMetadata());
  if (!sp || !sp.getCompileUnit() || !sp.getCompileUnit().getProducer() ||
      sp.getCompileUnit().getProducer().getValue() != "coro-import")
    return loc;
  llvm::SmallVector<mlir::Location> inner;
  for (mlir::Location l : fused.getLocations())
    inner.push_back(stripSyntheticScope(l));
  return mlir::FusedLoc::get(loc.getContext(), inner);
}

static void stripSyntheticScopes(mlir::ModuleOp module) {
  module.walk([](mlir::Operation *op) {
    op->setLoc(stripSyntheticScope(op->getLoc()));
    for (mlir::Region &r : op->getRegions())
      for (mlir::Block &b : r)
        for (mlir::BlockArgument a : b.getArguments())
          a.setLoc(stripSyntheticScope(a.getLoc()));
  });
}

extern "C" MlirModule coroImportLLVMIR(MlirContext ctx, MlirStringRef buffer,
                                       MlirStringRef name) {
  mlir::MLIRContext *context = unwrap(ctx);
  llvm::StringRef file = unwrap(name);
  llvm::LLVMContext llvmContext;
  llvm::SMDiagnostic error;
  llvm::AsmParserContext positions;
  // a copy: LLVM's lexer reads the NUL after the text, which a caller's
  // buffer need not have
  std::unique_ptr<llvm::MemoryBuffer> input =
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(buffer), file);
  bool bitcode = llvm::isBitcode(
      reinterpret_cast<const unsigned char *>(buffer.data),
      reinterpret_cast<const unsigned char *>(buffer.data + buffer.length));
  std::unique_ptr<llvm::Module> module;
  if (bitcode) {
    module = llvm::parseIR(input->getMemBufferRef(), error, llvmContext, {},
                           &positions);
  } else {
    // parseIR's way for text, but the upgrade of debug info waits for the
    // verifier below: run first, it ends the process (report_fatal_error,
    // "Broken module found") on any module the verifier rejects
    llvm::SourceMgr sources;
    sources.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(), false),
        llvm::SMLoc());
    module = std::make_unique<llvm::Module>(file, llvmContext);
    if (llvm::LLParser(input->getBuffer(), sources, error, module.get(),
                       nullptr, llvmContext, nullptr, &positions)
            .Run(/*UpgradeDebugInfo=*/false))
      module.reset();
  }
  if (!module) {
    // LLVM's parser error at its line and column (bitcode has neither: 0:0)
    mlir::emitError(mlir::FileLineColLoc::get(
        context, file, error.getLineNo() > 0 ? error.getLineNo() : 0,
        error.getColumnNo() >= 0 ? error.getColumnNo() + 1 : 0))
        << error.getMessage();
    return MlirModule{nullptr};
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*module, &os)) {
    os.flush();
    auto [first, rest] = llvm::StringRef(problems).split('\n');
    mlir::emitError(verifierLocation(context, file, positions, *module,
                                     rest.split('\n').first))
        << "invalid LLVM IR: " << first;
    return MlirModule{nullptr};
  }
  if (!bitcode)
    llvm::UpgradeDebugInfo(*module); // verified: it finds nothing broken
  if (!refuseSwiftParameters(context, file, positions, *module) ||
      !refuseOtherPersonalities(context, file, positions, *module))
    return MlirModule{nullptr};
  markOutsideFrame(*module);
  dropStaticMemberDeclarations(*module);
  bool synthetic = !bitcode && locateInstructions(*module, file, positions);
  MlirOperation op = coro_import_llvm_module(llvm::wrap(module.release()), ctx);
  if (synthetic && !mlirOperationIsNull(op))
    stripSyntheticScopes(llvm::cast<mlir::ModuleOp>(unwrap(op)));
  return MlirModule{op.ptr};
}

/// MLIR's importer turns calls of the intrinsics it knows into intrinsic ops
/// and drops their declarations, but an intrinsic LLVM invokes (an
/// await.suspend that may throw; a resume the inliner put in a try
/// region) stays an llvm.invoke of the symbol: this declares each one such
/// an invoke names, as the LLVM module did, so that the module verifies
/// and translates back.
static void declareInvokedIntrinsics(mlir::ModuleOp module) {
  mlir::SymbolTable table(module);
  mlir::OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  module.walk([&](mlir::LLVM::InvokeOp op) {
    mlir::FlatSymbolRefAttr callee = op.getCalleeAttr();
    if (!callee || !callee.getValue().starts_with("llvm.") ||
        table.lookup(callee.getValue()))
      return;
    llvm::SmallVector<mlir::Type> args(op.getCalleeOperands().getTypes());
    mlir::Type result =
        op.getNumResults() ? op->getResult(0).getType()
                           : mlir::LLVM::LLVMVoidType::get(module.getContext());
    auto fn = mlir::LLVM::LLVMFuncOp::create(
        builder, op.getLoc(), callee.getValue(),
        mlir::LLVM::LLVMFunctionType::get(result, args));
    table.insert(fn);
  });
}

extern "C" MlirOperation coro_import_llvm_module(LLVMModuleRef m,
                                                 MlirContext ctx) {
  std::unique_ptr<llvm::Module> module(llvm::unwrap(m));
  mlir::DialectRegistry registry;
  mlir::registerAllFromLLVMIRTranslations(registry);
  unwrap(ctx)->appendDialectRegistry(registry);
  mlir::OwningOpRef<mlir::ModuleOp> imported = mlir::translateLLVMIRToModule(
      std::move(module), unwrap(ctx), /*emitExpensiveWarnings=*/false);
  if (!imported)
    return wrap(static_cast<mlir::Operation *>(nullptr));
  declareInvokedIntrinsics(*imported);
  return wrap(imported.release().getOperation());
}
