/* lowering.c - coro-c/Lowering.h: the lowering to the LLVM dialect that
 * coro-run, coro-translate and embedders share, and pipelines run from text
 * or from pass objects.
 *
 * The whole lowering reads straight down in coroLowerToLLVMDialect. Every
 * failure is reported as a diagnostic on the module's context; strings built
 * here are owned by a `struct coro_str` freed before returning. */
#include "coro-c/Lowering.h"
#include "capi/pipelines.h"
#include "coro-c/Dialect.h"
#include "coro-c/Passes.h"
#include "dialect/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>
#include <string.h>

static const char abi_prefix[] = "convert-coro-to-llvm-";

/* The conversion's flag for `abi`: "retcon.once" -> the prefix followed by
 * "retcon-once". Owned by the result. */
static struct coro_str conversion_for(MlirStringRef abi) {
  struct coro_str s = {0};
  coro_str_appendz(&s, abi_prefix);
  size_t start = s.len;
  coro_str_append(&s, abi.data, abi.length);
  for (size_t i = start; i < s.len; ++i)
    if (s.data[i] == '.')
      s.data[i] = '-';
  return s;
}

struct find_pass {
  const char *name;
  bool found;
};

static void find_cb(MlirStringRef arg, MlirStringRef desc, void *user) {
  struct find_pass *f = user;
  f->found |= coro_ref_eq(arg, f->name);
}

bool coroABIIsSupported(MlirStringRef abi) {
  if (!abi.length)
    return false;
  struct coro_str pass = conversion_for(abi);
  struct find_pass f = {coro_str_cstr(&pass), false};
  coroForEachPass(find_cb, &f);
  coro_str_free(&pass);
  return f.found;
}

/* Collects every ABI conversion `convert-coro-to-llvm-<abi>`, each followed
 * by a comma. */
static void add_abi_conversion(MlirStringRef arg, MlirStringRef desc,
                               void *user) {
  if (arg.length > sizeof abi_prefix - 1 &&
      coro_ref_starts_with(arg, abi_prefix)) {
    coro_str_append(user, arg.data, arg.length);
    coro_str_appendz(user, ",");
  }
}

/* Emits an error at every coroutine whose ABI has no registered conversion
 * (`coro.abi = "retcon.once"` needs `convert-coro-to-llvm-retcon-once`). */
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
    struct coro_str pass = conversion_for(abi);
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "coroutines with coro.abi = \"");
    coro_str_append(&msg, abi.data, abi.length);
    coro_str_appendz(&msg, "\" cannot be lowered yet: no ");
    coro_str_appendz(&msg, coro_str_cstr(&pass));
    coro_str_appendz(&msg, " pass is registered");
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    coro_str_free(&pass);
    ok = false;
  }
  return ok;
}

MlirLogicalResult coroLowerToLLVMDialect(MlirModule module) {
  coroRegisterPasses();
  if (!abis_supported(module))
    return mlirLogicalResultFailure();
  struct coro_str p = {0};
  coro_str_appendz(&p, CORO_PIPELINE_HEAD);
  coroForEachPass(add_abi_conversion, &p);
  coro_str_appendz(&p, CORO_PIPELINE_TAIL);
  MlirLogicalResult ok =
      coroRunPassPipeline(module, mlirStringRefCreate(p.data, p.len));
  coro_str_free(&p);
  return ok;
}

static MlirPassManager module_pass_manager(MlirModule module) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      mlirModuleGetContext(module),
      mlirStringRefCreateFromCString("builtin.module"));
  coroPassManagerEnableImplicitNesting(pm);
  return pm;
}

MlirLogicalResult coroRunPassPipeline(MlirModule module,
                                      MlirStringRef pipeline) {
  coroRegisterPasses();
  MlirPassManager pm = module_pass_manager(module);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  struct coro_str why = {0};
  MlirLogicalResult ok =
      coro_ref_starts_with(pipeline, "builtin.module(")
          ? mlirParsePassPipeline(opm, pipeline, coro_str_callback, &why)
          : mlirOpPassManagerAddPipeline(opm, pipeline, coro_str_callback,
                                         &why);
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
