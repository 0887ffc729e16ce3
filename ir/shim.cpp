//===- shim.cpp - The IR layer's C wrappers where MLIR's C API has none -===//
//
// The IR layer's one C++ file. Every function here is a few lines over
// MLIR's C++ API, exported with C linkage, for something the MLIR C API
// cannot do; each is named in docs/contract-notes.md.
//
// - A copy of an op with new operands (ir/copy.h): mlirOperationClone
//   builds and frees an IRMapping per copy.
// - The library's out-of-memory policy (ir/support.h): LLVM's allocation
//   failure handler, as MLIR's own allocations use.
// - Replacing one attribute by another in every location and attribute of
//   a function (ir/debug.h: a split part's debug scopes).
// - Optimisation remarks (ir/remark.h): emitting one from C, asking
//   whether a category is shown, and turning MLIR's remark engine on for a
//   context with a category filter.
// - Independent pieces of a pass on the context's threads, their
//   diagnostics in order (ir/parallel.h).
//
// Nothing here keeps global state of its own but the list of live remark
// policies (guarded by a mutex); everything else belongs to the context.
//
//===----------------------------------------------------------------------===//

#include "ir/copy.h"
#include "ir/debug.h"
#include "ir/parallel.h"
#include "ir/remark.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Remarks.h"
#include "mlir/IR/Threading.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Regex.h"

#include <cassert>
#include <memory>
#include <mutex>
#include <set>
#include <string>

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

extern "C" MlirLogicalResult coro_remarks_enable(MlirContext ctx,
                                                 MlirStringRef categoryRegex) {
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

// Declared _Noreturn in ir/support.h (C).
extern "C" [[noreturn]] void ir_out_of_memory(void) {
  llvm::report_bad_alloc_error("coro: out of memory");
}

extern "C" void ir_replace_attribute_in(MlirOperation op, MlirAttribute from,
                                        MlirAttribute to) {
  mlir::Attribute f = unwrap(from), t = unwrap(to);
  mlir::AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](mlir::Attribute a) -> std::optional<mlir::Attribute> {
        if (a == f)
          return t;
        return std::nullopt;
      });
  replacer.recursivelyReplaceElementsIn(unwrap(op), /*replaceAttrs=*/true,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

extern "C" bool ir_parallel_enabled(MlirContext ctx) {
  mlir::MLIRContext *context = unwrap(ctx);
  return context->isMultithreadingEnabled() && context->getNumThreads() > 1 &&
         !context->getRemarkEngine();
}

extern "C" void ir_parallel_for(MlirContext ctx, size_t n,
                                void (*fn)(size_t, void *), void *user) {
  mlir::MLIRContext *context = unwrap(ctx);
  if (!ir_parallel_enabled(ctx)) {
    for (size_t i = 0; i < n; ++i)
      fn(i, user);
    return;
  }
  // As the pass manager runs a function pass on several functions: each
  // piece's diagnostics held back and emitted in the pieces' order.
  mlir::ParallelDiagnosticHandler handler(context);
  mlir::parallelFor(context, 0, n, [&](size_t i) {
    handler.setOrderIDForThread(i);
    fn(i, user);
    handler.eraseOrderIDForThread();
  });
}
