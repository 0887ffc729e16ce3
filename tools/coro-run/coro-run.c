/* coro-run - lower a coro program and JIT-run its entry function.
 *
 *   coro-run FILE [--entry=main] [-O0|-O1|-O2|-O3] [--route=llvm|mlir-split]
 *
 * The file is parsed and verified, every coroutine is lowered to the LLVM
 * dialect (lower.c), MLIR's ExecutionEngine translates it and runs LLVM's
 * pipeline, including the coroutine passes, and the entry function (no
 * arguments; result i1, i8, i16, i32, i64, index, f32, f64 or none) is
 * called. Its result is printed on stdout, in decimal. The entry runs on a
 * thread with an 8 MiB stack, an ordinary main-thread size, so programs that
 * claim O(1) stack (symmetric transfer) are checked by running them.
 * Any failure: `file:line:col: error: ...` (or `coro-run: error: ...`) on
 * stderr and exit status 1. */
#include "coro-c/Coro.h"
#include "tools/common/driver.h"
#include "tools/coro-run/lower.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/RegisterEverything.h"
#include "llvm-c/ErrorHandling.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *tool = "coro-run";

enum { ENTRY_STACK_SIZE = 8 << 20 };

struct options {
  const char *input;
  const char *entry;
  int opt_level;
  enum coro_route route;
};

/* The C signature the entry is called with. */
enum result_kind { R_NONE, R_I1, R_I8, R_I16, R_I32, R_I64, R_F32, R_F64 };

static void usage(void) {
  printf("OVERVIEW: coro-run - lower a coro program and JIT-run it\n\n"
         "USAGE: coro-run FILE [--entry=main] [-O0..-O3] [--route=llvm]\n\n"
         "  --entry=<name>   function to call (no arguments; default main)\n"
         "  -O0 .. -O3       LLVM optimization level (default -O0)\n"
         "  --route=llvm     lower through LLVM's coroutine passes (default)\n"
         "  --route=mlir-split  through coro-split (not available yet)\n");
}

/* Returns 0 to go on, 1 for a usage error, 2 for --help. */
static int parse_args(int argc, char **argv, struct options *o) {
  o->entry = "main";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (a[0] != '-' || !strcmp(a, "-")) {
      if (o->input) {
        fprintf(stderr, "%s: error: more than one input file\n", tool);
        return 1;
      }
      o->input = a;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      return 2;
    } else if (!strncmp(a, "--entry=", 8) && a[8]) {
      o->entry = a + 8;
    } else if (a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      o->opt_level = a[2] - '0';
    } else if (!strncmp(a, "--route=", 8)) {
      if (!coro_route_parse(a + 8, &o->route)) {
        fprintf(stderr,
                "%s: error: unknown route '%s' (expected llvm or "
                "mlir-split)\n",
                tool, a + 8);
        return 1;
      }
    } else {
      fprintf(stderr, "%s: error: unknown option '%s'\n", tool, a);
      return 1;
    }
  }
  if (!o->input)
    o->input = "-";
  return 0;
}

static MlirOperation find_symbol(MlirModule module, const char *name) {
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym))
      continue;
    MlirStringRef s = mlirStringAttrGetValue(sym);
    if (s.length == strlen(name) && !memcmp(s.data, name, s.length))
      return op;
  }
  return (MlirOperation){NULL};
}

static bool kind_of(MlirType t, enum result_kind *k) {
  if (mlirTypeIsAIndex(t)) {
    *k = R_I64;
    return true;
  }
  if (mlirTypeIsAInteger(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1:
      *k = R_I1;
      return true;
    case 8:
      *k = R_I8;
      return true;
    case 16:
      *k = R_I16;
      return true;
    case 32:
      *k = R_I32;
      return true;
    case 64:
      *k = R_I64;
      return true;
    default:
      return false;
    }
  }
  if (mlirTypeIsAF32(t)) {
    *k = R_F32;
    return true;
  }
  if (mlirTypeIsAF64(t)) {
    *k = R_F64;
    return true;
  }
  return false;
}

/* Finds the entry and the C signature to call it with; emits a located
 * error and returns false when it cannot be called. */
static bool entry_kind(MlirModule module, const char *file, const char *entry,
                       enum result_kind *kind) {
  MlirOperation f = find_symbol(module, entry);
  char msg[256];
  if (mlirOperationIsNull(f)) {
    snprintf(msg, sizeof msg, "no entry function '@%s' in the module", entry);
    mlirEmitError(
        mlirLocationFileLineColGet(mlirModuleGetContext(module),
                                   mlirStringRefCreateFromCString(file), 1, 1),
        msg);
    return false;
  }
  MlirAttribute ft = mlirOperationGetAttributeByName(
      f, mlirStringRefCreateFromCString("function_type"));
  MlirType ty =
      mlirAttributeIsNull(ft) ? (MlirType){NULL} : mlirTypeAttrGetValue(ft);
  intptr_t nin = -1, nres = 0;
  MlirType res = {NULL};
  if (!mlirTypeIsNull(ty) && mlirTypeIsAFunction(ty)) {
    nin = mlirFunctionTypeGetNumInputs(ty);
    nres = mlirFunctionTypeGetNumResults(ty);
    if (nres == 1)
      res = mlirFunctionTypeGetResult(ty, 0);
  } else if (!mlirTypeIsNull(ty) &&
             mlirIdentifierEqual(
                 mlirOperationGetName(f),
                 mlirIdentifierGet(
                     mlirOperationGetContext(f),
                     mlirStringRefCreateFromCString("llvm.func")))) {
    nin = mlirLLVMFunctionTypeGetNumInputs(ty);
    res = mlirLLVMFunctionTypeGetReturnType(ty);
    nres =
        mlirTypeEqual(res, mlirLLVMVoidTypeGet(mlirTypeGetContext(ty))) ? 0 : 1;
  }
  if (nin < 0) {
    snprintf(msg, sizeof msg, "entry '@%s' is not a function", entry);
    mlirEmitError(mlirOperationGetLocation(f), msg);
    return false;
  }
  if (nin != 0) {
    snprintf(msg, sizeof msg, "entry function '@%s' must take no arguments",
             entry);
    mlirEmitError(mlirOperationGetLocation(f), msg);
    return false;
  }
  if (nres == 0) {
    *kind = R_NONE;
    return true;
  }
  if (nres > 1 || !kind_of(res, kind)) {
    snprintf(msg, sizeof msg,
             "entry function '@%s' must return one i1, i8, i16, i32, i64, "
             "index, f32 or f64, or nothing",
             entry);
    mlirEmitError(mlirOperationGetLocation(f), msg);
    return false;
  }
  return true;
}

struct call {
  void *fn;
  enum result_kind kind;
  int64_t i;
  double d;
};

static void *call_entry(void *data) {
  struct call *c = data;
  switch (c->kind) {
  case R_NONE:
    ((void (*)(void))c->fn)();
    break;
  case R_I1:
    c->i = ((uint8_t(*)(void))c->fn)() & 1;
    break;
  case R_I8:
    c->i = ((int8_t(*)(void))c->fn)();
    break;
  case R_I16:
    c->i = ((int16_t(*)(void))c->fn)();
    break;
  case R_I32:
    c->i = ((int32_t(*)(void))c->fn)();
    break;
  case R_I64:
    c->i = ((int64_t(*)(void))c->fn)();
    break;
  case R_F32:
    c->d = ((float (*)(void))c->fn)();
    break;
  case R_F64:
    c->d = ((double (*)(void))c->fn)();
    break;
  }
  return NULL;
}

static bool run_entry(struct call *c) {
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0)
    return false;
  bool ok = pthread_attr_setstacksize(&attr, ENTRY_STACK_SIZE) == 0 &&
            pthread_create(&thread, &attr, call_entry, c) == 0;
  pthread_attr_destroy(&attr);
  return ok && pthread_join(thread, NULL) == 0;
}

static void print_result(const struct call *c) {
  switch (c->kind) {
  case R_NONE:
    break;
  case R_F32:
    printf("%.9g\n", c->d);
    break;
  case R_F64:
    printf("%.17g\n", c->d);
    break;
  default:
    printf("%" PRId64 "\n", c->i);
    break;
  }
  fflush(stdout);
}

static void on_fatal_error(const char *reason) {
  fprintf(stderr, "%s: error: %s\n", tool, reason);
  fflush(stderr);
  fflush(stdout);
  _Exit(1);
}

/* Lowers and JIT-compiles; returns null after reporting. */
static MlirExecutionEngine compile(MlirContext ctx, MlirModule module,
                                   const struct options *o,
                                   struct drv_diags *diags) {
  const char *why = NULL;
  if (!coro_lower_module(module, o->route, &why)) {
    drv_diags_print(diags);
    if (why)
      fprintf(stderr, "%s: error: %s\n", tool, why);
    return (MlirExecutionEngine){NULL};
  }
  mlirRegisterAllLLVMTranslations(ctx);
  MlirExecutionEngine jit =
      mlirExecutionEngineCreate(module, o->opt_level, 0, NULL, false, false);
  if (mlirExecutionEngineIsNull(jit)) {
    drv_diags_print(diags);
    fprintf(stderr, "%s: error: could not translate or JIT-compile '%s'\n",
            tool, o->input);
  }
  return jit;
}

static int run(void *data) {
  const struct options *o = data;
  struct drv_source src;
  if (!drv_read_source(tool, o->input, &src))
    return 1;
  MlirContext ctx = mlirContextCreateWithThreading(false);
  struct drv_diags diags = {.file_name = src.name};
  MlirDiagnosticHandlerID handler = drv_diags_attach(ctx, &diags);
  int status = 1;
  struct drv_chunk *chunks = NULL;
  drv_split(&src, NULL, &chunks);
  MlirModule module = {NULL};
  enum result_kind kind = R_NONE;
  if (mlirLogicalResultIsSuccess(coroDialectLoad(ctx)))
    module = drv_parse(ctx, src.name, &chunks[0], &diags);
  if (!mlirModuleIsNull(module) &&
      mlirLogicalResultIsSuccess(coroVerify(mlirModuleGetOperation(module))) &&
      entry_kind(module, src.name, o->entry, &kind)) {
    MlirExecutionEngine jit = compile(ctx, module, o, &diags);
    if (!mlirExecutionEngineIsNull(jit)) {
      struct call c = {mlirExecutionEngineLookup(
                           jit, mlirStringRefCreateFromCString(o->entry)),
                       kind, 0, 0};
      if (!c.fn)
        fprintf(stderr, "%s: error: '%s' not found after compilation\n", tool,
                o->entry);
      else if (!run_entry(&c))
        fprintf(stderr, "%s: error: could not start the entry thread\n", tool);
      else {
        print_result(&c);
        status = 0;
      }
      mlirExecutionEngineDestroy(jit);
    }
  }
  drv_diags_print(&diags);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  free(chunks);
  free(diags.items);
  drv_source_free(&src);
  return status;
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
  if (o.route == CORO_ROUTE_MLIR_SPLIT) {
    fprintf(stderr,
            "%s: error: --route=mlir-split needs the coro-split pass, which "
            "does not exist yet; use --route=llvm\n",
            tool);
    return 1;
  }
  LLVMInstallFatalErrorHandler(on_fatal_error);
  return drv_run_with_big_stack(run, &o);
}
