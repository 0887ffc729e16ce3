/* coro-translate - lower a coro program to LLVM IR or an object file
 * (route A: LLVM's own coroutine passes split the coroutines).
 *
 *   coro-translate FILE --emit=llvm|split-llvm|obj [-O0..-O3] [-o OUT]
 *
 *   llvm        the translated module before any LLVM pass: coroutines are
 *               still `presplitcoroutine` functions with coro intrinsics
 *   split-llvm  after LLVM's `default<ON>` pipeline (which contains
 *               CoroEarly, CoroSplit, CoroElide/CoroAnnotationElide and
 *               CoroCleanup): ramp, .resume, .destroy and .cleanup functions
 *   obj         the same, compiled for the host to an object file
 *
 * The lowering to the LLVM dialect is coro-run's (tools/coro-run/lower.c).
 * Errors are `file:line:col: error: ...` or `coro-translate: error: ...` on
 * stderr, exit status 1. */
#include "coro-c/Coro.h"
#include "tools/common/driver.h"
#include "tools/coro-run/lower.h"

#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Target/LLVMIR.h"
#include "llvm-c/Core.h"
#include "llvm-c/Error.h"
#include "llvm-c/Target.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Transforms/PassBuilder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *tool = "coro-translate";

enum emit { EMIT_NONE, EMIT_LLVM, EMIT_SPLIT_LLVM, EMIT_OBJ };

struct options {
  const char *input, *output;
  enum emit emit;
  int opt_level;
  enum coro_route route;
};

static void usage(void) {
  printf("OVERVIEW: coro-translate - lower a coro program to LLVM IR or an "
         "object\n\n"
         "USAGE: coro-translate FILE --emit=llvm|split-llvm|obj [-O0..-O3] "
         "[-o OUT]\n\n"
         "  --emit=llvm        LLVM IR before LLVM's coroutine passes\n"
         "  --emit=split-llvm  LLVM IR after default<ON> (coroutines split)\n"
         "  --emit=obj         host object file after default<ON>\n"
         "  -O0 .. -O3         LLVM optimization level (default -O0)\n"
         "  -o <file>          output (default stdout)\n");
}

static int parse_args(int argc, char **argv, struct options *o) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-o")) {
      if (++i == argc) {
        fprintf(stderr, "%s: error: -o needs a file name\n", tool);
        return 1;
      }
      o->output = argv[i];
    } else if (a[0] != '-' || !strcmp(a, "-")) {
      if (o->input) {
        fprintf(stderr, "%s: error: more than one input file\n", tool);
        return 1;
      }
      o->input = a;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      return 2;
    } else if (!strcmp(a, "--emit=llvm")) {
      o->emit = EMIT_LLVM;
    } else if (!strcmp(a, "--emit=split-llvm")) {
      o->emit = EMIT_SPLIT_LLVM;
    } else if (!strcmp(a, "--emit=obj")) {
      o->emit = EMIT_OBJ;
    } else if (!strncmp(a, "--emit=", 7)) {
      fprintf(stderr,
              "%s: error: unsupported --emit value '%s' (expected llvm, "
              "split-llvm or obj)\n",
              tool, a + 7);
      return 1;
    } else if (a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      o->opt_level = a[2] - '0';
    } else if (!strncmp(a, "--route=", 8)) {
      if (!coro_route_parse(a + 8, &o->route)) {
        fprintf(stderr, "%s: error: unknown route '%s'\n", tool, a + 8);
        return 1;
      }
    } else {
      fprintf(stderr, "%s: error: unknown option '%s'\n", tool, a);
      return 1;
    }
  }
  if (o->emit == EMIT_NONE) {
    fprintf(stderr, "%s: error: --emit=llvm|split-llvm|obj is required\n",
            tool);
    return 1;
  }
  if (!o->input)
    o->input = "-";
  return 0;
}

static bool report(LLVMErrorRef err, const char *what) {
  if (!err)
    return true;
  char *msg = LLVMGetErrorMessage(err);
  fprintf(stderr, "%s: error: %s: %s\n", tool, what, msg);
  LLVMDisposeErrorMessage(msg);
  return false;
}

static LLVMTargetMachineRef host_machine(int opt_level) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  char *triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef target;
  char *err = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    fprintf(stderr, "%s: error: no target for '%s': %s\n", tool, triple, err);
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

static bool write_bytes(const char *path, const char *data, size_t len) {
  FILE *f = (!path || !strcmp(path, "-")) ? stdout : fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "%s: error: could not open '%s'\n", tool, path);
    return false;
  }
  bool ok = fwrite(data, 1, len, f) == len;
  ok &= fflush(f) == 0;
  if (f != stdout)
    ok &= fclose(f) == 0;
  if (!ok)
    fprintf(stderr, "%s: error: could not write '%s'\n", tool,
            path ? path : "-");
  return ok;
}

/* Runs LLVM's pipeline on `m` and writes what was asked for. */
static bool emit_llvm(LLVMModuleRef m, const struct options *o) {
  LLVMTargetMachineRef tm = host_machine(o->opt_level);
  if (!tm)
    return false;
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, dl);
  LLVMDisposeTargetData(dl);
  bool ok = true;
  if (o->emit != EMIT_LLVM) {
    char passes[32];
    snprintf(passes, sizeof passes, "default<O%d>", o->opt_level);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    ok = report(LLVMRunPasses(m, passes, tm, opts), "LLVM pipeline failed");
    LLVMDisposePassBuilderOptions(opts);
  }
  if (ok && o->emit == EMIT_OBJ) {
    char *err = NULL;
    LLVMMemoryBufferRef buf;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err,
                                            &buf)) {
      fprintf(stderr, "%s: error: code generation failed: %s\n", tool, err);
      LLVMDisposeMessage(err);
      ok = false;
    } else {
      ok = write_bytes(o->output, LLVMGetBufferStart(buf),
                       LLVMGetBufferSize(buf));
      LLVMDisposeMemoryBuffer(buf);
    }
  } else if (ok) {
    char *text = LLVMPrintModuleToString(m);
    ok = write_bytes(o->output, text, strlen(text));
    LLVMDisposeMessage(text);
  }
  LLVMDisposeTargetMachine(tm);
  return ok;
}

static int run(void *data) {
  const struct options *o = data;
  struct drv_input in;
  if (!drv_input_open(tool, o->input, &in))
    return 1;
  bool ok = false;
  const char *why = NULL;
  if (!mlirModuleIsNull(in.module) &&
      coro_lower_module(in.module, o->route, &why)) {
    mlirRegisterAllLLVMTranslations(in.ctx);
    LLVMContextRef llctx = LLVMContextCreate();
    LLVMModuleRef m =
        mlirTranslateModuleToLLVMIR(mlirModuleGetOperation(in.module), llctx);
    if (!m) {
      drv_diags_print(&in.diags);
      fprintf(stderr, "%s: error: translation to LLVM IR failed\n", tool);
    } else {
      ok = emit_llvm(m, o);
      LLVMDisposeModule(m);
    }
    LLVMContextDispose(llctx);
  }
  drv_diags_print(&in.diags);
  if (why)
    fprintf(stderr, "%s: error: %s\n", tool, why);
  drv_input_close(&in);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  struct options o = {0};
  int args = parse_args(argc, argv, &o);
  if (args == 2) {
    usage();
    return 0;
  }
  if (args)
    return 1;
  drv_install_fatal_error_handler(tool);
  return drv_run_with_big_stack(run, &o);
}
