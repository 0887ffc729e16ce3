/* coro-fuzz - libFuzzer harness over what coro-opt does on load, and the
 * lowering of coro-run by both routes.
 *
 * Each input goes the way of `coro-opt --split-input-file`: split on
 * `// -----` (LLVM IR whole: bitcode, or text that starts as only LLVM IR
 * does), each chunk parsed with drv_parse (the nesting pre-scan, the
 * bytecode and LLVM IR children, the implicit module), verified by
 * coroVerify, printed, lowered to the LLVM dialect by every ABI's
 * conversion (coroLowerToLLVMDialect) when it verifies, and by route B (the
 * same and --coro-split) on a copy, at -O0 and at -O2 (LLVM's pre-split
 * trip first), and, when it holds device code (a
 * gpu.kernel or a gpu.module), by the GPU path (coroLowerForDevice) on
 * another, and its diagnostics matched against its expected-* annotations
 * as --verify-diagnostics does. A fresh context per input, so inputs cannot
 * affect each other; the work runs on drv_run_with_big_stack's stack like
 * the tools. Crashes, sanitizer reports and aborts are findings; errors are
 * not. A reader's child process that crashes is no finding (the tools
 * report it as an error; the child dies by the signal's default action, so
 * libFuzzer's handler writes no crash-* file for it). Run: coro-fuzz CORPUS_DIR SEED_DIR...
 * [-max_total_time=N]. */
#include "coro-c/Coro.h"
#include "tools/common/alloc.h"
#include "tools/common/driver.h"

#include "llvm-c/ErrorHandling.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct input {
  const uint8_t *data;
  size_t size;
};

static void discard(MlirStringRef s, void *user) {
  size_t *n = user;
  *n += s.length;
}

/* Whether the module holds device code: a top-level op with the unit
 * attribute gpu.kernel, or a gpu.module (what coroLowerForDevice lowers). */
static bool device_code(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                           mlirStringRefCreateFromCString("gpu.module")) ||
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(
            op, mlirStringRefCreateFromCString("gpu.kernel"))))
      return true;
  }
  return false;
}

/* Whether the input reads as textual LLVM IR: its first line a comment
 * (';', which starts no MLIR) or a top-level entity only LLVM IR has. */
static bool llvm_ir_text(const uint8_t *data, size_t size) {
  static const char *const starts[] = {";", "define ", "declare ",
                                       "source_filename", "target "};
  for (size_t i = 0; i < sizeof starts / sizeof *starts; ++i) {
    size_t n = strlen(starts[i]);
    if (size >= n && memcmp(data, starts[i], n) == 0)
      return true;
  }
  return false;
}

static int one_input(void *arg) {
  const struct input *in = arg;
  /* LLVM IR (bitcode by its magic, text by llvm_ir_text) takes the tools'
   * LLVM IR path, which drv_parse picks by the name's extension */
  const char *name =
      llvm_ir_text(in->data, in->size) ? "fuzz-input.ll" : "fuzz-input";
  struct drv_source src = {name, drv_xmalloc(in->size + 1), in->size};
  memcpy(src.data, in->data, in->size);
  src.data[in->size] = '\0';

  MlirContext ctx = mlirContextCreateWithThreading(false);
  struct drv_diags diags = {.file_name = src.name};
  MlirDiagnosticHandlerID handler = drv_diags_attach(ctx, &diags);
  if (mlirLogicalResultIsSuccess(coroDialectLoad(ctx))) {
    struct drv_chunk *chunks = NULL;
    /* LLVM IR is never split (drv_parse_op takes it whole) */
    size_t n = drv_is_llvm_ir(src.name, src.data, src.len)
                   ? drv_split(&src, NULL, &chunks)
                   : drv_split(&src, "// -----", &chunks);
    for (size_t i = 0; i < n; ++i) {
      MlirModule module = drv_parse(ctx, src.name, &chunks[i], &diags);
      if (!mlirModuleIsNull(module)) {
        MlirOperation op = mlirModuleGetOperation(module);
        if (mlirLogicalResultIsSuccess(coroVerify(op))) {
          size_t printed = 0;
          mlirOperationPrint(op, discard, &printed);
          /* Then what coro-run does before LLVM, by both routes: every
           * ABI's conversion and the upstream lowering to the LLVM
           * dialect, then (route B, on a copy) coro's own --coro-split,
           * which also splits coroutines written in the LLVM dialect. */
          MlirModule b = mlirModuleFromOperation(mlirOperationClone(op));
          CoroLowerConfig route_a = {.route = CoroLowerRouteLLVM};
          CoroLowerConfig route_b = {.route = CoroLowerRouteMLIRSplit};
          if (mlirLogicalResultIsSuccess(coroLowerModule(module, &route_a)))
            mlirOperationPrint(op, discard, &printed);
          if (mlirLogicalResultIsSuccess(coroLowerModule(b, &route_b)))
            mlirOperationPrint(mlirModuleGetOperation(b), discard, &printed);
          mlirModuleDestroy(b);
          /* route B at -O2: LLVM's pre-split passes on a round trip
           * through LLVM IR (with its line tables) before the split */
          MlirModule b2 = mlirModuleFromOperation(mlirOperationClone(op));
          CoroLowerConfig route_b2 = {.route = CoroLowerRouteMLIRSplit,
                                      .opt_level = 2};
          if (mlirLogicalResultIsSuccess(coroLowerModule(b2, &route_b2)))
            mlirOperationPrint(mlirModuleGetOperation(b2), discard, &printed);
          mlirModuleDestroy(b2);
          /* and, for a device module, the GPU path's lowering */
          if (device_code(op)) {
            MlirModule d = mlirModuleFromOperation(mlirOperationClone(op));
            CoroLowerConfig device = {.device = true};
            if (mlirLogicalResultIsSuccess(coroLowerModule(d, &device)))
              mlirOperationPrint(mlirModuleGetOperation(d), discard, &printed);
            mlirModuleDestroy(d);
          }
        }
        mlirModuleDestroy(module);
      }
      drv_verify_expected(src.name, &chunks[i], &diags);
      drv_diags_clear(&diags);
    }
    free(chunks);
  }
  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  drv_diags_clear(&diags);
  free(diags.items);
  drv_source_free(&src);
  return 0;
}

static void on_fatal_error(const char *reason) {
  /* A fatal error is a finding: let libFuzzer see it as a crash. */
  fprintf(stderr, "coro-fuzz: LLVM fatal error: %s\n", reason);
  abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  coroRegisterPasses();
  drv_set_tool_name("coro-fuzz");
  LLVMInstallFatalErrorHandler(on_fatal_error);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct input in = {data, size};
  drv_run_with_big_stack(one_input, &in);
  return 0;
}
