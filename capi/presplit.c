/* presplit.c - LLVM's function simplification on a module before coro's
 * own split (route B at -O2 and -O3, on the host and on the device; see
 * capi/presplit.h and docs/route-b.md).
 *
 * LLVM's pipeline simplifies a coroutine before its CoroSplit splits it:
 * the split then sees promoted allocas, rotated loops whose exit tests
 * indvars has rewritten against the trip count, and threaded jumps. Route
 * B splits in MLIR, so at -O2 and -O3 the module takes a round trip:
 * translated to LLVM IR, through the simplification passes of LLVM's
 * default pipeline (without its coroutine passes; LLVM never inlines a
 * coroutine that is not split yet), and imported back into the LLVM
 * dialect (coro_import_llvm_module, capi/registry.cpp), where --coro-split
 * takes it as it takes any producer's coroutines. Functions the split
 * gets nothing from simplifying are left out of the trip (stash_out).
 *
 * What LLVM IR cannot carry is kept aside and put back:
 *   - the module's attributes (coro.device): the module op stays, only its
 *     body is replaced;
 *   - each function's discardable attributes (gpu.kernel), its symbol
 *     visibility and its linkage, by the function's name;
 *   - coro.elided on a call (coro-elide's decision): for the trip, the call
 *     calls a declaration NAME$coro.elided.1 (or .0) of the callee's type,
 *     which LLVM copies with the call when it inlines the caller, and NAME
 *     is external (LLVM would drop an internal function no call names);
 *     after it, the call calls NAME again with its mark;
 *   - coro.continuation_of = @R on an indirect call (the retcon and async
 *     resume entries): the call calls R$coro.continuation_of.K, its own
 *     declaration, with the callee as its first operand;
 *   - a coroutine's allocator: the calls that allocate and free its frame
 *     are not inlined during the trip (keep_calls);
 *   - the entered forms of route B's async dispatch functions, which no
 *     call names until the split: external during the trip;
 *   - locations, which LLVM IR has only as debug info: the trip carries
 *     the ops' as line tables (capi/trip_lines.h), so what the split
 *     reports afterwards is located at the op's line (an op LLVM made, at
 *     its function), and each function gets its own location back. */
#include "capi/presplit.h"
#include "capi/registry.h"
#include "capi/trip_lines.h"
#include "dialect/contract.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/cfg.h"
#include "ir/func.h"
#include "ir/support.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/CoroSplit/intrinsics.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Target/LLVMIR.h"
#include "llvm-c/Core.h"
#include "llvm-c/Error.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Transforms/PassBuilder.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The simplification LLVM's default<O2> pipeline gives each function
 * before CoroSplit (its CGSCC function pipeline and the module passes
 * before it), without CoroEarly, CoroElide, CoroSplit and the passes that
 * change a function's signature, and without those that change nothing a
 * split looks at: the module passes ipsccp and called-value-propagation,
 * and in each function aggressive-instcombine, tailcallelim,
 * reassociate, constraint-elimination, vector-combine, mldst-motion, bdce,
 * the second jump-threading and correlated-propagation, and the last licm
 * (LLVM's pipeline after the split runs them all). Left out, no frame of
 * bench/frames.sh or bench/cxx-frames.sh grows (five of the C++ suite's
 * shrink at -O2) and the trip takes 14% fewer instructions (docs/route-b.md).
 * inferattrs first, as there: the C library's functions get their
 * attributes (printf does not unwind), so that a C++ destructor that prints
 * is a single block with no landing pad and inlines even where a call site
 * is cold (an exception's path), and the object it destroys then leaves the
 * frame. */
#define SIMPLIFYCFG                                                            \
  "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"                 \
  "switch-range-to-icmp;no-switch-to-arithmetic;no-switch-to-lookup;"          \
  "keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"    \
  "simplify-cond-branch>"
#define INSTCOMBINE "instcombine<max-iterations=1;no-verify-fixpoint>"
const char coro_presplit_pipeline[] =
    "inferattrs,function<eager-inv>(lower-expect," SIMPLIFYCFG
    ",sroa<modify-cfg>,"
    "early-cse<>),globalopt,"
    "function<eager-inv>(mem2reg," INSTCOMBINE "," SIMPLIFYCFG "),"
    "always-inline,"
    "cgscc(devirt<4>(inline,function-attrs<skip-non-recursive-function-attrs>,"
    "function<eager-inv;no-rerun>(sroa<modify-cfg>,early-cse<memssa>,"
    "jump-threading,correlated-propagation," SIMPLIFYCFG "," INSTCOMBINE
    ",loop-mssa(loop-instsimplify,loop-simplifycfg,"
    "licm<no-allowspeculation>,loop-rotate<header-duplication;"
    "no-prepare-for-lto>,licm<allowspeculation>,simple-loop-unswitch<no-"
    "nontrivial;trivial>)," SIMPLIFYCFG "," INSTCOMBINE ",loop(loop-idiom,"
    "indvars,loop-deletion,loop-unroll-full),sroa<modify-cfg>,gvn<>,"
    "sccp," INSTCOMBINE ",adce,memcpyopt,dse," SIMPLIFYCFG "," INSTCOMBINE
    ")))";

#define ELIDED_SUFFIX "$coro.elided."
#define CONTINUATION_SUFFIX "$coro.continuation_of."
#define RUNS_CONTINUATION_SUFFIX "$coro.runs_continuation_of."

/* What a function carried that LLVM IR does not. */
struct kept_fn {
  char *name;
  size_t name_len;
  MlirLocation loc; /* the function's, given back to it and its ops */
  intptr_t nargs;
  MlirLocation *args; /* its entry block's arguments' */
  intptr_t n;
  MlirNamedAttribute *attrs; /* discardable ones, visibility, linkage */
};

struct kept {
  struct kept_fn *fns;
  size_t n, cap;
};

static void keep_fn(struct kept *k, MlirOperation fn) {
  static const char *const inherent[] = {"sym_visibility", "linkage"};
  intptr_t nd = mlirOperationGetNumDiscardableAttributes(fn);
  if (k->n == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 16;
    k->fns = ir_xrealloc(k->fns, k->cap * sizeof *k->fns);
  }
  struct kept_fn *f = &k->fns[k->n++];
  MlirStringRef name = ir_sym_name(fn);
  f->name = ir_xmalloc(name.length + 1);
  memcpy(f->name, name.data, name.length);
  f->name_len = name.length;
  f->loc = mlirOperationGetLocation(fn);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  f->nargs = mlirBlockIsNull(entry) ? 0 : mlirBlockGetNumArguments(entry);
  f->args = ir_xmalloc((size_t)f->nargs * sizeof *f->args);
  for (intptr_t i = 0; i < f->nargs; ++i)
    f->args[i] = mlirValueGetLocation(mlirBlockGetArgument(entry, i));
  f->attrs = ir_xmalloc((size_t)(nd + 2) * sizeof *f->attrs);
  f->n = 0;
  for (intptr_t i = 0; i < nd; ++i)
    f->attrs[f->n++] = mlirOperationGetDiscardableAttribute(fn, i);
  for (size_t i = 0; i < 2; ++i) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        fn, mlirStringRefCreateFromCString(inherent[i]));
    if (!mlirAttributeIsNull(a))
      f->attrs[f->n++] = mlirNamedAttributeGet(
          mlirIdentifierGet(mlirOperationGetContext(fn),
                            mlirStringRefCreateFromCString(inherent[i])),
          a);
  }
}

static void kept_free(struct kept *k) {
  for (size_t i = 0; i < k->n; ++i) {
    free(k->fns[i].name);
    free(k->fns[i].attrs);
    free(k->fns[i].args);
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

/* Whether `name` ends with `suffix` followed by one digit or more;
 * `digits` gets where they start. */
static bool ends_with_tag(MlirStringRef name, const char *suffix,
                          size_t *digits) {
  size_t s = strlen(suffix), d = 0;
  while (d < name.length && name.data[name.length - 1 - d] >= '0' &&
         name.data[name.length - 1 - d] <= '9')
    ++d;
  if (d == 0 || name.length < s + d + 1 ||
      memcmp(name.data + name.length - d - s, suffix, s))
    return false;
  *digits = name.length - d;
  return true;
}

/* Whether `name` is one mark_call gives a declaration. */
static bool marker_name(MlirStringRef name) {
  size_t d;
  return ends_with_tag(name, ELIDED_SUFFIX, &d) ||
         ends_with_tag(name, CONTINUATION_SUFFIX, &d) ||
         ends_with_tag(name, RUNS_CONTINUATION_SUFFIX, &d);
}

/* llvm.func @name of type `type` (an !llvm.func), with the calling
 * convention `cconv` (null: C), at the end of the table's module. */
static void declare(MlirSymbolTable table, MlirStringRef name, MlirType type,
                    MlirAttribute cconv, MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("llvm.func"), loc);
  MlirNamedAttribute attrs[4] = {
      ir_named(ctx, "sym_name", mlirStringAttrGet(ctx, name)),
      ir_named(ctx, "function_type", mlirTypeAttrGet(type)),
      ir_named(ctx, "linkage",
               mlirLLVMLinkageAttrGet(ctx, MlirLLVMLinkageExternal)),
      ir_named(ctx, "CConv", cconv)};
  mlirOperationStateAddAttributes(&st, mlirAttributeIsNull(cconv) ? 3 : 4,
                                  attrs);
  MlirRegion body = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  mlirSymbolTableInsert(table, mlirOperationCreate(&st)); /* at the end */
}

struct marking {
  MlirSymbolTable table;
  unsigned continuations; /* marker declarations made for them */
};

/* Sets the call operands of the llvm.call `op` (it has no bundle
 * operands). */
static void set_call_operands(MlirOperation op, intptr_t n,
                              const MlirValue *operands) {
  mlirOperationSetOperands(op, n, operands);
  int32_t seg[2] = {(int32_t)n, 0};
  MlirNamedAttribute a = ir_segments(mlirOperationGetContext(op), 2, seg);
  mlirOperationSetAttributeByName(op, mlirIdentifierStr(a.name), a.attribute);
}

/* An indirect call marked coro.continuation_of = @R calls, for the trip, a
 * declaration R$coro.continuation_of.K (its own K) that takes the callee
 * first: llvm.call @"R$coro.continuation_of.K"(%f, args) in the call's
 * calling convention (LLVM treats a call whose convention differs from
 * its callee's as unreachable). A direct call so marked (route B's async
 * resume entry's call of __coro_async_run_parked, CORO_ENTERED_ATTR) calls
 * R$coro.runs_continuation_of.K with its callee's address first: LLVM
 * neither inlines it nor drops what it names. */
static void mark_continuation_call(struct marking *m, MlirOperation op,
                                   MlirAttribute of) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirAttribute direct = ir_callee_attr(op);
  if (!mlirAttributeIsNull(direct)) {
    intptr_t n = mlirOperationGetNumOperands(op);
    MlirValue *ops = ir_xmalloc((size_t)(n + 1) * sizeof *ops);
    struct ir_builder b = ir_before(op);
    ops[0] = ir_addressof_ref(&b, mlirFlatSymbolRefAttrGetValue(direct));
    for (intptr_t i = 0; i < n; ++i)
      ops[i + 1] = mlirOperationGetOperand(op, i);
    set_call_operands(op, n + 1, ops);
    free(ops);
  }
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType *args = ir_xmalloc((size_t)n * sizeof *args);
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirValueGetType(mlirOperationGetOperand(op, i));
  MlirType result = mlirOperationGetNumResults(op)
                        ? mlirValueGetType(mlirOperationGetResult(op, 0))
                        : mlirLLVMVoidTypeGet(ctx);
  struct coro_str name = {0};
  MlirStringRef of_name = mlirFlatSymbolRefAttrGetValue(of);
  coro_str_append(&name, of_name.data, of_name.length);
  coro_str_appendz(&name, mlirAttributeIsNull(direct)
                              ? CONTINUATION_SUFFIX
                              : RUNS_CONTINUATION_SUFFIX);
  char k[24];
  snprintf(k, sizeof k, "%u", m->continuations++);
  coro_str_appendz(&name, k);
  MlirStringRef ref = mlirStringRefCreate(name.data, name.len);
  declare(m->table, ref, mlirLLVMFunctionTypeGet(result, n, args, false),
          mlirOperationGetAttributeByName(
              op, mlirStringRefCreateFromCString("CConv")),
          mlirOperationGetLocation(op));
  free(args);
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("callee"),
                                  mlirFlatSymbolRefAttrGet(ctx, ref));
  mlirOperationRemoveAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR));
  coro_str_free(&name);
}

/* Whether the function type `t` is that of an allocator (one integer in,
 * a ptr out) or of a deallocator (a ptr in, nothing out). */
static bool allocator_type(MlirType t) {
  if (mlirLLVMFunctionTypeGetNumInputs(t) != 1)
    return false;
  MlirType in = mlirLLVMFunctionTypeGetInput(t, 0);
  MlirType out = mlirLLVMFunctionTypeGetReturnType(t);
  return (mlirTypeIsAInteger(in) && mlirTypeIsALLVMPointerType(out)) ||
         (mlirTypeIsALLVMPointerType(in) &&
          mlirTypeEqual(out, mlirLLVMVoidTypeGet(mlirTypeGetContext(t))));
}

/* Whether `v` is llvm.coro.begin's memory operand, itself or through the
 * block argument a branch passes it to. */
static bool frame_memory(MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    unsigned k = mlirOpOperandGetOperandNumber(u);
    if (coro_intr_classify(user) == CI_BEGIN && k == 1)
      return true;
    for (intptr_t i = 0, n = mlirOperationGetNumSuccessors(user); i < n; ++i) {
      intptr_t first, count;
      if (ir_successor_operands(user, i, &first, &count) &&
          (intptr_t)k >= first && (intptr_t)k < first + count) {
        MlirValue arg = mlirBlockGetArgument(mlirOperationGetSuccessor(user, i),
                                             (intptr_t)k - first);
        for (MlirOpOperand a = mlirValueGetFirstUse(arg);
             !mlirOpOperandIsNull(a); a = mlirOpOperandGetNextUse(a))
          if (coro_intr_classify(mlirOpOperandGetOwner(a)) == CI_BEGIN &&
              mlirOpOperandGetOperandNumber(a) == 1)
            return true;
      }
    }
  }
  return false;
}

/* Whether the direct llvm.call `op` calls a function defined in `table`
 * that allocates the frame (its result is coro.begin's memory) or frees
 * it (it takes coro.free's result), as --coro-split finds a switched-resume
 * coroutine's own allocator (split_dynamic.c). Any other call inlines: a
 * C++ destructor or void method has a deallocator's type. */
static bool calls_allocator(MlirSymbolTable table, MlirOperation op) {
  if (!coro_op_named(op, "llvm.call"))
    return false;
  MlirAttribute callee = ir_callee_attr(op);
  if (mlirAttributeIsNull(callee))
    return false;
  MlirOperation fn =
      mlirSymbolTableLookup(table, mlirFlatSymbolRefAttrGetValue(callee));
  if (mlirOperationIsNull(fn) || !coro_op_named(fn, "llvm.func") ||
      mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
    return false; /* a declaration: nothing to inline */
  if (!allocator_type(mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
          fn, mlirStringRefCreateFromCString("function_type")))))
    return false;
  if (mlirOperationGetNumResults(op) == 1)
    return frame_memory(mlirOperationGetResult(op, 0));
  MlirValue arg = mlirOperationGetOperand(op, 0);
  return mlirValueIsAOpResult(arg) &&
         coro_intr_classify(mlirOpResultGetOwner(arg)) == CI_FREE;
}

/* Puts no_inline on (or takes it off) the calls `which` selects, for the
 * trip. In a coroutine, the call of a defined function that allocates or
 * frees its frame (calls_allocator) is not inlined during the trip:
 * --coro-split finds a switched-resume
 * coroutine's allocator as the callee of the call whose result coro.begin
 * takes, and gives the coroutine's dynamic allocas their memory from it.
 * Anywhere, a call of the function that makes a retcon handle is not
 * either (calls_handle_maker, below). */
struct keeping {
  MlirSymbolTable table;
  bool (*which)(MlirSymbolTable table, MlirOperation op);
  bool on;
};

static MlirWalkResult keep_calls(MlirOperation op, void *user) {
  const struct keeping *k = user;
  if (!k->which(k->table, op))
    return MlirWalkResultAdvance;
  MlirStringRef key = mlirStringRefCreateFromCString("no_inline");
  if (k->on)
    mlirOperationSetAttributeByName(
        op, key, mlirUnitAttrGet(mlirOperationGetContext(op)));
  else
    mlirOperationRemoveAttributeByName(op, key);
  return MlirWalkResultAdvance;
}

/* Whether the llvm.call `op` calls the function that makes a retcon
 * coroutine's handle (NAME, or NAME.elided for a control block in the
 * caller's memory: coro_retcon_maker). Such calls are not inlined during
 * the trip (keep_calls): --coro-split calls NAME.coro.resume directly for
 * a handle it sees come from one (split_consumers.c), which LLVM can then
 * inline, as it can the call itself after the split. Inlined during the
 * trip, the handle would be a pointer of unknown origin, resumed through
 * its header. */
static bool calls_handle_maker(MlirSymbolTable table, MlirOperation op) {
  if (!coro_op_named(op, "llvm.call"))
    return false;
  MlirAttribute callee = ir_callee_attr(op);
  MlirStringRef name;
  bool elided;
  return !mlirAttributeIsNull(callee) &&
         mlirAttributeIsAFlatSymbolRef(callee) &&
         !mlirOperationIsNull(coro_retcon_maker(
             table, mlirFlatSymbolRefAttrGetValue(callee), &name, &elided));
}

/* Whether the llvm.func `fn` is a coroutine not split yet. */
static bool presplit_coroutine(MlirOperation fn) {
  return ir_passthrough_has(fn, "presplitcoroutine");
}

/* A call marked coro.elided calls NAME$coro.elided.N for the trip. */
static MlirWalkResult mark_call(MlirOperation op, void *user) {
  struct marking *m = user;
  if (!coro_op_named(op, "llvm.call"))
    return MlirWalkResultAdvance;
  MlirAttribute callee = ir_callee_attr(op);
  MlirAttribute of = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR));
  if (!mlirAttributeIsNull(of) && mlirAttributeIsAFlatSymbolRef(of)) {
    mark_continuation_call(m, op, of);
    return MlirWalkResultAdvance;
  }
  MlirStringRef key = mlirStringRefCreateFromCString(CORO_ELIDED_ATTR);
  MlirAttribute mark = mlirOperationGetAttributeByName(op, key);
  if (mlirAttributeIsNull(mark) || !mlirAttributeIsABool(mark) ||
      mlirAttributeIsNull(callee))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  MlirOperation fn = mlirSymbolTableLookup(m->table, name);
  if (mlirOperationIsNull(fn) || !coro_op_named(fn, "llvm.func"))
    return MlirWalkResultAdvance;
  /* its calls all call the marker now: external for the trip, so that
   * LLVM does not drop it as unused (put_back restores its linkage) */
  mlirOperationSetAttributeByName(
      fn, mlirStringRefCreateFromCString("linkage"),
      mlirLLVMLinkageAttrGet(mlirOperationGetContext(op),
                             MlirLLVMLinkageExternal));
  struct coro_str decl = {0};
  elided_name(&decl, name, mlirBoolAttrGetValue(mark));
  MlirStringRef decl_ref = mlirStringRefCreate(decl.data, decl.len);
  MlirContext ctx = mlirOperationGetContext(op);
  if (mlirOperationIsNull(mlirSymbolTableLookup(m->table, decl_ref)))
    /* llvm.func @NAME$coro.elided.N(...) of the callee's type */
    declare(m->table, decl_ref,
            mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
                fn, mlirStringRefCreateFromCString("function_type"))),
            (MlirAttribute){NULL}, mlirOperationGetLocation(fn));
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("callee"),
                                  mlirFlatSymbolRefAttrGet(ctx, decl_ref));
  mlirOperationRemoveAttributeByName(op, key);
  coro_str_free(&decl);
  return MlirWalkResultAdvance;
}

/* A call of R$coro.continuation_of.K is the indirect call it was: its
 * first operand the callee, marked coro.continuation_of = @R. */
static void unmark_continuation_call(MlirOperation op, MlirStringRef of) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("llvm.call"),
                            mlirOperationGetLocation(op));
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue *ops = ir_xmalloc((size_t)n * sizeof *ops);
  for (intptr_t i = 0; i < n; ++i)
    ops[i] = mlirOperationGetOperand(op, i);
  mlirOperationStateAddOperands(&st, n, ops);
  free(ops);
  if (mlirOperationGetNumResults(op)) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    mlirOperationStateAddResults(&st, 1, &t);
  }
  intptr_t na = mlirOperationGetNumAttributes(op);
  for (intptr_t i = 0; i < na; ++i) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    if (!coro_ref_eq(mlirIdentifierStr(a.name), "callee"))
      mlirOperationStateAddAttributes(&st, 1, &a);
  }
  MlirNamedAttribute mark = ir_named(ctx, CORO_CONTINUATION_OF_ATTR,
                                     mlirFlatSymbolRefAttrGet(ctx, of));
  mlirOperationStateAddAttributes(&st, 1, &mark);
  MlirOperation call = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, call);
  if (mlirOperationGetNumResults(op))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0),
                                  mlirOperationGetResult(call, 0));
  mlirOperationDestroy(op);
}

/* A call of R$coro.runs_continuation_of.K is the direct call it was when
 * its first operand is still the address of a function, marked
 * coro.continuation_of = @R again; else (LLVM made it something else) an
 * indirect call of that operand, unmarked. */
static void unmark_direct_continuation_call(MlirOperation op,
                                            MlirStringRef of) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationRemoveAttributeByName(op,
                                     mlirStringRefCreateFromCString("callee"));
  MlirValue f = mlirOperationGetOperand(op, 0);
  MlirOperation def =
      mlirValueIsAOpResult(f) ? mlirOpResultGetOwner(f) : (MlirOperation){NULL};
  if (mlirOperationIsNull(def) || !coro_op_named(def, "llvm.mlir.addressof"))
    return;
  MlirAttribute fn = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("global_name"));
  intptr_t n = mlirOperationGetNumOperands(op) - 1;
  MlirValue *ops = ir_xmalloc((size_t)(n + 1) * sizeof *ops);
  for (intptr_t i = 0; i < n; ++i)
    ops[i] = mlirOperationGetOperand(op, i + 1);
  set_call_operands(op, n, ops);
  free(ops);
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("callee"),
                                  fn);
  mlirOperationSetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR),
      mlirFlatSymbolRefAttrGet(ctx, of));
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(f)))
    mlirOperationDestroy(def);
}

/* A call of a marker declaration is the call it was, marked again. */
static void unmark_call(MlirOperation op) {
  MlirStringRef key = mlirStringRefCreateFromCString("callee");
  MlirAttribute callee = mlirOperationGetAttributeByName(op, key);
  if (mlirAttributeIsNull(callee))
    return;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  size_t d;
  if (ends_with_tag(name, RUNS_CONTINUATION_SUFFIX, &d)) {
    unmark_direct_continuation_call(
        op,
        mlirStringRefCreate(name.data, d - strlen(RUNS_CONTINUATION_SUFFIX)));
    return;
  }
  if (ends_with_tag(name, CONTINUATION_SUFFIX, &d)) {
    unmark_continuation_call(
        op, mlirStringRefCreate(name.data, d - strlen(CONTINUATION_SUFFIX)));
    return;
  }
  if (!ends_with_tag(name, ELIDED_SUFFIX, &d) || name.length != d + 1)
    return;
  MlirContext ctx = mlirOperationGetContext(op);
  bool elided = name.data[d] == '1';
  mlirOperationSetAttributeByName(
      op, key,
      mlirFlatSymbolRefAttrGet(
          ctx, mlirStringRefCreate(name.data, d - strlen(ELIDED_SUFFIX))));
  mlirOperationSetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_ELIDED_ATTR),
      mlirBoolAttrGet(ctx, elided));
}

static MlirWalkResult collect_calls(MlirOperation op, void *user) {
  if (coro_op_named(op, "llvm.call"))
    ir_opvec_push(user, op);
  return MlirWalkResultAdvance;
}

/* Takes the functions' attributes and the calls' marks out of `module`:
 * false after an error (a symbol of the module has a marker's name). */
static bool take_out(MlirOperation module, struct kept *k) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirStringRef sym = mlirStringRefCreateFromCString("sym_name");
  struct marking m = {.table = mlirSymbolTableCreate(module)};
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name = mlirOperationGetAttributeByName(op, sym);
    if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name) &&
        marker_name(mlirStringAttrGetValue(name))) {
      mlirEmitError(mlirOperationGetLocation(op),
                    "this symbol's name ends as those of the declarations that "
                    "carry coro's marks on calls through LLVM's pre-split "
                    "passes (at -O2 and -O3): rename it");
      ok = false;
    }
    if (!coro_op_named(op, "llvm.func"))
      continue;
    keep_fn(k, op);
    struct keeping alloc = {m.table, calls_allocator, true};
    if (presplit_coroutine(op))
      mlirOperationWalk(op, keep_calls, &alloc, MlirWalkPreOrder);
  }
  /* a dispatch function's entered form (CORO_ENTERED_ATTR) is named by
   * no call until the split: external for the trip, so that LLVM keeps it
   * (put_back restores its linkage) */
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute e =
        coro_op_named(op, "llvm.func")
            ? mlirOperationGetDiscardableAttributeByName(
                  op, mlirStringRefCreateFromCString(CORO_ENTERED_ATTR))
            : (MlirAttribute){NULL};
    MlirOperation form =
        !mlirAttributeIsNull(e) && mlirAttributeIsAFlatSymbolRef(e)
            ? mlirSymbolTableLookup(m.table, mlirFlatSymbolRefAttrGetValue(e))
            : (MlirOperation){NULL};
    if (!mlirOperationIsNull(form) && coro_op_named(form, "llvm.func"))
      mlirOperationSetAttributeByName(
          form, mlirStringRefCreateFromCString("linkage"),
          mlirLLVMLinkageAttrGet(mlirOperationGetContext(op),
                                 MlirLLVMLinkageExternal));
  }
  if (ok) {
    struct keeping makers = {m.table, calls_handle_maker, true};
    mlirOperationWalk(module, keep_calls, &makers, MlirWalkPreOrder);
    mlirOperationWalk(module, mark_call, &m, MlirWalkPreOrder);
  }
  mlirSymbolTableDestroy(m.table);
  return ok;
}

/* Puts them back into the imported body of `module`. */
static void put_back(MlirOperation module, const struct kept *k) {
  struct ir_opvec calls = {0}; /* a call may be replaced: collect first */
  mlirOperationWalk(module, collect_calls, &calls, MlirWalkPreOrder);
  for (size_t i = 0; i < calls.n; ++i)
    unmark_call(calls.v[i]);
  free(calls.v);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  struct keeping makers = {table, calls_handle_maker, false};
  mlirOperationWalk(module, keep_calls, &makers, MlirWalkPreOrder);
  struct keeping alloc = {table, calls_allocator, false};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    bool fn = coro_op_named(op, "llvm.func");
    if (fn && marker_name(ir_sym_name(op)))
      mlirSymbolTableErase(table, op); /* no call is left that calls it */
    else if (fn && presplit_coroutine(op))
      mlirOperationWalk(op, keep_calls, &alloc, MlirWalkPreOrder);
    op = next;
  }
  for (size_t i = 0; i < k->n; ++i) {
    const struct kept_fn *f = &k->fns[i];
    MlirOperation fn =
        mlirSymbolTableLookup(table, mlirStringRefCreate(f->name, f->name_len));
    if (mlirOperationIsNull(fn))
      continue; /* inlined everywhere and dropped */
    for (intptr_t j = 0; j < f->n; ++j)
      mlirOperationSetAttributeByName(fn, mlirIdentifierStr(f->attrs[j].name),
                                      f->attrs[j].attribute);
    /* the function's location as written before the trip, its ops' as
     * the trip's line tables carried them (else the function's) */
    coro_trip_lines_restore(fn, f->loc, f->nargs, f->args);
  }
  mlirSymbolTableDestroy(table);
}

/* Whether the function or global `op` has external linkage (a
 * function's default). */
static bool external_linkage(MlirOperation op) {
  MlirAttribute l = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("linkage"));
  if (mlirAttributeIsNull(l))
    return coro_op_named(op, "llvm.func");
  return mlirAttributeEqual(l,
                            mlirLLVMLinkageAttrGet(mlirOperationGetContext(op),
                                                   MlirLLVMLinkageExternal));
}

/* Edges between functions, listed by their source: the edges from `f`
 * are first[f] - 1, then next[k] - 1 ... (0 ends). */
struct edges {
  struct ir_ptrmap first;
  struct ir_opvec to;
  size_t *next;
  size_t cap;
};

static void edges_add(struct edges *e, MlirOperation from, MlirOperation to) {
  if (e->to.n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 64;
    e->next = ir_xrealloc(e->next, e->cap * sizeof *e->next);
  }
  e->next[e->to.n] = (size_t)(uintptr_t)ir_ptrmap_find(&e->first, from.ptr);
  ir_opvec_push(&e->to, to);
  ir_ptrmap_put(&e->first, from.ptr, (void *)(uintptr_t)e->to.n);
}

/* Marks in `mark` (as 1) what the edges reach from the functions of
 * `work` (marked already), emptying `work`. */
static void edges_spread(const struct edges *e, struct ir_ptrmap *mark,
                         struct ir_opvec *work) {
  while (work->n) {
    MlirOperation f = work->v[--work->n];
    for (size_t k = (size_t)(uintptr_t)ir_ptrmap_find(&e->first, f.ptr); k;
         k = e->next[k - 1]) {
      MlirOperation g = e->to.v[k - 1];
      if (!ir_ptrmap_find(mark, g.ptr)) {
        ir_ptrmap_put(mark, g.ptr, (void *)1);
        ir_opvec_push(work, g);
      }
    }
  }
}

static void edges_free(struct edges *e) {
  ir_ptrmap_free(&e->first);
  free(e->to.v);
  free(e->next);
}

/* What `op` calls by name: an llvm.call's callee, an llvm.call_intrinsic's
 * intrinsic (empty for another op). An intrinsic op (llvm.intr.coro.id)
 * is named by the op itself. */
static MlirStringRef called_name(MlirOperation op) {
  if (!coro_op_named(op, "llvm.call_intrinsic"))
    return ir_callee(op);
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("intrin"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a)
             ? mlirStringAttrGetValue(a)
             : mlirStringRefCreate("", 0);
}

static bool has_prefix(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length > n && !memcmp(s.data, prefix, n);
}

/* Whether `op` calls a coroutine intrinsic: llvm.call of llvm.coro.*,
 * llvm.call_intrinsic "llvm.coro.*", or an llvm.intr.coro.* op. */
static bool calls_coro_intrinsic(MlirOperation op) {
  return has_prefix(mlirIdentifierStr(mlirOperationGetName(op)),
                    "llvm.intr.coro.") ||
         has_prefix(called_name(op), "llvm.coro.");
}

static bool defined(MlirOperation fn);
static bool presplit_coroutine(MlirOperation fn);

/* The functions, no coroutines, from which a coroutine intrinsic can be
 * reached: those that call one, and their callers through functions
 * defined here that are no coroutines (`yes`, each 1). What the split
 * lowers outside coroutines is such intrinsics (a resume, a done, a
 * promise of a handle): a function from which none can be reached gets
 * nothing from the trip, even when it names a coroutine (the retcon and
 * async conversions' handle makers and entries, which call the ramp and
 * the continuations themselves). */
struct reaching {
  MlirSymbolTable table;
  MlirOperation fn;
  bool calls;
  struct edges callers; /* callee -> caller */
};

static MlirWalkResult reach_op(MlirOperation op, void *user) {
  struct reaching *w = user;
  if (calls_coro_intrinsic(op)) {
    w->calls = true;
    return MlirWalkResultAdvance;
  }
  MlirAttribute callee = ir_callee_attr(op);
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return MlirWalkResultAdvance;
  MlirOperation g =
      mlirSymbolTableLookup(w->table, mlirFlatSymbolRefAttrGetValue(callee));
  if (!mlirOperationIsNull(g) && coro_op_named(g, "llvm.func") && defined(g) &&
      !presplit_coroutine(g))
    edges_add(&w->callers, g, w->fn);
  return MlirWalkResultAdvance;
}

static void reaching_intrinsics(MlirBlock body, MlirSymbolTable table,
                                struct ir_ptrmap *yes) {
  struct reaching w = {.table = table};
  struct ir_opvec work = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coro_op_named(op, "llvm.func") || !defined(op) ||
        presplit_coroutine(op))
      continue;
    w.fn = op;
    w.calls = false;
    mlirOperationWalk(op, reach_op, &w, MlirWalkPreOrder);
    if (w.calls) {
      ir_ptrmap_put(yes, op.ptr, (void *)1);
      ir_opvec_push(&work, op);
    }
  }
  edges_spread(&w.callers, yes, &work);
  edges_free(&w.callers);
  free(work.v);
}

/* The functions the trip leaves out. It simplifies the coroutines, the
 * functions that name a switch coroutine and can reach a coroutine
 * intrinsic (its consumers, whose resumes the split can call directly
 * once it sees where their handles come from) and what those reach (a
 * callee can be inlined into them); any other function (a module's
 * @main, the callers of its consumers, the retcon and async conversions'
 * handle makers and entries) gets nothing from it that LLVM's pipeline
 * after the split does not give it again, so translating, simplifying
 * and importing it would be work done twice, and inlining every consumer
 * into @main before the split the most costly of it. A function left out
 * is a declaration for the trip and itself again after it, untouched
 * (its locations too). A function is left out only when each of its
 * references names an external function or global or a function left out
 * too: LLVM could otherwise drop or fold an internal one that only the
 * trip's functions use. */
struct stash {
  MlirOperation *fns; /* out of the module, their bodies in `bodies` */
  MlirRegion *bodies;
  size_t n;
  /* copies of the declarations they name, which the trip may drop as
   * unused */
  struct ir_opvec decls;
};

/* A walk over the symbol references of a function (visit_refs), asking
 * `visit` of each; `answer` is what the visitors below found. */
struct refs {
  bool (*visit)(struct refs *r, MlirStringRef name);
  MlirSymbolTable table;
  struct ir_ptrmap *needed;
  struct ir_opvec *work;
  bool answer;           /* find_coroutine's, check_external's */
  struct ir_ptrmap seen; /* declarations found by check_external */
  struct ir_opvec decls; /* and copied */
  struct ir_ptrmap kind; /* find_coroutine's: 1 switch, 2 not */
  /* check_external: the function whose references are visited, and the
   * functions it may be left out with (`leave`: 1 for each candidate) */
  MlirOperation fn;
  struct ir_ptrmap *leave;
  struct edges *with;
};

/* Calls `visit` with the root name of every symbol reference of `op` (a
 * walk's callback), until it returns false. An LLVM-dialect op names a
 * symbol in one of a few attributes (a call's or invoke's callee,
 * addressof's global, dso_local_equivalent's function, a function's
 * personality and comdat); llvm.blockaddress, which names one inside an
 * attribute of its own, is visited as a name no symbol has (it keeps its
 * function in the trip). */
static MlirWalkResult visit_refs(MlirOperation op, void *user) {
  static const char *const names[] = {"callee", "global_name", "function_name",
                                      "personality", "comdat"};
  struct refs *r = user;
  if (coro_op_named(op, "llvm.blockaddress"))
    return r->visit(r, mlirStringRefCreate("", 0)) ? MlirWalkResultAdvance
                                                   : MlirWalkResultInterrupt;
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString(names[i]));
    if (!mlirAttributeIsNull(a) && mlirAttributeIsASymbolRef(a) &&
        !r->visit(r, mlirSymbolRefAttrGetRootReference(a)))
      return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool defined(MlirOperation fn) {
  return !mlirBlockIsNull(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0)));
}

/* A function a needed one names is needed. */
static bool mark_needed(struct refs *r, MlirStringRef name) {
  MlirOperation fn = mlirSymbolTableLookup(r->table, name);
  if (!mlirOperationIsNull(fn) && coro_op_named(fn, "llvm.func") &&
      defined(fn) && !ir_ptrmap_find(r->needed, fn.ptr)) {
    ir_ptrmap_put(r->needed, fn.ptr, (void *)1);
    ir_opvec_push(r->work, fn);
  }
  return true;
}

/* Whether the coroutine `fn` is of the switch ABI (its entry block has
 * llvm.coro.id, where every producer puts it): a call of it returns the
 * handle that resumes and destroys take. A retcon ramp returns its
 * continuation, an async function nothing; who calls them gets nothing
 * the split can use from the trip. */
static bool switch_coroutine(MlirOperation fn) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "llvm.intr.coro.id") ||
        coro_ref_eq(called_name(op), "llvm.coro.id"))
      return true;
  return false;
}

/* Whether `name` is a coroutine of the switch ABI not split yet
 * (r->answer; stops there). */
static bool find_coroutine(struct refs *r, MlirStringRef name) {
  MlirOperation fn = mlirSymbolTableLookup(r->table, name);
  if (mlirOperationIsNull(fn) || !coro_op_named(fn, "llvm.func"))
    return !(r->answer = false);
  /* asked once per consumer: each coroutine is looked at once */
  uintptr_t k = (uintptr_t)ir_ptrmap_find(&r->kind, fn.ptr);
  if (!k) {
    k = presplit_coroutine(fn) && switch_coroutine(fn) ? 1 : 2;
    ir_ptrmap_put(&r->kind, fn.ptr, (void *)k);
  }
  r->answer = k == 1;
  return !r->answer;
}

/* Whether `name` is an external function or global, or a function left
 * out (a candidate r->leave holds: then r->fn goes with it, an edge of
 * r->with). */
static bool check_external(struct refs *r, MlirStringRef name) {
  MlirOperation op = mlirSymbolTableLookup(r->table, name);
  bool fn = !mlirOperationIsNull(op) && coro_op_named(op, "llvm.func");
  if (fn && r->leave && ir_ptrmap_find(r->leave, op.ptr) &&
      !external_linkage(op)) {
    edges_add(r->with, op, r->fn);
    return r->answer = true;
  }
  if (!fn &&
      (mlirOperationIsNull(op) || !coro_op_named(op, "llvm.mlir.global")))
    return r->answer = false;
  /* a declaration: no body (a global's: no value either) */
  bool decl = !defined(op) &&
              (fn || mlirAttributeIsNull(mlirOperationGetAttributeByName(
                         op, mlirStringRefCreateFromCString("value"))));
  if (decl && !ir_ptrmap_find(&r->seen, op.ptr)) {
    ir_ptrmap_put(&r->seen, op.ptr, (void *)1);
    ir_opvec_push(&r->decls, mlirOperationClone(op));
  }
  return r->answer = external_linkage(op);
}

/* Whether the trip does something for the consumer `fn` that the split
 * can use: inline a call of a function defined here that is no coroutine
 * (which may show where a handle comes from) or promote an alloca (a
 * handle kept in memory, as clang keeps them, becomes a value). */
struct simplifiable {
  MlirSymbolTable table;
  bool yes;
};

static MlirWalkResult simplifiable_op(MlirOperation op, void *user) {
  struct simplifiable *w = user;
  MlirAttribute callee = ir_callee_attr(op);
  if (coro_op_named(op, "llvm.alloca")) {
    w->yes = true;
  } else if (!mlirAttributeIsNull(callee)) {
    MlirOperation fn =
        mlirSymbolTableLookup(w->table, mlirFlatSymbolRefAttrGetValue(callee));
    w->yes = !mlirOperationIsNull(fn) && coro_op_named(fn, "llvm.func") &&
             defined(fn) && !presplit_coroutine(fn);
  }
  return w->yes ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

/* Takes the functions the trip leaves out out of `module`, a declaration
 * (external for the trip) in place of each. */
static void stash_out(MlirOperation module, struct stash *s) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  struct ir_ptrmap needed = {0};
  struct ir_opvec work = {0};
  struct refs r = {
      .table = mlirSymbolTableCreate(module), .needed = &needed, .work = &work};
  /* the coroutines, the functions that name one and that the trip can
   * simplify for the split (a consumer whose handle's origin the split
   * sees once the trip has inlined what it calls or promoted where it
   * keeps the handle: its resumes become direct calls) and what they
   * name */
  struct ir_ptrmap reach = {0};
  reaching_intrinsics(body, r.table, &reach);
  r.visit = find_coroutine;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coro_op_named(op, "llvm.func") || !defined(op))
      continue;
    r.answer = presplit_coroutine(op);
    if (!r.answer && ir_ptrmap_find(&reach, op.ptr)) {
      struct simplifiable w = {.table = r.table};
      mlirOperationWalk(op, simplifiable_op, &w, MlirWalkPreOrder);
      if (w.yes)
        mlirOperationWalk(op, visit_refs, &r, MlirWalkPreOrder);
    }
    if (r.answer) {
      ir_ptrmap_put(&needed, op.ptr, (void *)1);
      ir_opvec_push(&work, op);
    }
  }
  r.visit = mark_needed;
  while (work.n)
    mlirOperationWalk(work.v[--work.n], visit_refs, &r, MlirWalkPreOrder);
  /* the others are left out unless one names a symbol that is neither
   * external nor left out itself; one that stays keeps those that name it
   * (when it is not external) */
  struct ir_ptrmap leave = {0}, stays = {0};
  struct ir_opvec cands = {0};
  struct edges with = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (coro_op_named(op, "llvm.func") && defined(op) &&
        !ir_ptrmap_find(&needed, op.ptr)) {
      ir_ptrmap_put(&leave, op.ptr, (void *)1);
      ir_opvec_push(&cands, op);
    }
  }
  r.visit = check_external;
  r.leave = &leave;
  r.with = &with;
  for (size_t i = 0; i < cands.n; ++i) {
    r.fn = cands.v[i];
    r.answer = true;
    mlirOperationWalk(r.fn, visit_refs, &r, MlirWalkPreOrder);
    if (!r.answer) {
      ir_ptrmap_put(&stays, r.fn.ptr, (void *)1);
      ir_opvec_push(&work, r.fn);
    }
  }
  edges_spread(&with, &stays, &work);
  struct ir_opvec out = {0};
  for (size_t i = 0; i < cands.n; ++i)
    if (!ir_ptrmap_find(&stays, cands.v[i].ptr))
      ir_opvec_push(&out, cands.v[i]);
  edges_free(&with);
  ir_ptrmap_free(&leave);
  ir_ptrmap_free(&stays);
  ir_ptrmap_free(&reach);
  free(cands.v);
  mlirSymbolTableDestroy(r.table);
  ir_ptrmap_free(&r.seen);
  ir_ptrmap_free(&r.kind);
  s->decls = r.decls;
  ir_ptrmap_free(&needed);
  free(work.v);
  s->fns = ir_xmalloc((out.n + 1) * sizeof *s->fns);
  s->bodies = ir_xmalloc((out.n + 1) * sizeof *s->bodies);
  for (size_t i = 0; i < out.n; ++i) {
    MlirOperation fn = out.v[i];
    MlirRegion kept = mlirRegionCreate();
    mlirRegionTakeBody(kept, mlirOperationGetRegion(fn, 0));
    MlirOperation decl = mlirOperationClone(fn); /* bodiless: cheap */
    mlirOperationSetAttributeByName(
        decl, mlirStringRefCreateFromCString("linkage"),
        mlirLLVMLinkageAttrGet(mlirOperationGetContext(fn),
                               MlirLLVMLinkageExternal));
    mlirBlockInsertOwnedOperationBefore(body, fn, decl);
    mlirOperationRemoveFromParent(fn);
    s->fns[s->n] = fn;
    s->bodies[s->n++] = kept;
  }
  free(out.v);
}

/* Puts the functions stash_out took back in place of their declarations
 * (at the end of the module where the trip dropped one). */
static void stash_in(MlirOperation module, struct stash *s) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  for (size_t i = 0; i < s->n; ++i) {
    MlirOperation fn = s->fns[i];
    mlirRegionTakeBody(mlirOperationGetRegion(fn, 0), s->bodies[i]);
    mlirRegionDestroy(s->bodies[i]);
    MlirOperation decl = mlirSymbolTableLookup(table, ir_sym_name(fn));
    if (mlirOperationIsNull(decl)) {
      mlirBlockAppendOwnedOperation(body, fn);
      continue;
    }
    mlirBlockInsertOwnedOperationBefore(body, decl, fn);
    mlirSymbolTableErase(table, decl);
  }
  for (size_t i = 0; i < s->decls.n; ++i) {
    MlirOperation decl = s->decls.v[i];
    if (mlirOperationIsNull(mlirSymbolTableLookup(table, ir_sym_name(decl))))
      mlirBlockAppendOwnedOperation(body, decl);
    else
      mlirOperationDestroy(decl);
  }
  free(s->decls.v);
  mlirSymbolTableDestroy(table);
  free(s->fns);
  free(s->bodies);
  *s = (struct stash){0};
}

/* clang makes each await_suspend wrapper without the target attributes of
 * its coroutine (target-cpu, target-features, tune-cpu), and LLVM inlines
 * no callee into a caller that lacks the callee's target features: the
 * wrapper would stay a call of await_suspend, which may keep the awaiter's
 * address, so the split would keep every awaiter in the frame across its
 * suspension. The split makes the wrapper a call in its coroutine's parts,
 * which have those attributes, so for the trip it gets its coroutine's:
 * await_suspend is inlined into it, and LLVM's function-attrs then marks
 * the awaiter llvm.nocapture where the wrapper keeps no pointer to it
 * (suspend_crossing.c leaves such an awaiter out of the frame when nothing
 * after the suspension reads it). */
struct wrapper_targets {
  MlirSymbolTable table;
  MlirOperation coroutine;
};

static MlirWalkResult give_wrapper_targets(MlirOperation op, void *user) {
  static const char *const names[] = {"target_cpu", "target_features",
                                      "tune_cpu"};
  struct wrapper_targets *w = user;
  MlirStringRef callee = called_name(op);
  if (!has_prefix(callee, "llvm.coro.await.suspend.") ||
      mlirOperationGetNumOperands(op) < 3)
    return MlirWalkResultAdvance;
  MlirOperation fn = ir_llvm_func_of(w->table, mlirOperationGetOperand(op, 2));
  if (mlirOperationIsNull(fn) || !defined(fn))
    return MlirWalkResultAdvance;
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
    MlirStringRef n = mlirStringRefCreateFromCString(names[i]);
    if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(fn, n)))
      return MlirWalkResultAdvance; /* the wrapper has its own */
  }
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
    MlirStringRef n = mlirStringRefCreateFromCString(names[i]);
    MlirAttribute a = mlirOperationGetAttributeByName(w->coroutine, n);
    if (!mlirAttributeIsNull(a))
      mlirOperationSetAttributeByName(fn, n, a);
  }
  return MlirWalkResultAdvance;
}

static void wrappers_take_targets(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  struct wrapper_targets w = {.table = mlirSymbolTableCreate(module)};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "llvm.func") && defined(op) &&
        presplit_coroutine(op)) {
      w.coroutine = op;
      mlirOperationWalk(op, give_wrapper_targets, &w, MlirWalkPreOrder);
    }
  mlirSymbolTableDestroy(w.table);
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

static MlirLogicalResult swallow(MlirDiagnostic d, void *user) {
  (void)d;
  (void)user;
  return mlirLogicalResultSuccess(); /* handled: not printed */
}

bool coro_presplit_optimize(MlirModule module, LLVMTargetMachineRef tm) {
  MlirOperation op = mlirModuleGetOperation(module);
  MlirContext ctx = mlirModuleGetContext(module);
  struct kept k = {0};
  struct stash s = {0};
  stash_out(op, &s);
  wrappers_take_targets(op);
  bool ok = take_out(op, &k);
  bool had_flags = ok && coro_trip_lines_add(op);
  LLVMContextRef llctx = ok ? LLVMContextCreate() : NULL;
  LLVMModuleRef m = NULL;
  if (ok) {
    /* LLVM IR cannot express every module --coro-split takes (an
     * intrinsic in a spelling only the split accepts): such a module is
     * split as it is, without the trip, and without the translation's
     * errors */
    MlirDiagnosticHandlerID quiet =
        mlirContextAttachDiagnosticHandler(ctx, swallow, NULL, NULL);
    m = coro_translate_for_target(op, llctx, tm);
    mlirContextDetachDiagnosticHandler(ctx, quiet);
    if (!m)
      put_back(op, &k);
  }
  /* the target's costs steer indvars and the unroller */
  if (ok && m)
    ok = coro_target_and_run(module, m, tm, coro_presplit_pipeline);
  if (ok && m) {
    /* the importer would turn the data layout into DLTI attributes (and
     * warn of the tokens it has none for); the translation after the
     * split sets the target again */
    LLVMSetDataLayout(m, "");
    LLVMSetTarget(m, "");
    MlirDiagnosticHandlerID quiet =
        mlirContextAttachDiagnosticHandler(ctx, swallow, NULL, NULL);
    MlirOperation imported = coro_import_llvm_module(m, ctx);
    mlirContextDetachDiagnosticHandler(ctx, quiet);
    m = NULL; /* taken */
    if (!mlirOperationIsNull(imported)) {
      take_body(op, imported);
      if (!had_flags) /* the translation's, for the line tables */
        coro_trip_lines_drop_flags(op);
    }
    /* else (what the importer cannot read back) split the module as it is */
    put_back(op, &k);
  }
  stash_in(op, &s);
  if (m)
    LLVMDisposeModule(m);
  if (llctx)
    LLVMContextDispose(llctx);
  kept_free(&k);
  return ok;
}
