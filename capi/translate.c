/* translate.c - coro-c/Translate.h: LLVM IR text and host object files
 * through LLVM-C (route A: LLVM's coroutine passes split the coroutines).
 *
 * Each call creates its own LLVM context, module and target machine and
 * disposes of them before returning; nothing outlives a call. Errors are
 * diagnostics at the module's location. */
#include "coro-c/Translate.h"
#include "capi/presplit.h"
#include "capi/vararg_intrinsics.h"
#include "dialect/contract.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Target/LLVMIR.h"
#include "llvm-c/Core.h"
#include "llvm-c/Error.h"
#include "llvm-c/Target.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Transforms/PassBuilder.h"

#include <stdio.h>
#include <string.h>

static void error_at(MlirModule module, const char *what, const char *detail) {
  struct coro_str msg = {0};
  coro_str_appendz(&msg, what);
  if (detail) {
    coro_str_appendz(&msg, ": ");
    coro_str_appendz(&msg, detail);
  }
  mlirEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                coro_str_cstr(&msg));
  coro_str_free(&msg);
}

LLVMTargetMachineRef coro_host_machine(MlirModule module, int opt_level) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  char *triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef target;
  char *err = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    error_at(module, "no LLVM target for the host", err);
    LLVMDisposeMessage(err);
  } else {
    static const LLVMCodeGenOptLevel levels[] = {
        LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault,
        LLVMCodeGenLevelAggressive};
    tm = LLVMCreateTargetMachine(target, triple, "", "", levels[opt_level],
                                 LLVMRelocPIC, LLVMCodeModelDefault);
  }
  LLVMDisposeMessage(triple);
  return tm;
}

bool coro_target_and_run(MlirModule module, LLVMModuleRef m,
                         LLVMTargetMachineRef tm, const char *passes) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, dl);
  LLVMDisposeTargetData(dl);
  if (!passes)
    return true;
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(m, passes, tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (!err)
    return true;
  char *msg = LLVMGetErrorMessage(err);
  error_at(module, "LLVM pipeline failed", msg);
  LLVMDisposeErrorMessage(msg);
  return false;
}

LLVMModuleRef coro_translate_for_target(MlirOperation op, LLVMContextRef llctx,
                                        LLVMTargetMachineRef tm) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirRegisterAllLLVMTranslations(ctx);
  if (!coro_vararg_intrinsics_to_calls(op))
    return NULL;
  MlirStringRef name = mlirStringRefCreateFromCString("llvm.data_layout");
  bool own = mlirAttributeIsNull(
                 mlirOperationGetDiscardableAttributeByName(op, name)) &&
             mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
                 op, mlirStringRefCreateFromCString("dlti.dl_spec")));
  if (own) {
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    char *text = LLVMCopyStringRepOfTargetData(dl);
    mlirOperationSetDiscardableAttributeByName(
        op, name, mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(text)));
    LLVMDisposeMessage(text);
    LLVMDisposeTargetData(dl);
  }
  LLVMModuleRef m = mlirTranslateModuleToLLVMIR(op, llctx);
  if (own)
    mlirOperationRemoveDiscardableAttributeByName(op, name);
  return m;
}

/* The calls of CORO_OUTSIDE_FRAME_MARKER the LLVM IR import made become
 * the `!coro.outside.frame` of their allocas again, for LLVM's CoroSplit
 * (dialect/contract.h). */
static void restore_outside_frame(LLVMModuleRef m, LLVMContextRef llctx) {
  LLVMValueRef marker = LLVMGetNamedFunction(m, CORO_OUTSIDE_FRAME_MARKER);
  if (!marker)
    return;
  static const char kind_name[] = "coro.outside.frame";
  unsigned kind =
      LLVMGetMDKindIDInContext(llctx, kind_name, sizeof kind_name - 1);
  LLVMValueRef empty =
      LLVMMetadataAsValue(llctx, LLVMMDNodeInContext2(llctx, NULL, 0));
  for (LLVMUseRef u = LLVMGetFirstUse(marker); u;) {
    LLVMValueRef call = LLVMGetUser(u);
    u = LLVMGetNextUse(u);
    LLVMValueRef a = LLVMGetOperand(call, 0);
    if (LLVMIsAAllocaInst(a))
      LLVMSetMetadata(a, kind, empty);
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDeleteFunction(marker);
}

/* The translated module, targeted at `tm`'s host, after LLVM's pipeline when
 * `split`. NULL after an error; otherwise the caller disposes of it. */
static LLVMModuleRef translate(MlirModule module, LLVMContextRef llctx,
                               LLVMTargetMachineRef tm, int opt_level,
                               bool split) {
  LLVMModuleRef m =
      coro_translate_for_target(mlirModuleGetOperation(module), llctx, tm);
  if (!m) {
    error_at(module, "translation to LLVM IR failed", NULL);
    return NULL;
  }
  restore_outside_frame(m, llctx);
  char passes[32];
  snprintf(passes, sizeof passes, "default<O%d>", opt_level);
  if (!coro_target_and_run(module, m, tm, split ? passes : NULL)) {
    LLVMDisposeModule(m);
    return NULL;
  }
  return m;
}

/* The NVPTX target machine for `cpu`, or NULL after an error. */
LLVMTargetMachineRef coro_nvptx_machine(MlirModule module, int opt_level,
                                        const char *cpu) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  static const char triple[] = "nvptx64-nvidia-cuda";
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    error_at(module, "no LLVM target for nvptx64-nvidia-cuda", err);
    LLVMDisposeMessage(err);
    return NULL;
  }
  static const LLVMCodeGenOptLevel levels[] = {
      LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault,
      LLVMCodeGenLevelAggressive};
  return LLVMCreateTargetMachine(target, triple, cpu, "", levels[opt_level],
                                 LLVMRelocDefault, LLVMCodeModelDefault);
}

static bool check_level(MlirModule module, int opt_level) {
  if (opt_level >= 0 && opt_level <= 3)
    return true;
  error_at(module, "optimization level must be 0, 1, 2 or 3", NULL);
  return false;
}

MlirLogicalResult coroTranslateToLLVMIR(MlirModule module, int optLevel,
                                        bool split, MlirStringCallback callback,
                                        void *userData) {
  if (!check_level(module, optLevel))
    return mlirLogicalResultFailure();
  LLVMTargetMachineRef tm = coro_host_machine(module, optLevel);
  if (!tm)
    return mlirLogicalResultFailure();
  LLVMContextRef llctx = LLVMContextCreate();
  LLVMModuleRef m = translate(module, llctx, tm, optLevel, split);
  if (m) {
    char *text = LLVMPrintModuleToString(m);
    callback(mlirStringRefCreate(text, strlen(text)), userData);
    LLVMDisposeMessage(text);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(llctx);
  LLVMDisposeTargetMachine(tm);
  return m ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static bool write_file(MlirModule module, const char *path, const char *data,
                       size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    error_at(module, "could not open the object file", path);
    return false;
  }
  bool ok = fwrite(data, 1, len, f) == len;
  ok &= fclose(f) == 0;
  if (!ok)
    error_at(module, "could not write the object file", path);
  return ok;
}

MlirLogicalResult coroEmitObjectFile(MlirModule module, int optLevel,
                                     const char *path) {
  if (!check_level(module, optLevel))
    return mlirLogicalResultFailure();
  LLVMTargetMachineRef tm = coro_host_machine(module, optLevel);
  if (!tm)
    return mlirLogicalResultFailure();
  LLVMContextRef llctx = LLVMContextCreate();
  LLVMModuleRef m = translate(module, llctx, tm, optLevel, true);
  bool ok = false;
  if (m) {
    char *err = NULL;
    LLVMMemoryBufferRef buf;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err,
                                            &buf)) {
      error_at(module, "code generation failed", err);
      LLVMDisposeMessage(err);
    } else {
      ok = write_file(module, path, LLVMGetBufferStart(buf),
                      LLVMGetBufferSize(buf));
      LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(llctx);
  LLVMDisposeTargetMachine(tm);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

bool coroGPUArchIsValid(const char *cpu) {
  if (strncmp(cpu, "sm_", 3) || cpu[3] < '0' || cpu[3] > '9')
    return false;
  for (const char *c = cpu + 3; *c; ++c)
    if ((*c < '0' || *c > '9') && !(c[1] == 0 && (*c == 'a' || *c == 'f')))
      return false;
  return true;
}

MlirLogicalResult coroTranslateForDevice(MlirModule module, int optLevel,
                                         const char *cpu, bool ptx,
                                         MlirStringCallback callback,
                                         void *userData) {
  if (!check_level(module, optLevel))
    return mlirLogicalResultFailure();
  LLVMTargetMachineRef tm = coro_nvptx_machine(module, optLevel, cpu);
  if (!tm)
    return mlirLogicalResultFailure();
  if (!coroGPUArchIsValid(cpu)) {
    error_at(module, "unknown GPU architecture (expected sm_NN, e.g. sm_90)",
             cpu);
    LLVMDisposeTargetMachine(tm);
    return mlirLogicalResultFailure();
  }
  LLVMContextRef llctx = LLVMContextCreate();
  LLVMModuleRef m =
      coro_translate_for_target(mlirModuleGetOperation(module), llctx, tm);
  bool ok = m != NULL;
  if (!m)
    error_at(module, "translation to LLVM IR failed", NULL);
  if (ok) {
    struct coro_str passes = {0};
    char level[32];
    snprintf(level, sizeof level, "default<O%d>", optLevel);
    if (optLevel >= 2) { /* the split coroutines' callers revisited */
      coro_str_appendz(&passes, coro_presplit_pipeline);
      coro_str_appendz(&passes, ",");
    }
    coro_str_appendz(&passes,
                     optLevel ? level : "function(simplifycfg),globaldce");
    ok = coro_target_and_run(module, m, tm, coro_str_cstr(&passes));
    coro_str_free(&passes);
  }
  if (ok && !ptx) {
    char *text = LLVMPrintModuleToString(m);
    callback(mlirStringRefCreate(text, strlen(text)), userData);
    LLVMDisposeMessage(text);
  } else if (ok) {
    char *err = NULL;
    LLVMMemoryBufferRef buf;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &err,
                                            &buf)) {
      error_at(module, "PTX code generation failed", err);
      LLVMDisposeMessage(err);
      ok = false;
    } else {
      callback(
          mlirStringRefCreate(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf)),
          userData);
      LLVMDisposeMemoryBuffer(buf);
    }
  }
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(llctx);
  LLVMDisposeTargetMachine(tm);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
