/* coro-run - lower a coro program and JIT-run its entry function.
 *
 *   coro-run FILE [--entry=main] [-O0|-O1|-O2|-O3] [--route=llvm|mlir-split]
 *
 * The file is parsed and verified; a wrapper `@__coro_run_entry(ptr)` is
 * added that calls the entry (no arguments; up to 16 results of type i1,
 * i8, i16, i32, i64, index, f32 or f64) and stores each result in an 8-byte
 * slot, so every signature is called the same way from C. Every coroutine
 * is lowered to the LLVM dialect (coroLowerToLLVMDialectWithRoute), MLIR's
 * ExecutionEngine
 * translates the module and runs LLVM's pipeline, including the coroutine
 * passes, and the wrapper is called. The results are printed on stdout,
 * one per line, in decimal. The entry runs on a thread with an 8 MiB stack,
 * an ordinary main-thread size, so programs that claim O(1) stack
 * (symmetric transfer) are checked by running them. Any failure:
 * `file:line:col: error: ...` (or `coro-run: error: ...`) on stderr and
 * exit status 1. */
#include "coro-c/Coro.h"
#include "tools/common/driver.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/RegisterEverything.h"

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
  CoroRoute route;
  bool checked;
  bool debug_info;
  bool no_elide;
};

/* How each result of the entry is read back (see add_wrapper). */
enum result_kind { R_I1, R_I8, R_I16, R_I32, R_I64, R_F32, R_F64 };

enum { MAX_RESULTS = 16 };

struct entry_sig {
  int n;
  enum result_kind kinds[MAX_RESULTS];
  MlirType types[MAX_RESULTS];
  bool is_llvm; /* an llvm.func (else func.func) */
};

static void usage(void) {
  printf("OVERVIEW: coro-run - lower a coro program and JIT-run it\n\n"
         "USAGE: coro-run FILE [--entry=main] [-O0..-O3] "
         "[--route=llvm|mlir-split] [--checked] [--no-elide] [-g]\n\n"
         "  --entry=<name>   function to call (no arguments; default main);\n"
         "                   its results are printed one per line\n"
         "  -O0 .. -O3       LLVM optimization level (default -O0)\n"
         "  --route=llvm     lower through LLVM's coroutine passes\n"
         "  --route=mlir-split  through coro's own coro-split (default)\n"
         "  --checked        trap with a message on misuse (resuming a "
         "coroutine\n"
         "                   that has ended, yielding again after "
         "coro.destroy)\n"
         "  --no-elide       keep every frame on the heap unless its "
         "coroutine\n"
         "                   says coro.alloc = \"elide\" (no --coro-elide)\n"
         "  -g               line tables for the .mlir file (for gdb)\n");
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
    } else if (!strcmp(a, "--checked")) {
      o->checked = true;
    } else if (!strcmp(a, "--no-elide")) {
      o->no_elide = true;
    } else if (!strcmp(a, "-g")) {
      o->debug_info = true;
    } else if (!strncmp(a, "--route=", 8)) {
      if (!coroRouteParse(mlirStringRefCreateFromCString(a + 8), &o->route)) {
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

/* Finds the entry and its result types; emits a located error and returns
 * false when coro-run cannot call it. */
static bool entry_signature(MlirModule module, const char *file,
                            const char *entry, struct entry_sig *sig) {
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
  MlirType ty = mlirAttributeIsNull(ft) || !mlirAttributeIsAType(ft)
                    ? (MlirType){NULL}
                    : mlirTypeAttrGetValue(ft);
  intptr_t nin = -1;
  sig->n = 0;
  sig->is_llvm = false;
  if (!mlirTypeIsNull(ty) && mlirTypeIsAFunction(ty)) {
    nin = mlirFunctionTypeGetNumInputs(ty);
    intptr_t nres = mlirFunctionTypeGetNumResults(ty);
    sig->n = nres > MAX_RESULTS ? MAX_RESULTS + 1 : (int)nres;
    for (int i = 0; i < sig->n && i < MAX_RESULTS; ++i)
      sig->types[i] = mlirFunctionTypeGetResult(ty, i);
  } else if (!mlirTypeIsNull(ty) &&
             mlirIdentifierEqual(
                 mlirOperationGetName(f),
                 mlirIdentifierGet(
                     mlirOperationGetContext(f),
                     mlirStringRefCreateFromCString("llvm.func")))) {
    sig->is_llvm = true;
    nin = mlirLLVMFunctionTypeGetNumInputs(ty);
    MlirType res = mlirLLVMFunctionTypeGetReturnType(ty);
    if (!mlirTypeEqual(res, mlirLLVMVoidTypeGet(mlirTypeGetContext(ty))))
      sig->types[sig->n++] = res;
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
  bool ok = sig->n <= MAX_RESULTS;
  for (int i = 0; ok && i < sig->n; ++i)
    ok = kind_of(sig->types[i], &sig->kinds[i]);
  if (!ok) {
    snprintf(msg, sizeof msg,
             "entry function '@%s' must return up to %d values of type i1, "
             "i8, i16, i32, i64, index, f32 or f64",
             entry, MAX_RESULTS);
    mlirEmitError(mlirOperationGetLocation(f), msg);
  }
  return ok;
}

/* Builds `name` with operands, results and attributes at the end of
 * `block`; returns it. */
static MlirOperation build(MlirBlock block, MlirLocation loc, const char *name,
                           intptr_t nops, const MlirValue *ops, intptr_t nres,
                           const MlirType *res, intptr_t nattrs,
                           const MlirNamedAttribute *attrs) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&st, nops, ops);
  mlirOperationStateAddResults(&st, nres, res);
  mlirOperationStateAddAttributes(&st, nattrs, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(block, op);
  return op;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

/* Adds `@__coro_run_entry(%out: !llvm.ptr)`: it calls the entry and stores
 * result i at %out + 8*i (index as i64), so that every signature is called
 * the same way from C:
 *
 *   func.func @__coro_run_entry(%out: !llvm.ptr) {
 *     %r:N = func.call @entry() : () -> (...)    (llvm.call for an llvm.func)
 *     %p_i = llvm.getelementptr %out[i] : (!llvm.ptr) -> !llvm.ptr, i64
 *     llvm.store %r#i, %p_i                       (index: index_cast to i64)
 *     return
 *   }
 *
 * It is located at the entry function, named after what it is. */
static bool add_wrapper(MlirModule module, const char *entry,
                        const struct entry_sig *sig) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirSymbolTable table = mlirSymbolTableCreate(mlirModuleGetOperation(module));
  MlirOperation f =
      mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(entry));
  mlirSymbolTableDestroy(table);
  /* the entry's file, line and column only: a function's location may
   * carry its DISubprogram (debug info of LLVM IR input), which no second
   * function may have */
  MlirLocation at = mlirLocationUnknownGet(ctx);
  MlirStringRef file;
  unsigned line, col;
  if (!mlirOperationIsNull(f) &&
      coroLocationGetFileLineCol(mlirOperationGetLocation(f), &file, &line,
                                 &col))
    at = mlirLocationFileLineColGet(ctx, file, line, col);
  MlirLocation loc = mlirLocationNameGet(
      ctx, mlirStringRefCreateFromCString("__coro_run_entry"), at);
  MlirType ptr = mlirLLVMPointerTypeGet(ctx, 0);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType fty = mlirFunctionTypeGet(ctx, 1, &ptr, 0, NULL);
  MlirRegion region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(1, &ptr, &loc);
  mlirRegionAppendOwnedBlock(region, body);
  MlirNamedAttribute fattrs[2] = {
      named(ctx, "sym_name",
            mlirStringAttrGet(
                ctx, mlirStringRefCreateFromCString("__coro_run_entry"))),
      named(ctx, "function_type", mlirTypeAttrGet(fty))};
  MlirOperationState fst =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&fst, 2, fattrs);
  mlirOperationStateAddOwnedRegions(&fst, 1, &region);
  MlirOperation w = mlirOperationCreate(&fst);
  if (mlirOperationIsNull(w))
    return false;
  MlirAttribute sym =
      mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(entry));
  int32_t seg[2] = {0, 0};
  MlirNamedAttribute cattrs[3] = {
      named(ctx, "callee", sym),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, seg)),
      named(ctx, "op_bundle_sizes", mlirDenseI32ArrayGet(ctx, 0, NULL))};
  MlirOperation call =
      build(body, loc, sig->is_llvm ? "llvm.call" : "func.call", 0, NULL,
            sig->n, sig->types, sig->is_llvm ? 3 : 1, cattrs);
  MlirValue out = mlirBlockGetArgument(body, 0);
  for (int i = 0; i < sig->n; ++i) {
    MlirValue r = mlirOperationGetResult(call, i);
    if (mlirTypeIsAIndex(sig->types[i]))
      r = mlirOperationGetResult(
          build(body, loc, "arith.index_cast", 1, &r, 1, &i64, 0, NULL), 0);
    int32_t idx = i;
    MlirNamedAttribute gattrs[2] = {
        named(ctx, "elem_type", mlirTypeAttrGet(i64)),
        named(ctx, "rawConstantIndices", mlirDenseI32ArrayGet(ctx, 1, &idx))};
    MlirValue p = mlirOperationGetResult(
        build(body, loc, "llvm.getelementptr", 1, &out, 1, &ptr, 2, gattrs), 0);
    MlirValue sops[2] = {r, p};
    build(body, loc, "llvm.store", 2, sops, 0, NULL, 0, NULL);
  }
  build(body, loc, "func.return", 0, NULL, 0, NULL, 0, NULL);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), w);
  return true;
}

struct call {
  void (*fn)(void *);
  uint64_t slots[MAX_RESULTS];
};

static void *call_entry(void *data) {
  struct call *c = data;
  c->fn(c->slots);
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

/* Prints result `i`, one per line, read as the wrapper stored it. */
static void print_result(const struct call *c, int i, enum result_kind k) {
  const void *slot = &c->slots[i];
  union {
    uint8_t u8;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
  } v;
  memcpy(&v, slot, sizeof v);
  switch (k) {
  case R_I1:
    printf("%d\n", v.u8 & 1);
    break;
  case R_I8:
    printf("%d\n", v.i8);
    break;
  case R_I16:
    printf("%d\n", v.i16);
    break;
  case R_I32:
    printf("%" PRId32 "\n", v.i32);
    break;
  case R_I64:
    printf("%" PRId64 "\n", v.i64);
    break;
  case R_F32:
    printf("%.9g\n", v.f32);
    break;
  case R_F64:
    printf("%.17g\n", v.f64);
    break;
  }
}

/* Lowers and JIT-compiles; returns null after reporting. */
static MlirExecutionEngine compile(MlirModule module, const struct options *o,
                                   struct drv_diags *diags) {
  CoroLowerConfig config = drv_lower_config(o->route, o->opt_level, o->no_elide,
                                            o->checked, o->debug_info);
  if (mlirLogicalResultIsFailure(coroLowerModule(module, &config))) {
    drv_diags_print(diags);
    return (MlirExecutionEngine){NULL};
  }
  /* coroJITCreate: what an LLVM IR import left for LLVM's split
   * (coro.outside.frame marks) goes, and a symbol defined nowhere is an
   * error at its declaration when the entry is looked up */
  MlirExecutionEngine jit = coroJITCreate(module, o->opt_level, 0, NULL);
  if (mlirExecutionEngineIsNull(jit)) {
    drv_diags_print(diags);
    fprintf(stderr, "%s: error: could not translate or JIT-compile '%s'\n",
            tool, o->input);
  }
  return jit;
}

static int run(void *data) {
  const struct options *o = data;
  struct drv_input in;
  if (!drv_input_open(tool, o->input, &in))
    return 1;
  int status = 1;
  struct entry_sig sig;
  MlirModule module = in.module;
  if (!mlirModuleIsNull(module))
    coroSetRoute(module, o->route);
  if (!mlirModuleIsNull(module) &&
      mlirLogicalResultIsSuccess(coroVerify(mlirModuleGetOperation(module))) &&
      entry_signature(module, in.src.name, o->entry, &sig)) {
    if (!add_wrapper(module, o->entry, &sig)) {
      drv_diags_print(&in.diags);
      fprintf(stderr, "%s: error: could not build the call of '@%s'\n", tool,
              o->entry);
    } else {
      MlirExecutionEngine jit = compile(module, o, &in.diags);
      if (!mlirExecutionEngineIsNull(jit)) {
        struct call c = {NULL, {0}};
        c.fn = (void (*)(void *))coroJITLookup(jit, "__coro_run_entry");
        if (!c.fn) {
          bool reported = drv_diags_has_errors(&in.diags);
          drv_diags_print(&in.diags);
          if (!reported)
            fprintf(stderr, "%s: error: '%s' not found after compilation\n",
                    tool, o->entry);
        } else if (!run_entry(&c))
          fprintf(stderr, "%s: error: could not start the entry thread\n",
                  tool);
        else {
          for (int i = 0; i < sig.n; ++i)
            print_result(&c, i, sig.kinds[i]);
          fflush(stdout);
          status = 0;
        }
        mlirExecutionEngineDestroy(jit);
      }
    }
  }
  drv_input_close(&in);
  return status;
}

int main(int argc, char **argv) {
  struct options o = {.route = coroDefaultRoute()};
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
