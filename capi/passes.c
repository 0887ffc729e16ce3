/* passes.c - every coro pass and named pipeline, and their registration.
 *
 * A pass is a row (CORO_PASS): its flag, a description, the op it is
 * anchored on ("" for any op) and a run function that reports failure with
 * located diagnostics, with the public constructor that owns it. The rows
 * are static and immutable, so a pass object's user data is its row:
 * cloning a pass (the pass manager does, per thread) copies nothing. Named
 * pipelines coro-lower-<abi> come from capi/pipeline.c, the one place that
 * states the lowering order. This file is the one place that lists the
 * passes. */
#include "coro-c/Passes.h"
#include "capi/pipeline.h"
#include "capi/registry.h"
#include "conversion/CoroToLLVMAsync/convert_coro_to_llvm_async.h"
#include "conversion/CoroToLLVMRetcon/convert_coro_to_llvm_retcon.h"
#include "conversion/CoroToLLVMSwitch/convert_coro_to_llvm_switch.h"
#include "conversion/CoroToNVVM/convert_coro_to_nvvm.h"
#include "dialect/verify.h"
#include "ir/blocks.h"
#include "ir/op_cache.h"
#include "ir/parallel.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/check_intrinsics.h"
#include "transforms/coro_elide.h"
#include "transforms/debug_info.h"
#include "transforms/empty_values.h"
#include "transforms/misuse_checks.h"
#include "transforms/stack_saves.h"

#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/ControlFlow.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Dialect/NVVM.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/RegisterEverything.h"

#include <stddef.h>
#include <stdlib.h>

static void pass_construct(void *userData) {}
static void pass_destruct(void *userData) {}
static void *pass_clone(void *userData) { return userData; }

/* Every pass runs with a symbol scope of its op (ir/symbols.h): a lookup
 * per coroutine, call or consumer is then O(1), not a scan of the module;
 * and with an op cache (ir/op_cache.h): the ops it builds again and again
 * are copied from a template of their kind. */
static void pass_run(MlirOperation op, MlirExternalPass pass, void *userData) {
  const struct coro_pass_info *info = userData;
  struct ir_symbol_scope scope;
  struct ir_op_cache cache;
  ir_symbol_scope_enter(&scope, op);
  ir_op_cache_enter(&cache, mlirOperationGetContext(op));
  MlirLogicalResult res = info->run(op);
  ir_op_cache_exit(&cache);
  ir_symbol_scope_exit(&scope);
  if (mlirLogicalResultIsFailure(res))
    mlirExternalPassSignalFailure(pass);
}

MlirPass coro_pass_create(const struct coro_pass_info *info) {
  MlirExternalPassCallbacks callbacks = {
      .construct = pass_construct,
      .destruct = pass_destruct,
      .initialize = NULL,
      .clone = pass_clone,
      .run = pass_run,
  };
  /* The row's address is unique per pass and suitably aligned: it is the
   * pass's TypeID. */
  MlirDialectHandle deps[8];
  intptr_t ndeps = 0;
  for (intptr_t i = 0; info->dependent && info->dependent[i] && ndeps < 8; ++i)
    deps[ndeps++] = info->dependent[i]();
  return mlirCreateExternalPass(
      mlirTypeIDCreate(info), mlirStringRefCreateFromCString(info->name),
      mlirStringRefCreateFromCString(info->argument),
      mlirStringRefCreateFromCString(info->description),
      mlirStringRefCreateFromCString(info->anchor), ndeps, deps, callbacks,
      (void *)info);
}

/* The dialects whose ops, types and attributes the coro passes create:
 * the LLVM dialect (frames, intrinsics, debug info, coro_storage_type in
 * the verifier), func, arith, cf and scf (the checked mode's scf.if). A
 * pass declares them, so that it runs first in a fresh context, as in
 * upstream mlir-opt (DESIGN §5). */
static MlirDialectHandle (*const coro_deps[])(void) = {
    mlirGetDialectHandle__llvm__,  mlirGetDialectHandle__func__,
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__cf__,
    mlirGetDialectHandle__scf__,   NULL};

/* One pass: its row and its public constructor, which the registry calls
 * too (it stores a constructor without user data). */
#define CORO_PASS(row, ctor, ...)                                              \
  CORO_PASS_DEPS(row, ctor, coro_deps, __VA_ARGS__)
/* The same for a pass that creates ops of `deps` (a null-terminated array
 * of dialect handle getters). */
#define CORO_PASS_DEPS(row, ctor, deps, ...)                                   \
  static const struct coro_pass_info row = {__VA_ARGS__, deps};                \
  MlirPass ctor(void) { return coro_pass_create(&row); }

CORO_PASS(verify_pass, coroCreateVerifyPass, "coro-verify", "CoroVerify",
          "Check coroutines and coro ops against the dialect's rules", "",
          coro_verify_run)
CORO_PASS(switch_pass, coroCreateConvertCoroToLLVMSwitchPass,
          "convert-coro-to-llvm-switch", "ConvertCoroToLLVMSwitch",
          "Lower switch-ABI coroutines and consumer ops to LLVM coroutine "
          "intrinsics",
          "builtin.module", coro_convert_to_llvm_switch_run)
CORO_PASS(retcon_pass, coroCreateConvertCoroToLLVMRetconPass,
          "convert-coro-to-llvm-retcon", "ConvertCoroToLLVMRetcon",
          "Lower retcon-ABI coroutines and consumer ops to LLVM's "
          "returned-continuation intrinsics",
          "builtin.module", coro_convert_to_llvm_retcon_run)
CORO_PASS(retcon_once_pass, coroCreateConvertCoroToLLVMRetconOncePass,
          "convert-coro-to-llvm-retcon-once", "ConvertCoroToLLVMRetconOnce",
          "Lower retcon.once-ABI coroutines and consumer ops to LLVM's "
          "yield-once intrinsics",
          "builtin.module", coro_convert_to_llvm_retcon_once_run)
CORO_PASS(async_pass, coroCreateConvertCoroToLLVMAsyncPass,
          "convert-coro-to-llvm-async", "ConvertCoroToLLVMAsync",
          "Lower async-ABI coroutines and consumer ops to LLVM's async "
          "coroutine intrinsics",
          "builtin.module", coro_convert_to_llvm_async_run)
/* convert-coro-to-nvvm makes NVVM special-register reads (gpu.thread_id
 * and the like) and arith index casts. */
static MlirDialectHandle (*const nvvm_deps[])(void) = {
    mlirGetDialectHandle__nvvm__,
    mlirGetDialectHandle__llvm__,
    mlirGetDialectHandle__func__,
    mlirGetDialectHandle__arith__,
    mlirGetDialectHandle__cf__,
    mlirGetDialectHandle__scf__,
    NULL};

CORO_PASS_DEPS(nvvm_pass, coroCreateConvertCoroToNVVMPass, nvvm_deps,
               "convert-coro-to-nvvm", "ConvertCoroToNVVM",
               "The GPU path's rules on the coro dialect (after coro-elide): "
               "switch, retcon and retcon.once coroutines whose frames live "
               "in their callers or in an arena (coro.alloc = \"arena\"), "
               "awaits resumed through a loop rather than a tail call, no "
               "async and no indirect call; marks the module coro.device",
               "builtin.module", coro_convert_to_nvvm_run)
CORO_PASS(check_device_pass, coroCreateCheckDevicePass, "coro-check-device",
          "CoroCheckDevice",
          "In a module marked coro.device: no call of an allocator and no "
          "indirect call left (the last step of coro-lower-nvvm); marks the "
          "kernels nvvm.kernel and sets the NVPTX target triple",
          "builtin.module", coro_check_device_run)
CORO_PASS(split_pass, coroCreateCoroSplitPass, "coro-split", "CoroSplit",
          "Split switched-resume coroutines (LLVM dialect with coroutine "
          "intrinsics) into ramp, resume, destroy and cleanup functions, "
          "and retcon and retcon.once ones into a ramp and a continuation "
          "per suspension, with an explicit frame: coro's own split (route "
          "B)",
          "builtin.module", coro_split_run)

CORO_PASS(elide_pass, coroCreateCoroElidePass, "coro-elide", "CoroElide",
          "Decide which coroutine frames live in their caller: mark each "
          "call of a switch, retcon or retcon.once coroutine coro.elided = "
          "true when its handle provably stays in the caller and is "
          "destroyed on every path (--coro-split then puts the frame, or "
          "the retcon control block, in the caller); checks coro.alloc = "
          "\"elide\"",
          "builtin.module", coro_elide_run)

CORO_PASS(misuse_checks_pass, coroCreateMisuseChecksPass, "coro-misuse-checks",
          "CoroMisuseChecks",
          "The checked mode: resuming a coroutine that has ended, or "
          "yielding again after coro.destroy, traps with a message naming "
          "the coroutine (on the coro dialect, before the conversions)",
          "builtin.module", coro_misuse_checks_run)

CORO_PASS(debug_info_pass, coroCreateDebugInfoPass, "coro-debug-info",
          "CoroDebugInfo",
          "Debug info for the lowered module (-g): a subprogram for every "
          "llvm.func from its location, in a compile unit LLVM describes "
          "coroutine frames for",
          "builtin.module", coro_debug_info_run)

struct lowered_check {
  struct ir_opvec fns; /* the functions, in the module's order */
  bool *failed;        /* per function */
  bool other_failed;   /* an op outside every function */
};

/* Records each function (not walked into); checks any other op itself. */
static MlirWalkResult collect_fn(MlirOperation op, void *user) {
  struct lowered_check *c = user;
  if (coro_op_named(op, "func.func") || coro_op_named(op, "llvm.func")) {
    ir_opvec_push(&c->fns, op);
    return MlirWalkResultSkip;
  }
  return coro_check_lowered_visit(op, &c->other_failed) ? MlirWalkResultSkip
                                                        : MlirWalkResultAdvance;
}

/* Checks function `i` and, when it passes, prepares it for the split while
 * its ops are still in the cache (the preparation reports nothing, and a
 * module that fails the check is not split). */
static void check_fn(size_t i, void *user) {
  struct lowered_check *c = user;
  MlirOperation fn = c->fns.v[i];
  c->failed[i] = mlirLogicalResultIsFailure(coro_check_lowered_fn(fn));
  if (c->failed[i])
    return;
  coro_drop_suspended_stack_saves(fn);
  coro_rebuild_empty_values(fn);
}

/* coro-check-lowered: what the conversions left, then LLVM's coroutine
 * intrinsics as written by hand (transforms/check_intrinsics.h), in one
 * walk of each function; then, in a function that passed, the stack saves
 * a suspension would outlive go (transforms/stack_saves.h), and values
 * with no bits become constants (transforms/empty_values.h), before either
 * route's split sees them.
 * Each of the steps looks at one function at a time and changes only its
 * body: the functions are checked and prepared at once on the context's
 * threads (ir/parallel.h: errors in the functions' order, each function's
 * unlowered ops before its intrinsics). */
static MlirLogicalResult check_lowered_run(MlirOperation root) {
  struct lowered_check c = {{0}, NULL, false};
  mlirOperationWalk(root, collect_fn, &c, MlirWalkPreOrder);
  MlirContext ctx = mlirOperationGetContext(root);
  c.failed = ir_xcalloc(c.fns.n + 1, sizeof *c.failed);
  ir_parallel_for(ctx, c.fns.n, check_fn, &c);
  bool failed = c.other_failed;
  for (size_t i = 0; i < c.fns.n; ++i)
    failed |= c.failed[i];
  free(c.failed);
  free(c.fns.v);
  return failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

CORO_PASS(check_lowered_pass, coroCreateCheckLoweredPass, "coro-check-lowered",
          "CoroCheckLowered",
          "Report any coroutine or coro op left after the conversions (the "
          "last step of the named pipelines), and LLVM's coroutine "
          "intrinsics written where LLVM's passes would abort or misread "
          "them",
          "builtin.module", check_lowered_run)

/* The lowering's stages (capi/pipeline.c), passes of their own so that
 * the named pipelines can name them. */
static MlirPass create_stage_regions(void) {
  return coro_stage_pass_create(&coro_stage_regions);
}
static MlirPass create_stage_strides(void) {
  return coro_stage_pass_create(&coro_stage_strides);
}
static MlirPass create_stage_abis(void) {
  return coro_stage_pass_create(&coro_stage_abis);
}
static MlirPass create_stage_rest(void) {
  return coro_stage_pass_create(&coro_stage_rest);
}
static const struct {
  const struct coro_stage_info *info;
  MlirPass (*create)(void);
} coro_stages[] = {
    {&coro_stage_regions, create_stage_regions},
    {&coro_stage_strides, create_stage_strides},
    {&coro_stage_abis, create_stage_abis},
    {&coro_stage_rest, create_stage_rest},
};
enum { num_coro_stages = sizeof(coro_stages) / sizeof(coro_stages[0]) };

/* Every pass, in the order --help lists them. */
static const struct {
  const struct coro_pass_info *info;
  MlirPass (*create)(void);
} coro_passes[] = {
    {&verify_pass, coroCreateVerifyPass},
    {&switch_pass, coroCreateConvertCoroToLLVMSwitchPass},
    {&retcon_pass, coroCreateConvertCoroToLLVMRetconPass},
    {&retcon_once_pass, coroCreateConvertCoroToLLVMRetconOncePass},
    {&async_pass, coroCreateConvertCoroToLLVMAsyncPass},
    {&elide_pass, coroCreateCoroElidePass},
    {&split_pass, coroCreateCoroSplitPass},
    {&nvvm_pass, coroCreateConvertCoroToNVVMPass},
    {&check_device_pass, coroCreateCheckDevicePass},
    {&misuse_checks_pass, coroCreateMisuseChecksPass},
    {&debug_info_pass, coroCreateDebugInfoPass},
    {&check_lowered_pass, coroCreateCheckLoweredPass},
};
enum { num_coro_passes = sizeof(coro_passes) / sizeof(coro_passes[0]) };

MlirLogicalResult coroVerify(MlirOperation op) { return coro_verify_run(op); }

/* The named pipeline for modules that mix ABIs. */
#define CORO_LOWER_PIPELINE "coro-lower"
#define CORO_LOWER_DESCRIPTION                                                 \
  "Verify and lower coroutines of every ABI, and everything else, to the "     \
  "LLVM dialect"

/* The named pipeline for the device. */
#define CORO_LOWER_NVVM_PIPELINE "coro-lower-nvvm"
#define CORO_LOWER_NVVM_DESCRIPTION                                            \
  "Verify and lower a device module (kernels calling switch coroutines) "      \
  "to the LLVM dialect with NVVM ops, through coro's own split: frames in "    \
  "their callers, direct calls, no device malloc"

/* The description of the named pipeline of `row`. */
static struct coro_str pipeline_description(const struct coro_abi_row *row) {
  struct coro_str d = {0};
  coro_str_appendz(&d, "Verify and lower ");
  coro_str_appendz(&d, row->abi);
  coro_str_appendz(&d, " coroutines, and everything else, to the LLVM "
                       "dialect");
  return d;
}

void coroRegisterPasses(void) {
  const CoroLowerOptions route_a = {.route = CoroRouteLLVM};
  /* The registry is global; whether our first pass is in it tells whether
   * this ran before (in this process, from any caller). */
  if (coro_registry_has(verify_pass.argument))
    return;
  /* Upstream's passes, unless the process has them (mlir-opt, which loads
   * lib/CoroPlugin.so, registered them already; registering a pipeline
   * twice aborts in an MLIR built with assertions). */
  if (!coro_registry_has("canonicalize"))
    mlirRegisterAllPasses();
  for (size_t i = 0; i < num_coro_passes; ++i)
    coro_registry_add_pass(coro_passes[i].create);
  for (size_t i = 0; i < num_coro_stages; ++i)
    coro_registry_add_pass(coro_stages[i].create);
  /* coro-lower-<abi>: route A for one ABI; coro-lower: for every ABI
   * (capi/pipeline.c). */
  for (const struct coro_abi_row *r = coro_abi_rows; r->abi; ++r) {
    struct coro_str elements = {0}, description = pipeline_description(r);
    coro_pipeline_route(&elements, &route_a, r);
    coro_registry_add_pipeline(r->pipeline, coro_str_cstr(&description),
                               coro_str_cstr(&elements));
    coro_str_free(&elements);
    coro_str_free(&description);
  }
  struct coro_str nvvm = {0};
  coro_pipeline_nvvm(&nvvm);
  coro_registry_add_pipeline(CORO_LOWER_NVVM_PIPELINE,
                             CORO_LOWER_NVVM_DESCRIPTION, coro_str_cstr(&nvvm));
  coro_str_free(&nvvm);
  struct coro_str all = {0};
  coro_pipeline_route(&all, &route_a, NULL);
  coro_registry_add_pipeline(CORO_LOWER_PIPELINE, CORO_LOWER_DESCRIPTION,
                             coro_str_cstr(&all));
  coro_str_free(&all);
}

void coroForEachPass(void (*callback)(MlirStringRef, MlirStringRef, void *),
                     void *userData) {
  for (size_t i = 0; i < num_coro_passes; ++i)
    callback(mlirStringRefCreateFromCString(coro_passes[i].info->argument),
             mlirStringRefCreateFromCString(coro_passes[i].info->description),
             userData);
  for (size_t i = 0; i < num_coro_stages; ++i)
    callback(mlirStringRefCreateFromCString(coro_stages[i].info->argument),
             mlirStringRefCreateFromCString(coro_stages[i].info->description),
             userData);
  for (const struct coro_abi_row *r = coro_abi_rows; r->abi; ++r) {
    struct coro_str description = pipeline_description(r);
    callback(mlirStringRefCreateFromCString(r->pipeline),
             mlirStringRefCreateFromCString(coro_str_cstr(&description)),
             userData);
    coro_str_free(&description);
  }
  callback(mlirStringRefCreateFromCString(CORO_LOWER_PIPELINE),
           mlirStringRefCreateFromCString(CORO_LOWER_DESCRIPTION), userData);
  callback(mlirStringRefCreateFromCString(CORO_LOWER_NVVM_PIPELINE),
           mlirStringRefCreateFromCString(CORO_LOWER_NVVM_DESCRIPTION),
           userData);
}
