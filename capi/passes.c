/* passes.c - every coro pass and named pipeline, and their registration.
 *
 * A pass is a row of `coro_passes`: its flag, a description, the op it is
 * anchored on ("" for any op) and a run function that reports failure with
 * located diagnostics. The rows are static and immutable, so a pass object's
 * user data is its row: cloning a pass (the pass manager does, per thread)
 * copies nothing. Named pipelines are textual pipelines in `coro_pipelines`.
 * This file is the one place that lists them all. */
#include "coro-c/Passes.h"
#include "capi/pipelines.h"
#include "conversion/CoroToLLVMAsync/convert_coro_to_llvm_async.h"
#include "conversion/CoroToLLVMRetcon/convert_coro_to_llvm_retcon.h"
#include "conversion/CoroToLLVMSwitch/convert_coro_to_llvm_switch.h"
#include "dialect/verify.h"

#include "mlir-c/RegisterEverything.h"

#include <stddef.h>

struct coro_pass_info {
  const char *argument;    /* the flag, e.g. "coro-verify" */
  const char *name;        /* the pass's class-like name */
  const char *description; /* one line, for --help */
  const char *anchor;      /* op name the pass runs on; "" for any */
  MlirLogicalResult (*run)(MlirOperation op);
};

struct coro_pipeline_info {
  const char *argument;
  const char *description;
  const char *elements; /* textual pipeline, e.g. "coro-verify,cse" */
};

static const struct coro_pass_info coro_passes[] = {
    {"coro-verify", "CoroVerify",
     "Check coroutines and coro ops against the dialect's rules", "",
     coro_verify_run},
    {"convert-coro-to-llvm-switch", "ConvertCoroToLLVMSwitch",
     "Lower switch-ABI coroutines and consumer ops to LLVM coroutine "
     "intrinsics",
     "builtin.module", coro_convert_to_llvm_switch_run},
    {"convert-coro-to-llvm-retcon", "ConvertCoroToLLVMRetcon",
     "Lower retcon-ABI coroutines and consumer ops to LLVM's "
     "returned-continuation intrinsics",
     "builtin.module", coro_convert_to_llvm_retcon_run},
    {"convert-coro-to-llvm-retcon-once", "ConvertCoroToLLVMRetconOnce",
     "Lower retcon.once-ABI coroutines and consumer ops to LLVM's "
     "yield-once intrinsics",
     "builtin.module", coro_convert_to_llvm_retcon_once_run},
    {"convert-coro-to-llvm-async", "ConvertCoroToLLVMAsync",
     "Lower async-ABI coroutines and consumer ops to LLVM's async coroutine "
     "intrinsics",
     "builtin.module", coro_convert_to_llvm_async_run},
};
enum { num_coro_passes = sizeof(coro_passes) / sizeof(coro_passes[0]) };

static const struct coro_pipeline_info coro_pipelines[] = {
    {"coro-lower-switch",
     "Verify and lower switch coroutines, and everything else, to the LLVM "
     "dialect",
     CORO_PIPELINE_HEAD "convert-coro-to-llvm-switch," CORO_PIPELINE_TAIL},
    {"coro-lower-retcon",
     "Verify and lower retcon coroutines, and everything else, to the LLVM "
     "dialect",
     CORO_PIPELINE_HEAD "convert-coro-to-llvm-retcon," CORO_PIPELINE_TAIL},
    {"coro-lower-retcon-once",
     "Verify and lower retcon.once coroutines, and everything else, to the "
     "LLVM dialect",
     CORO_PIPELINE_HEAD "convert-coro-to-llvm-retcon-once," CORO_PIPELINE_TAIL},
    {"coro-lower-async",
     "Verify and lower async coroutines, and everything else, to the LLVM "
     "dialect",
     CORO_PIPELINE_HEAD "convert-coro-to-llvm-async," CORO_PIPELINE_TAIL},
    {NULL, NULL, NULL}};

static void pass_construct(void *userData) {}
static void pass_destruct(void *userData) {}
static void *pass_clone(void *userData) { return userData; }

static void pass_run(MlirOperation op, MlirExternalPass pass, void *userData) {
  const struct coro_pass_info *info = userData;
  if (mlirLogicalResultIsFailure(info->run(op)))
    mlirExternalPassSignalFailure(pass);
}

static MlirPass create_pass(const struct coro_pass_info *info) {
  MlirExternalPassCallbacks callbacks = {
      .construct = pass_construct,
      .destruct = pass_destruct,
      .initialize = NULL,
      .clone = pass_clone,
      .run = pass_run,
  };
  /* The row's address is unique per pass and suitably aligned: it is the
   * pass's TypeID. */
  return mlirCreateExternalPass(
      mlirTypeIDCreate(info), mlirStringRefCreateFromCString(info->name),
      mlirStringRefCreateFromCString(info->argument),
      mlirStringRefCreateFromCString(info->description),
      mlirStringRefCreateFromCString(info->anchor), 0, NULL, callbacks,
      (void *)info);
}

MlirPass coroCreateVerifyPass(void) { return create_pass(&coro_passes[0]); }

MlirPass coroCreateConvertCoroToLLVMSwitchPass(void) {
  return create_pass(&coro_passes[1]);
}

MlirPass coroCreateConvertCoroToLLVMRetconPass(void) {
  return create_pass(&coro_passes[2]);
}

MlirPass coroCreateConvertCoroToLLVMRetconOncePass(void) {
  return create_pass(&coro_passes[3]);
}

MlirPass coroCreateConvertCoroToLLVMAsyncPass(void) {
  return create_pass(&coro_passes[4]);
}

MlirLogicalResult coroVerify(MlirOperation op) { return coro_verify_run(op); }

/* The registry stores an allocator function per pass, with no user data:
 * one trampoline per row. */
#define CORO_PASS_CREATOR(i)                                                   \
  static MlirPass create_pass_##i(void) { return create_pass(&coro_passes[i]); }
CORO_PASS_CREATOR(0)
CORO_PASS_CREATOR(1)
CORO_PASS_CREATOR(2)
CORO_PASS_CREATOR(3)
CORO_PASS_CREATOR(4)
static MlirPass (*const pass_creators[num_coro_passes])(void) = {
    create_pass_0, create_pass_1, create_pass_2, create_pass_3, create_pass_4,
};

/* Defined in registry.cpp. */
bool coro_registry_has(const char *argument);
void coro_registry_add_pass(MlirPass (*create)(void));
void coro_registry_add_pipeline(const char *argument, const char *description,
                                const char *elements);

void coroRegisterPasses(void) {
  /* The registry is global; whether our first pass is in it tells whether
   * this ran before (in this process, from any caller). */
  if (coro_registry_has(coro_passes[0].argument))
    return;
  mlirRegisterAllPasses();
  for (size_t i = 0; i < num_coro_passes; ++i)
    coro_registry_add_pass(pass_creators[i]);
  for (const struct coro_pipeline_info *p = coro_pipelines; p->argument; ++p)
    coro_registry_add_pipeline(p->argument, p->description, p->elements);
}

void coroForEachPass(void (*callback)(MlirStringRef, MlirStringRef, void *),
                     void *userData) {
  for (size_t i = 0; i < num_coro_passes; ++i)
    callback(mlirStringRefCreateFromCString(coro_passes[i].argument),
             mlirStringRefCreateFromCString(coro_passes[i].description),
             userData);
  for (const struct coro_pipeline_info *p = coro_pipelines; p->argument; ++p)
    callback(mlirStringRefCreateFromCString(p->argument),
             mlirStringRefCreateFromCString(p->description), userData);
}
