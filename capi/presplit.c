/* presplit.c - LLVM's function simplification on a module before coro's
 * own split (route B on the device, at -O2 and -O3; see capi/presplit.h).
 *
 * LLVM's pipeline simplifies a coroutine before its CoroSplit splits it:
 * the split then sees promoted allocas, rotated loops whose exit tests
 * indvars has rewritten against the trip count, and threaded jumps. Route
 * B splits in MLIR, so at -O2 and -O3 the module takes a round trip:
 * translated to LLVM IR, through the simplification passes of LLVM's
 * default pipeline (without its coroutine passes; LLVM never inlines a
 * coroutine that is not split yet), and imported back into the LLVM
 * dialect (coro_import_llvm_module, capi/registry.cpp), where --coro-split
 * takes it as it takes any producer's coroutines.
 *
 * What LLVM IR cannot carry is kept aside and put back:
 *   - the module's attributes (coro.device): the module op stays, only its
 *     body is replaced;
 *   - each function's discardable attributes (gpu.kernel) and its symbol
 *     visibility, by the function's name;
 *   - coro.elided on a call (coro-elide's decision): for the trip, the call
 *     calls a declaration NAME$coro.elided.1 (or .0) of the callee's type,
 *     which LLVM copies with the call when it inlines the caller; after it,
 *     the call calls NAME again with its mark.
 * Locations do not survive (LLVM IR without debug info has none): what the
 * split reports afterwards is located at the module. */
#include "capi/presplit.h"
#include "capi/registry.h"
#include "dialect/support.h"
#include "ir/builder.h"
#include "ir/func.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Target/LLVMIR.h"
#include "llvm-c/Core.h"
#include "llvm-c/Error.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Transforms/PassBuilder.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The simplification LLVM's default<O2> pipeline gives each function
 * before CoroSplit (its CGSCC function pipeline and the module passes
 * before it), without CoroEarly, CoroElide, CoroSplit and the passes that
 * change a function's signature. */
#define SIMPLIFYCFG                                                            \
  "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"                 \
  "switch-range-to-icmp;no-switch-to-arithmetic;no-switch-to-lookup;"          \
  "keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"    \
  "simplify-cond-branch>"
#define INSTCOMBINE "instcombine<max-iterations=1;no-verify-fixpoint>"
const char coro_presplit_pipeline[] =
    "function<eager-inv>(lower-expect," SIMPLIFYCFG ",sroa<modify-cfg>,"
    "early-cse<>),"
    "ipsccp,called-value-propagation,globalopt,"
    "function<eager-inv>(mem2reg," INSTCOMBINE "," SIMPLIFYCFG "),"
    "always-inline,"
    "cgscc(devirt<4>(inline,function-attrs<skip-non-recursive-function-attrs>,"
    "function<eager-inv;no-rerun>(sroa<modify-cfg>,early-cse<memssa>,"
    "jump-threading,correlated-propagation," SIMPLIFYCFG "," INSTCOMBINE
    ",aggressive-instcombine,tailcallelim," SIMPLIFYCFG ",reassociate,"
    "constraint-elimination,loop-mssa(loop-instsimplify,loop-simplifycfg,"
    "licm<no-allowspeculation>,loop-rotate<header-duplication;"
    "no-prepare-for-lto>,licm<allowspeculation>,simple-loop-unswitch<no-"
    "nontrivial;trivial>)," SIMPLIFYCFG "," INSTCOMBINE ",loop(loop-idiom,"
    "indvars,loop-deletion,loop-unroll-full),sroa<modify-cfg>,vector-combine,"
    "mldst-motion<no-split-footer-bb>,gvn<>,sccp,bdce," INSTCOMBINE
    ",jump-threading,correlated-propagation,adce,memcpyopt,dse,"
    "loop-mssa(licm<allowspeculation>)," SIMPLIFYCFG "," INSTCOMBINE ")))";

#define ELIDED_SUFFIX "$coro.elided."

/* What a function carried that LLVM IR does not. */
struct kept_fn {
  char *name;
  size_t name_len;
  intptr_t n;
  MlirNamedAttribute *attrs; /* discardable ones and sym_visibility */
};

struct kept {
  struct kept_fn *fns;
  size_t n, cap;
};

static void keep_fn(struct kept *k, MlirOperation fn) {
  intptr_t nd = mlirOperationGetNumDiscardableAttributes(fn);
  MlirAttribute vis = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("sym_visibility"));
  if (nd == 0 && mlirAttributeIsNull(vis))
    return;
  if (k->n == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 16;
    k->fns = realloc(k->fns, k->cap * sizeof *k->fns);
    assert(k->fns && "out of memory");
  }
  struct kept_fn *f = &k->fns[k->n++];
  MlirStringRef name = ir_sym_name(fn);
  f->name = malloc(name.length + 1);
  assert(f->name && "out of memory");
  memcpy(f->name, name.data, name.length);
  f->name_len = name.length;
  f->attrs = malloc((size_t)(nd + 1) * sizeof *f->attrs);
  assert(f->attrs && "out of memory");
  f->n = 0;
  for (intptr_t i = 0; i < nd; ++i)
    f->attrs[f->n++] = mlirOperationGetDiscardableAttribute(fn, i);
  if (!mlirAttributeIsNull(vis))
    f->attrs[f->n++] = mlirNamedAttributeGet(
        mlirIdentifierGet(mlirOperationGetContext(fn),
                          mlirStringRefCreateFromCString("sym_visibility")),
        vis);
}

static void kept_free(struct kept *k) {
  for (size_t i = 0; i < k->n; ++i) {
    free(k->fns[i].name);
    free(k->fns[i].attrs);
  }
  free(k->fns);
}

/* NAME + ELIDED_SUFFIX + 0 or 1. */
static void elided_name(struct coro_str *out, MlirStringRef callee,
                        bool elided) {
  coro_str_append(out, callee.data, callee.length);
  coro_str_appendz(out, ELIDED_SUFFIX);
  coro_str_appendz(out, elided ? "1" : "0");
}

/* Whether `name` is one mark_call gives a declaration. */
static bool marker_name(MlirStringRef name) {
  size_t s = strlen(ELIDED_SUFFIX);
  return name.length > s &&
         !memcmp(name.data + name.length - s - 1, ELIDED_SUFFIX, s) &&
         (name.data[name.length - 1] == '0' ||
          name.data[name.length - 1] == '1');
}

/* A call marked coro.elided calls NAME$coro.elided.N for the trip. */
static MlirWalkResult mark_call(MlirOperation op, void *user) {
  MlirSymbolTable table = *(MlirSymbolTable *)user;
  if (!coro_op_named(op, "llvm.call"))
    return MlirWalkResultAdvance;
  MlirStringRef key = mlirStringRefCreateFromCString("coro.elided");
  MlirAttribute mark = mlirOperationGetAttributeByName(op, key);
  MlirAttribute callee = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  if (mlirAttributeIsNull(mark) || !mlirAttributeIsABool(mark) ||
      mlirAttributeIsNull(callee))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirOperation fn = mlirSymbolTableLookup(table, name);
  if (mlirOperationIsNull(fn) || !coro_op_named(fn, "llvm.func"))
    return MlirWalkResultAdvance;
  struct coro_str decl = {0};
  elided_name(&decl, name, mlirBoolAttrGetValue(mark));
  MlirStringRef decl_ref = mlirStringRefCreate(decl.data, decl.len);
  MlirContext ctx = mlirOperationGetContext(op);
  if (mlirOperationIsNull(mlirSymbolTableLookup(table, decl_ref))) {
    /* llvm.func @NAME$coro.elided.N(...) of the callee's type */
    MlirOperationState st =
        mlirOperationStateGet(mlirStringRefCreateFromCString("llvm.func"),
                              mlirOperationGetLocation(fn));
    MlirNamedAttribute attrs[3] = {
        ir_named(ctx, "sym_name", mlirStringAttrGet(ctx, decl_ref)),
        ir_named(ctx, "function_type",
                 mlirOperationGetAttributeByName(
                     fn, mlirStringRefCreateFromCString("function_type"))),
        ir_named(ctx, "linkage",
                 mlirLLVMLinkageAttrGet(ctx, MlirLLVMLinkageExternal))};
    mlirOperationStateAddAttributes(&st, 3, attrs);
    MlirRegion body = mlirRegionCreate();
    mlirOperationStateAddOwnedRegions(&st, 1, &body);
    mlirSymbolTableInsert(table, mlirOperationCreate(&st)); /* at the end */
  }
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("callee"),
                                  mlirFlatSymbolRefAttrGet(ctx, decl_ref));
  mlirOperationRemoveAttributeByName(op, key);
  coro_str_free(&decl);
  return MlirWalkResultAdvance;
}

/* A call of NAME$coro.elided.N calls NAME again, marked. */
static MlirWalkResult unmark_call(MlirOperation op, void *user) {
  (void)user;
  if (!coro_op_named(op, "llvm.call"))
    return MlirWalkResultAdvance;
  MlirStringRef key = mlirStringRefCreateFromCString("callee");
  MlirAttribute callee = mlirOperationGetAttributeByName(op, key);
  if (mlirAttributeIsNull(callee))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  if (!marker_name(name))
    return MlirWalkResultAdvance;
  MlirContext ctx = mlirOperationGetContext(op);
  bool elided = name.data[name.length - 1] == '1';
  size_t cut = strlen(ELIDED_SUFFIX) + 1;
  mlirOperationSetAttributeByName(
      op, key,
      mlirFlatSymbolRefAttrGet(
          ctx, mlirStringRefCreate(name.data, name.length - cut)));
  mlirOperationSetAttributeByName(op,
                                  mlirStringRefCreateFromCString("coro.elided"),
                                  mlirBoolAttrGet(ctx, elided));
  return MlirWalkResultAdvance;
}

/* Takes the functions' attributes and the calls' marks out of `module`:
 * false after an error (a symbol of the module has a marker's name). */
static bool take_out(MlirOperation module, struct kept *k) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirStringRef sym = mlirStringRefCreateFromCString("sym_name");
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name = mlirOperationGetAttributeByName(op, sym);
    if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name) &&
        marker_name(mlirStringAttrGetValue(name))) {
      mlirEmitError(mlirOperationGetLocation(op),
                    "this symbol's name ends as those the device pipeline "
                    "gives elided calls' callees while LLVM's pre-split "
                    "passes run (at -O2 and -O3): rename it");
      ok = false;
    }
    if (coro_op_named(op, "llvm.func"))
      keep_fn(k, op);
  }
  if (!ok)
    return false;
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  mlirOperationWalk(module, mark_call, &table, MlirWalkPreOrder);
  mlirSymbolTableDestroy(table);
  return true;
}

/* Puts them back into the imported body of `module`. */
static void put_back(MlirOperation module, const struct kept *k) {
  mlirOperationWalk(module, unmark_call, NULL, MlirWalkPreOrder);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (coro_op_named(op, "llvm.func") && marker_name(ir_sym_name(op)))
      mlirOperationDestroy(op); /* no call is left that calls it */
    op = next;
  }
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  for (size_t i = 0; i < k->n; ++i) {
    const struct kept_fn *f = &k->fns[i];
    MlirOperation fn =
        mlirSymbolTableLookup(table, mlirStringRefCreate(f->name, f->name_len));
    if (mlirOperationIsNull(fn))
      continue; /* inlined everywhere and dropped */
    for (intptr_t j = 0; j < f->n; ++j)
      mlirOperationSetAttributeByName(fn, mlirIdentifierStr(f->attrs[j].name),
                                      f->attrs[j].attribute);
  }
  mlirSymbolTableDestroy(table);
}

/* Replaces the body of `module` by that of `imported`, which it destroys. */
static void take_body(MlirOperation module, MlirOperation imported) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirBlockGetFirstOperation(body))
    mlirOperationDestroy(op);
  MlirBlock from = mlirRegionGetFirstBlock(mlirOperationGetRegion(imported, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(from);
       !mlirOperationIsNull(op); op = mlirBlockGetFirstOperation(from)) {
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(body, op);
  }
  mlirOperationDestroy(imported);
}

static void error_at(MlirOperation module, const char *what, char *detail) {
  struct coro_str msg = {0};
  coro_str_appendz(&msg, what);
  if (detail) {
    coro_str_appendz(&msg, ": ");
    coro_str_appendz(&msg, detail);
  }
  mlirEmitError(mlirOperationGetLocation(module), coro_str_cstr(&msg));
  coro_str_free(&msg);
}

bool coro_presplit_optimize(MlirModule module, LLVMTargetMachineRef tm) {
  MlirOperation op = mlirModuleGetOperation(module);
  MlirContext ctx = mlirModuleGetContext(module);
  struct kept k = {0};
  bool ok = take_out(op, &k);
  LLVMContextRef llctx = ok ? LLVMContextCreate() : NULL;
  LLVMModuleRef m = NULL;
  if (ok) {
    mlirRegisterAllLLVMTranslations(ctx);
    m = mlirTranslateModuleToLLVMIR(op, llctx);
    if (!m) {
      error_at(op, "translation to LLVM IR failed", NULL);
      ok = false;
    }
  }
  if (ok) {
    /* the target's costs steer indvars and the unroller */
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, dl);
    LLVMDisposeTargetData(dl);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, coro_presplit_pipeline, tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (err) {
      char *msg = LLVMGetErrorMessage(err);
      error_at(op, "LLVM's pre-split pipeline failed", msg);
      LLVMDisposeErrorMessage(msg);
      ok = false;
    }
  }
  if (ok) {
    /* the importer would turn the data layout into DLTI attributes (and
     * warn of the tokens it has none for); the translation after the
     * split sets the target again */
    LLVMSetDataLayout(m, "");
    LLVMSetTarget(m, "");
    MlirOperation imported = coro_import_llvm_module(m, ctx);
    m = NULL; /* taken */
    if (mlirOperationIsNull(imported)) {
      error_at(op, "importing the optimised LLVM IR failed", NULL);
      ok = false;
    } else {
      take_body(op, imported);
      put_back(op, &k);
    }
  }
  if (m)
    LLVMDisposeModule(m);
  if (llctx)
    LLVMContextDispose(llctx);
  kept_free(&k);
  return ok;
}
