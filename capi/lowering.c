/* lowering.c - coro-c/Lowering.h: the lowering to the LLVM dialect that
 * coro-run, coro-translate and embedders share, and pipelines run from text
 * or from pass objects.
 *
 * The order of the lowering is capi/pipeline.c's, for every route. Every
 * failure is reported as a diagnostic on the module's context; strings built
 * here are owned by a `struct coro_str` freed before returning. */
#include "coro-c/Lowering.h"
#include "capi/pipeline.h"
#include "capi/presplit.h"
#include "coro-c/Dialect.h"
#include "coro-c/Passes.h"
#include "coro-c/Translate.h"
#include "dialect/contract.h"
#include "ir/support.h"
#include "transforms/CoroSplit/coro_split.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool coroABIIsSupported(MlirStringRef abi) {
  return abi.length && coro_abi_row_find(abi) != NULL;
}

bool coroRouteParse(MlirStringRef name, CoroRoute *route) {
  if (coro_ref_eq(name, "llvm"))
    *route = CoroRouteLLVM;
  else if (coro_ref_eq(name, CORO_ROUTE_B))
    *route = CoroRouteMLIRSplit;
  else
    return false;
  return true;
}

/* Emits an error at every coroutine whose ABI has no conversion. */
static bool abis_supported(MlirModule module) {
  bool ok = true;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coroOpIsCoroutine(op))
      continue;
    MlirStringRef abi = coroCoroutineGetABI(op);
    if (!abi.data || coroABIIsSupported(abi))
      continue; /* a non-string coro.abi: the verifier reports it */
    /* The pass that would lower it: "retcon.once" -> ...-retcon-once. */
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "coroutines with coro.abi = \"");
    coro_str_append(&msg, abi.data, abi.length);
    coro_str_appendz(&msg, "\" cannot be lowered yet: no ");
    size_t start = msg.len + strlen("convert-coro-to-llvm-");
    coro_str_appendz(&msg, "convert-coro-to-llvm-");
    coro_str_append(&msg, abi.data, abi.length);
    for (size_t i = start; i < msg.len; ++i)
      if (msg.data[i] == '.')
        msg.data[i] = '-';
    coro_str_appendz(&msg, " pass is registered");
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    ok = false;
  }
  return ok;
}

static MlirWalkResult drop_route(MlirOperation op, void *user) {
  if (coro_op_named(op, "builtin.module"))
    mlirOperationRemoveAttributeByName(
        op, mlirStringRefCreateFromCString(CORO_ROUTE_ATTR));
  return MlirWalkResultAdvance;
}

void coroSetRoute(MlirModule module, CoroRoute route) {
  /* route B lowers what route A cannot (the verifier reads this) */
  MlirOperation m = mlirModuleGetOperation(module);
  if (route != CoroRouteMLIRSplit) {
    /* a module that says route B, lowered by route A: the verifier must
     * refuse, at the op, what route A cannot lower */
    mlirOperationWalk(m, drop_route, NULL, MlirWalkPreOrder);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(m);
  mlirOperationSetAttributeByName(
      m, mlirStringRefCreateFromCString(CORO_ROUTE_ATTR),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(CORO_ROUTE_B)));
}

static MlirLogicalResult run_pipeline(MlirModule module, MlirStringRef pipeline,
                                      bool verify_each);

/* Runs one of the lowering's own pipelines on `module` and verifies the
 * result once, as LLVM's opt verifies its input and output and not each
 * pass: MLIR's verifier after each of a pipeline's ten passes was 14 to
 * 18% of a whole compile at -O0 (callgrind, bench/many-gen.c's mix of 200
 * coroutines). Its input was verified when it was parsed or built (the
 * pipelines start with coro-verify); an error in what the passes made is
 * still reported, at its op, before anything translates it. coro-opt
 * keeps MLIR's verifier after each pass (--verify-each). */
static MlirLogicalResult run_lowering(MlirModule module,
                                      MlirStringRef pipeline) {
  MlirLogicalResult ok = run_pipeline(module, pipeline, false);
  if (mlirLogicalResultIsSuccess(ok) &&
      !mlirOperationVerify(mlirModuleGetOperation(module)))
    ok = mlirLogicalResultFailure();
  return ok;
}

MlirLogicalResult coroLowerToLLVMDialectWithOptions(MlirModule module,
                                                    CoroLowerOptions options) {
  coroRegisterPasses();
  struct coro_str p = {0};
  if (!coro_pipeline_route(&p, &options, NULL)) {
    mlirEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                  "unknown lowering route");
    return mlirLogicalResultFailure();
  }
  coroSetRoute(module, options.route);
  MlirLogicalResult ok = mlirLogicalResultFailure();
  if (abis_supported(module))
    ok = run_lowering(module, mlirStringRefCreate(p.data, p.len));
  coro_str_free(&p);
  return ok;
}

/* Runs the pipeline `before` (up to the split) on `module`, then LLVM's
 * pre-split simplification with the costs of `tm` (null after an error,
 * reported; disposed of here), then the pipeline `after` (the split). */
static MlirLogicalResult run_with_trip(MlirModule module,
                                       const struct coro_str *before,
                                       LLVMTargetMachineRef tm,
                                       const char *after) {
  bool ok = tm && mlirLogicalResultIsSuccess(run_lowering(
                      module, mlirStringRefCreate(before->data, before->len)));
  ok = ok && coro_presplit_optimize(module, tm);
  if (tm)
    LLVMDisposeTargetMachine(tm);
  ok = ok && mlirLogicalResultIsSuccess(
                 run_lowering(module, mlirStringRefCreateFromCString(after)));
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* Whether a function of `module` carries debug info: a location fused
 * with metadata (its subprogram), as LLVM IR input compiled with -g has. */
static bool has_debug_info(MlirModule module) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirLocation loc = mlirOperationGetLocation(op);
    if (mlirLocationIsAFused(loc) &&
        !mlirAttributeIsNull(mlirLocationFusedGetMetadata(loc)))
      return true;
  }
  return false;
}

MlirLogicalResult coroLowerToLLVMDialectAtLevel(MlirModule module,
                                                CoroLowerOptions options,
                                                int optLevel) {
  /* -g, or debug info in the input, keeps the source's locations: the
   * trip through LLVM IR would give its functions a second copy of their
   * subprograms and variables (LLVM IR without debug info carries none
   * back, so the trip relocates every op at its function) */
  if (options.route != CoroRouteMLIRSplit || optLevel < 2 ||
      options.debug_info || has_debug_info(module))
    return coroLowerToLLVMDialectWithOptions(module, options);
  /* route A's pipeline is route B's without the split */
  CoroLowerOptions presplit = options;
  presplit.route = CoroRouteLLVM;
  coroRegisterPasses();
  coroSetRoute(module, CoroRouteMLIRSplit);
  if (!abis_supported(module))
    return mlirLogicalResultFailure();
  struct coro_str p = {0};
  coro_pipeline_route(&p, &presplit, NULL);
  MlirLogicalResult ok = run_with_trip(
      module, &p, coro_host_machine(module, optLevel > 3 ? 3 : optLevel),
      "coro-split");
  coro_str_free(&p);
  return ok;
}

/* func.func @name(...) attributes {gpu.kernel} in `into`, made of the
 * gpu.func `gf` (whose body it takes; gpu.return becomes func.return).
 * False after an error at `gf` (attributions, which no func.func has). */
static bool gpu_func_to_func(MlirOperation gf, MlirBlock into) {
  MlirContext ctx = mlirOperationGetContext(gf);
  MlirLocation loc = mlirOperationGetLocation(gf);
  static const char *const attributions[] = {"workgroup_attributions",
                                             "private_attributions"};
  for (size_t i = 0; i < 2; ++i) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        gf, mlirStringRefCreateFromCString(attributions[i]));
    if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) &&
        mlirIntegerAttrGetValueInt(a) != 0) {
      mlirEmitError(loc, "a gpu.func with workgroup or private attributions "
                         "is not supported on coro's device path");
      return false;
    }
  }
  static const char *const kept[] = {"sym_name", "function_type", "arg_attrs",
                                     "res_attrs", "gpu.kernel"};
  MlirNamedAttribute attrs[5];
  intptr_t n = 0;
  for (size_t i = 0; i < 5; ++i) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        gf, mlirStringRefCreateFromCString(kept[i]));
    if (!mlirAttributeIsNull(a))
      attrs[n++] = mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(kept[i])), a);
  }
  MlirRegion body = mlirRegionCreate();
  mlirRegionTakeBody(body, mlirOperationGetRegion(gf, 0));
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&st, n, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  MlirOperation fn = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(into, fn);
  for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
       !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b)) {
    MlirOperation term = mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(term) || !coro_op_named(term, "gpu.return"))
      continue;
    intptr_t nops = mlirOperationGetNumOperands(term);
    MlirValue *ops = ir_xmalloc((size_t)(nops + 1) * sizeof *ops);
    for (intptr_t i = 0; ops && i < nops; ++i)
      ops[i] = mlirOperationGetOperand(term, i);
    MlirOperationState rs =
        mlirOperationStateGet(mlirStringRefCreateFromCString("func.return"),
                              mlirOperationGetLocation(term));
    mlirOperationStateAddOperands(&rs, nops, ops);
    mlirBlockInsertOwnedOperationBefore(b, term, mlirOperationCreate(&rs));
    free(ops);
    mlirOperationDestroy(term);
  }
  mlirOperationDestroy(gf);
  return true;
}

/* MLIR's GPU form: the module's one gpu.module holds the device code. Its
 * ops become the module's own (gpu.func kernels as func.funcs marked
 * gpu.kernel), and the host code around it goes: the device pipeline
 * lowers only device code. More than one gpu.module is an error. */
static bool flatten_gpu_module(MlirModule module) {
  MlirBlock top = mlirModuleGetBody(module);
  MlirOperation gm = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(top);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coro_op_named(op, "gpu.module"))
      continue;
    if (!mlirOperationIsNull(gm)) {
      mlirEmitError(mlirOperationGetLocation(op),
                    "a second gpu.module: coro's device path lowers one "
                    "gpu.module at a time");
      return false;
    }
    gm = op;
  }
  if (mlirOperationIsNull(gm))
    return true;
  /* the host code goes; the device code takes its place */
  for (MlirOperation op = mlirBlockGetFirstOperation(top);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (!mlirOperationEqual(op, gm))
      mlirOperationDestroy(op);
    op = next;
  }
  mlirOperationRemoveFromParent(gm);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (coro_op_named(op, "gpu.func")) {
      mlirOperationRemoveFromParent(op);
      ok &= gpu_func_to_func(op, top);
    } else if (!coro_op_named(op, "gpu.module_end")) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(top, op);
    }
    op = next;
  }
  mlirOperationDestroy(gm);
  MlirOperation m = mlirModuleGetOperation(module);
  mlirOperationRemoveAttributeByName(
      m, mlirStringRefCreateFromCString("gpu.container_module"));
  return ok;
}

MlirLogicalResult coroLowerForDevice(MlirModule module) {
  coroRegisterPasses();
  if (!flatten_gpu_module(module))
    return mlirLogicalResultFailure();
  struct coro_str p = {0};
  coro_pipeline_nvvm(&p);
  MlirLogicalResult ok =
      run_lowering(module, mlirStringRefCreate(p.data, p.len));
  coro_str_free(&p);
  return ok;
}

MlirLogicalResult coroLowerForDeviceAtLevel(MlirModule module, int optLevel,
                                            const char *cpu) {
  if (optLevel < 2) /* -O1 keeps the loops as written (fewer registers) */
    return coroLowerForDevice(module);
  coroRegisterPasses();
  if (!flatten_gpu_module(module))
    return mlirLogicalResultFailure();
  struct coro_str before = {0}, after = {0};
  coro_pipeline_nvvm_presplit(&before);
  coro_pipeline_nvvm_split(&after);
  /* an unknown cpu is coroTranslateForDevice's error to report */
  MlirLogicalResult ok = run_with_trip(
      module, &before,
      coro_nvptx_machine(module, optLevel > 3 ? 3 : optLevel,
                         cpu && coroGPUArchIsValid(cpu) ? cpu : "sm_90"),
      coro_str_cstr(&after));
  coro_str_free(&before);
  coro_str_free(&after);
  return ok;
}

int64_t coroFrameSize(MlirModule module, MlirStringRef coroutine) {
  struct coro_str n = {0};
  coro_str_append(&n, coroutine.data, coroutine.length);
  coro_str_appendz(&n, CORO_FRAME_SIZE_SUFFIX);
  MlirOperation g = coro_lookup_symbol(mlirModuleGetOperation(module),
                                       mlirStringRefCreate(n.data, n.len));
  coro_str_free(&n);
  if (mlirOperationIsNull(g) || !coro_op_named(g, "llvm.mlir.global"))
    return -1;
  MlirAttribute v = mlirOperationGetAttributeByName(
      g, mlirStringRefCreateFromCString("value"));
  return !mlirAttributeIsNull(v) && mlirAttributeIsAInteger(v)
             ? mlirIntegerAttrGetValueInt(v)
             : -1;
}

MlirLogicalResult coroLowerToLLVMDialectWithRoute(MlirModule module,
                                                  CoroRoute route) {
  CoroLowerOptions options = {.route = route};
  return coroLowerToLLVMDialectWithOptions(module, options);
}

MlirLogicalResult coroLowerToLLVMDialect(MlirModule module) {
  return coroLowerToLLVMDialectWithRoute(module, CoroRouteLLVM);
}

MlirPassManager coroPassManagerCreate(MlirContext context) {
  coroRegisterPasses();
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  coroPassManagerEnableImplicitNesting(pm);
  return pm;
}

static MlirPassManager module_pass_manager(MlirModule module) {
  return coroPassManagerCreate(mlirModuleGetContext(module));
}

CoroRoute coroDefaultRoute(void) { return CoroRouteMLIRSplit; }

bool coroLowerConfigRoute(const CoroLowerConfig *config, CoroRoute *route) {
  switch (config ? config->route : CoroLowerRouteDefault) {
  case CoroLowerRouteDefault:
    *route = coroDefaultRoute();
    return true;
  case CoroLowerRouteLLVM:
    *route = CoroRouteLLVM;
    return true;
  case CoroLowerRouteMLIRSplit:
    *route = CoroRouteMLIRSplit;
    return true;
  }
  return false;
}

/* The first thing `c` asks for that does not exist, or NULL. */
static const char *config_error(const CoroLowerConfig *c, CoroRoute route) {
  if (c->opt_level < 0 || c->opt_level > 3)
    return "the optimisation level of a lowering is 0 to 3";
  if (!c->device)
    return NULL;
  if (route != CoroRouteMLIRSplit && c->route != CoroLowerRouteDefault)
    return "a device module lowers by route B only (coro's own split): "
           "route A would need device malloc";
  if (c->checked)
    return "the checked mode is not available for a device module";
  if (c->debug_info)
    return "debug info is not available for a device module";
  return NULL;
}

MlirLogicalResult coroLowerModule(MlirModule module,
                                  const CoroLowerConfig *config) {
  CoroLowerConfig c = config ? *config : (CoroLowerConfig){0};
  CoroRoute route = CoroRouteLLVM;
  const char *why = coroLowerConfigRoute(&c, &route) ? config_error(&c, route)
                                                     : "unknown lowering route";
  if (why) {
    mlirEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                  why);
    return mlirLogicalResultFailure();
  }
  if (c.device)
    return coroLowerForDeviceAtLevel(module, c.opt_level, c.device_cpu);
  CoroLowerOptions options = {route, c.checked, c.debug_info, c.no_elide};
  return coroLowerToLLVMDialectAtLevel(module, options, c.opt_level);
}

MlirLogicalResult coroPassManagerAddPipeline(MlirPassManager pm,
                                             MlirStringRef pipeline,
                                             MlirStringCallback errorCallback,
                                             void *userData) {
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  return coro_ref_starts_with(pipeline, "builtin.module(")
             ? mlirParsePassPipeline(opm, pipeline, errorCallback, userData)
             : mlirOpPassManagerAddPipeline(opm, pipeline, errorCallback,
                                            userData);
}

MlirLogicalResult coroRunPassPipeline(MlirModule module,
                                      MlirStringRef pipeline) {
  return run_pipeline(module, pipeline, true);
}

static MlirLogicalResult run_pipeline(MlirModule module, MlirStringRef pipeline,
                                      bool verify_each) {
  coroRegisterPasses();
  MlirPassManager pm = module_pass_manager(module);
  mlirPassManagerEnableVerifier(pm, verify_each);
  struct coro_str why = {0};
  MlirLogicalResult ok =
      coroPassManagerAddPipeline(pm, pipeline, coro_str_callback, &why);
  if (mlirLogicalResultIsSuccess(ok)) {
    ok = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  } else {
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "invalid pass pipeline '");
    coro_str_append(&msg, pipeline.data, pipeline.length);
    coro_str_appendz(&msg, "': ");
    coro_str_appendz(&msg, why.len ? coro_str_cstr(&why) : "does not parse");
    mlirEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                  coro_str_cstr(&msg));
    coro_str_free(&msg);
  }
  coro_str_free(&why);
  mlirPassManagerDestroy(pm);
  return ok;
}

MlirLogicalResult coroRunPasses(MlirModule module, intptr_t nPasses,
                                const MlirPass *passes) {
  MlirPassManager pm = module_pass_manager(module);
  for (intptr_t i = 0; i < nPasses; ++i)
    mlirPassManagerAddOwnedPass(pm, passes[i]);
  MlirLogicalResult ok =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  return ok;
}
