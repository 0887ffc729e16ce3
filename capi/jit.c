/* jit.c - coro-c/JIT.h: MLIR's ExecutionEngine for lowered coro modules.
 *
 * The engine owns everything it compiles; the module handed in is only
 * read. Failures are diagnostics at the module's location, or at the
 * declaration of a symbol nothing defines.
 *
 * Unresolved symbols. ORC links the whole module when any of its symbols
 * is first looked up; a symbol it cannot find then makes every lookup fail
 * and ORC prints "JIT session error: Symbols not found" on stderr, out of
 * reach of the context. A host may still register symbols after
 * coroJITCreate (mlirExecutionEngineRegisterSymbol), so a symbol missing at
 * creation is not yet an error. coroJITCreate therefore records the
 * declarations the code refers to (a retcon coroutine's prototype does not
 * count: LLVM only reads its type) that it could not resolve, as an
 * ArrayAttr [name, location, ...] owned by the module's context, in the
 * engine itself: under the hidden symbol `__coro_jit_unresolved`, whose
 * address is the attribute. Before each lookup, coroJITLookup resolves
 * those names one by one (a lookup of a single absent name fails quietly)
 * and reports each one still missing as an error at its declaration
 * instead of letting ORC link. Nothing is kept outside the engine and the
 * context. */
#include "coro-c/JIT.h"
#include "capi/vararg_intrinsics.h"
#include "dialect/contract.h"
#include "ir/blocks.h"
#include "ir/func.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char unresolved_key[] = "__coro_jit_unresolved";

static bool op_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* Whether `op` declares a function or global the module does not define;
 * sets *name (borrowed from the context). LLVM intrinsics are not
 * symbols. */
static bool is_external_declaration(MlirOperation op, MlirStringRef *name) {
  bool func = op_is(op, "llvm.func");
  if (!func && !op_is(op, "llvm.mlir.global"))
    return false;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  if (!mlirBlockIsNull(mlirRegionGetFirstBlock(body)))
    return false;
  if (!func && !mlirAttributeIsNull(mlirOperationGetAttributeByName(
                   op, mlirStringRefCreateFromCString("value"))))
    return false;
  MlirAttribute sym = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  if (!mlirAttributeIsAString(sym))
    return false;
  *name = mlirStringAttrGetValue(sym);
  return !(name->length >= 5 && memcmp(name->data, "llvm.", 5) == 0);
}

/* A declaration the module refers to. `needed` is false while the only
 * references are the prototype operand of llvm.coro.id.retcon(.once): LLVM
 * reads the prototype's type there and never links the symbol, so a
 * prototype needs no definition. */
struct decl {
  MlirStringRef name;
  MlirLocation loc;
  bool needed;
};

struct decls {
  struct decl *items;
  size_t count;
};

static bool is_retcon_prototype_use(MlirOpOperand use) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  if (!op_is(user, "llvm.call_intrinsic") ||
      mlirOpOperandGetOperandNumber(use) != 3)
    return false;
  MlirAttribute intrin = mlirOperationGetAttributeByName(
      user, mlirStringRefCreateFromCString("intrin"));
  if (!mlirAttributeIsAString(intrin))
    return false;
  MlirStringRef name = mlirStringAttrGetValue(intrin);
  return mlirStringRefEqual(
             name, mlirStringRefCreateFromCString("llvm.coro.id.retcon")) ||
         mlirStringRefEqual(
             name, mlirStringRefCreateFromCString("llvm.coro.id.retcon.once"));
}

/* Whether `op` takes a symbol's address only to name a retcon prototype. */
static bool only_names_prototype(MlirOperation op) {
  if (!op_is(op, "llvm.mlir.addressof"))
    return false;
  MlirValue result = mlirOperationGetResult(op, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(result);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use))
    if (!is_retcon_prototype_use(use))
      return false;
  return true;
}

/* Marks the declarations `op` refers to (through a symbol reference
 * attribute) as needed. */
static MlirWalkResult mark_needed(MlirOperation op, void *userData) {
  struct decls *decls = userData;
  if (only_names_prototype(op))
    return MlirWalkResultAdvance;
  intptr_t n = mlirOperationGetNumAttributes(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute attr = mlirOperationGetAttribute(op, i).attribute;
    if (!mlirAttributeIsAFlatSymbolRef(attr))
      continue;
    MlirStringRef name = mlirFlatSymbolRefAttrGetValue(attr);
    for (size_t k = 0; k < decls->count; ++k)
      if (mlirStringRefEqual(decls->items[k].name, name))
        decls->items[k].needed = true;
  }
  return MlirWalkResultAdvance;
}

/* Records in `jit` the declarations the code needs and the engine cannot
 * resolve now (see the file header). Returns false only when out of
 * memory. */
static bool record_unresolved(MlirModule module, MlirExecutionEngine jit) {
  MlirContext ctx = mlirModuleGetContext(module);
  struct decls decls = {NULL, 0};
  size_t cap = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name;
    if (!is_external_declaration(op, &name))
      continue;
    if (decls.count == cap) {
      cap = cap ? cap * 2 : 8;
      struct decl *grown = ir_xrealloc(decls.items, cap * sizeof(*grown));
      if (!grown) {
        free(decls.items);
        return false;
      }
      decls.items = grown;
    }
    decls.items[decls.count++] =
        (struct decl){name, mlirOperationGetLocation(op), false};
  }
  if (decls.count)
    mlirOperationWalk(mlirModuleGetOperation(module), mark_needed, &decls,
                      MlirWalkPreOrder);
  /* [name, location, ...]: at most two entries per declaration. */
  MlirAttribute *items = ir_xmalloc((2 * decls.count + 1) * sizeof(*items));
  if (!items) {
    free(decls.items);
    return false;
  }
  size_t n = 0;
  for (size_t k = 0; k < decls.count; ++k) {
    const struct decl *d = &decls.items[k];
    if (!d->needed || mlirExecutionEngineLookup(jit, d->name))
      continue;
    items[n++] = mlirStringAttrGet(ctx, d->name);
    items[n++] = mlirLocationGetAttribute(d->loc);
  }
  if (n)
    mlirExecutionEngineRegisterSymbol(
        jit, mlirStringRefCreateFromCString(unresolved_key),
        (void *)mlirArrayAttrGet(ctx, (intptr_t)n, items).ptr);
  free(items);
  free(decls.items);
  return true;
}

static MlirWalkResult note_mark(MlirOperation op, void *user) {
  if (coro_ref_eq(ir_callee(op), CORO_OUTSIDE_FRAME_MARKER))
    ir_opvec_push(user, op);
  return MlirWalkResultAdvance;
}

/* The execution engine translates and optimizes in one step: the marks of
 * coro.outside.frame an LLVM IR import left (route A: the split has not
 * erased them) cannot become metadata again, and go. */
static void drop_outside_frame_marks(MlirModule module) {
  MlirOperation m = mlirModuleGetOperation(module);
  struct ir_opvec marks = {0};
  mlirOperationWalk(m, note_mark, &marks, MlirWalkPostOrder);
  for (size_t i = 0; i < marks.n; ++i)
    mlirOperationDestroy(marks.v[i]);
  free(marks.v);
  MlirOperation decl = coro_lookup_symbol(
      m, mlirStringRefCreateFromCString(CORO_OUTSIDE_FRAME_MARKER));
  if (!mlirOperationIsNull(decl))
    mlirOperationDestroy(decl);
}

MlirExecutionEngine coroJITCreate(MlirModule module, int optLevel,
                                  intptr_t nSharedLibs,
                                  const MlirStringRef *sharedLibPaths) {
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(module));
  if (optLevel < 0 || optLevel > 3) {
    mlirEmitError(loc, "optimization level must be 0, 1, 2 or 3");
    return (MlirExecutionEngine){NULL};
  }
  mlirRegisterAllLLVMTranslations(mlirModuleGetContext(module));
  drop_outside_frame_marks(module);
  if (!coro_vararg_intrinsics_to_calls(mlirModuleGetOperation(module)))
    return (MlirExecutionEngine){NULL};
  MlirExecutionEngine jit = mlirExecutionEngineCreate(
      module, optLevel, (int)nSharedLibs, sharedLibPaths, false, false);
  if (mlirExecutionEngineIsNull(jit)) {
    mlirEmitError(loc, "could not translate or JIT-compile the module (is it "
                       "lowered to the LLVM dialect?)");
    return jit;
  }
  if (!record_unresolved(module, jit)) {
    mlirEmitError(loc, "out of memory while preparing the JIT");
    mlirExecutionEngineDestroy(jit);
    return (MlirExecutionEngine){NULL};
  }
  return jit;
}

static void report_unresolved(MlirStringRef name, MlirLocation loc) {
  static const char runtime_prefix[] = "coro_rt_";
  bool runtime =
      name.length >= sizeof(runtime_prefix) - 1 &&
      memcmp(name.data, runtime_prefix, sizeof(runtime_prefix) - 1) == 0;
  const char *format =
      "symbol '%.*s' is declared but defined nowhere: not in the module, "
      "not in the shared libraries given to the JIT, not in the process, "
      "and not registered with mlirExecutionEngineRegisterSymbol%s";
  const char *hint = runtime ? " (it is coro's runtime: pass the path of "
                               "libCoroRuntime.so to coroJITCreate)"
                             : "";
  size_t size = strlen(format) + name.length + strlen(hint) + 1;
  char *msg = ir_xmalloc(size);
  if (msg)
    snprintf(msg, size, format, (int)name.length, name.data, hint);
  mlirEmitError(loc, msg ? msg : "the module needs a symbol defined nowhere");
  free(msg);
}

/* Whether every symbol recorded by coroJITCreate resolves now; reports
 * each one that does not. */
static bool unresolved_resolve_now(MlirExecutionEngine jit) {
  void *recorded = mlirExecutionEngineLookup(
      jit, mlirStringRefCreateFromCString(unresolved_key));
  if (!recorded)
    return true;
  MlirAttribute items = {recorded};
  bool ok = true;
  intptr_t n = mlirArrayAttrGetNumElements(items);
  for (intptr_t i = 0; i + 1 < n; i += 2) {
    MlirStringRef name =
        mlirStringAttrGetValue(mlirArrayAttrGetElement(items, i));
    if (mlirExecutionEngineLookup(jit, name))
      continue;
    report_unresolved(
        name, mlirLocationFromAttribute(mlirArrayAttrGetElement(items, i + 1)));
    ok = false;
  }
  return ok;
}

void *coroJITLookup(MlirExecutionEngine jit, const char *name) {
  if (!unresolved_resolve_now(jit))
    return NULL;
  return mlirExecutionEngineLookup(jit, mlirStringRefCreateFromCString(name));
}
