/* misuse_checks.c - --coro-misuse-checks, the checked mode: misuse of a
 * coroutine at run time traps with a message naming it, instead of
 * corrupting memory.
 *
 * It runs on the coro dialect, after coro-verify and before any
 * conversion, so one pass serves every ABI and both routes. It adds:
 *
 *   before each coro.resume %h:
 *     scf.if (coro.done %h) { report "resuming 'NAME' after it ended" }
 *   coro.group_add and coro.group_destroy become their runtime calls,
 *   reporting when the runtime refuses ("task 'NAME' added to a second
 *   group", "group destroyed with tasks pending");
 *   in a coroutine with a yield whose destroy flag is used, a flag slot
 *   (llvm.alloca i1 right after coro.begin, so it lives in the frame),
 *   false at first and set once such a yield's flag is true; then before
 *   each coro.yield of that coroutine:
 *     scf.if (load slot) { report "'NAME' yields again after coro.destroy" }
 *
 * A yield whose flag is unused is checked but records nothing: the
 * lowering takes such a yield straight to the coroutine's end when it is
 * destroyed, and using its flag here would change that. A report is a call
 * of the module's `__coro_misuse(msg, len)`, which writes
 * "coro: WHAT (OP at FILE:LINE:COL)\n" to stderr with write(2) and traps.
 *
 * Use after destroy: each coro.destroy records its handle in the module's
 * table TABLE (a slot per hash of the handle), each coro.begin clears its
 * handle's slot, and before coro.resume/promise/done/await/destroy a
 * handle found there is reported ("resuming 'NAME' after coro.destroy"),
 * reading the table only, never the freed frame. */
#include "transforms/misuse_checks.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "dialect/handle_origin.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#define REPORT_FN "__coro_misuse"
#define MSG_PREFIX "__coro_misuse_msg_"
#define TABLE "__coro_destroyed_handles"
/* The table's slots: a destroyed handle is kept in slot
 * ((h >> 4) ^ (h >> 20)) mod TABLE_SLOTS until a coroutine begins at the
 * same address or a later destroyed handle takes the slot. */
enum { TABLE_SLOTS = 65536 };

struct checks {
  MlirOperation module;
  struct ir_opvec resumes, yields, groups;
  struct ir_opvec uses;   /* coro.resume/promise/done/await/destroy */
  struct ir_opvec begins; /* coro.begin */
  unsigned messages;      /* message globals made so far */
};

/* The uses of a handle checked against the table of destroyed handles,
 * and how a report names each: "<what>'NAME'<when>". */
static const struct {
  const char *op, *what, *when;
} uses_checked[] = {
    {"coro.resume", "resuming ", " after coro.destroy"},
    {"coro.promise", "reading the promise of ", " after coro.destroy"},
    {"coro.done", "asking whether ", " has ended after coro.destroy"},
    {"coro.await", "awaiting ", " after coro.destroy"},
    {"coro.destroy", "destroying ", " again after coro.destroy"},
};
enum { N_USES_CHECKED = sizeof uses_checked / sizeof *uses_checked };

/* The row of uses_checked for `op`, or N_USES_CHECKED. */
static size_t use_kind(MlirOperation op) {
  size_t i = 0;
  while (i < N_USES_CHECKED && !coro_op_named(op, uses_checked[i].op))
    ++i;
  return i;
}

static MlirWalkResult collect(MlirOperation op, void *user) {
  struct checks *c = user;
  if (use_kind(op) < N_USES_CHECKED)
    ir_opvec_push(&c->uses, op);
  else if (coro_op_named(op, "coro.begin"))
    ir_opvec_push(&c->begins, op);
  if (coro_op_named(op, "coro.resume"))
    ir_opvec_push(&c->resumes, op);
  else if (coro_op_named(op, "coro.yield"))
    ir_opvec_push(&c->yields, op);
  else if (coro_op_named(op, "coro.group_add") ||
           coro_op_named(op, "coro.group_destroy"))
    ir_opvec_push(&c->groups, op);
  return MlirWalkResultAdvance;
}

/* The function's symbol name, or `fallback`. */
static MlirStringRef func_name(MlirOperation func, const char *fallback) {
  if (!mlirOperationIsNull(func)) {
    MlirAttribute n = mlirOperationGetAttributeByName(
        func, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(n) && mlirAttributeIsAString(n))
      return mlirStringAttrGetValue(n);
  }
  return mlirStringRefCreateFromCString(fallback);
}

/* "coro: <what> (<op> at FILE:LINE:COL)\n" */
static struct coro_str message(MlirOperation op, const char *before,
                               MlirStringRef name, const char *after) {
  struct coro_str m = {0};
  coro_str_appendz(&m, "coro: ");
  coro_str_appendz(&m, before);
  coro_str_append(&m, name.data, name.length);
  coro_str_appendz(&m, after);
  coro_str_appendz(&m, " (");
  MlirStringRef opname = coro_op_name(op);
  coro_str_append(&m, opname.data, opname.length);
  MlirStringRef file;
  unsigned line, col;
  if (coro_location_file_line_col(mlirOperationGetLocation(op), &file, &line,
                                  &col)) {
    char pos[32];
    snprintf(pos, sizeof pos, ":%u:%u", line, col);
    coro_str_appendz(&m, " at ");
    coro_str_append(&m, file.data, file.length);
    coro_str_appendz(&m, pos);
  }
  coro_str_appendz(&m, ")\n");
  return m;
}

/* A fresh name MSG_PREFIX<k> not taken in the module. */
static struct coro_str fresh_name(struct checks *c) {
  for (;;) {
    struct coro_str n = {0};
    char k[24];
    snprintf(k, sizeof k, "%u", c->messages++);
    coro_str_appendz(&n, MSG_PREFIX);
    coro_str_appendz(&n, k);
    if (mlirOperationIsNull(
            coro_lookup_symbol(c->module, mlirStringRefCreate(n.data, n.len))))
      return n;
    coro_str_free(&n);
  }
}

/* llvm.mlir.global internal constant @NAME("text") : !llvm.array<N x i8> */
static void string_global(MlirOperation module, const struct coro_str *name,
                          const struct coro_str *text, MlirLocation loc) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType arr = mlirLLVMArrayTypeGet(ir_int_type(ctx, 8), (unsigned)text->len);
  struct ir_global_spec spec = {
      .name = mlirStringRefCreate(name->data, name->len),
      .type = arr,
      .linkage = MlirLLVMLinkageInternal,
      .constant = true,
      .value =
          mlirStringAttrGet(ctx, mlirStringRefCreate(text->data, text->len))};
  ir_llvm_global(module, &spec, loc);
}

/* The write(2) the report calls: declared when the module has no symbol
 * `write`, reused when it is an llvm.func of that type; anything else is an
 * error at `at`. */
static bool ensure_write(MlirOperation module, MlirOperation at) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType i32 = ir_int_type(ctx, 32), i64 = ir_int_type(ctx, 64),
           ptr = ir_ptr_type(ctx);
  MlirType args[3] = {i32, ptr, i64};
  MlirType want = mlirLLVMFunctionTypeGet(i64, 3, args, false);
  MlirOperation w =
      coro_lookup_symbol(module, mlirStringRefCreateFromCString("write"));
  if (mlirOperationIsNull(w)) {
    struct ir_func_spec spec = {
        .name = "write", .result = i64, .nargs = 3, .args = args};
    ir_llvm_func(module, &spec, true, mlirOperationGetLocation(at));
    return true;
  }
  MlirAttribute t = mlirOperationGetAttributeByName(
      w, mlirStringRefCreateFromCString("function_type"));
  if (coro_op_named(w, "llvm.func") && !mlirAttributeIsNull(t) &&
      mlirTypeEqual(mlirTypeAttrGetValue(t), want))
    return true;
  ir_emit_error(w, "the checked mode (--coro-misuse-checks) reports through "
                   "write(2) and needs the symbol 'write' for it: this one is "
                   "not an llvm.func of type !llvm.func<i64 (i32, ptr, i64)>");
  return false;
}

/*   llvm.func internal @__coro_misuse(%msg: !llvm.ptr, %len: i64) {
 *     llvm.call @write(2, %msg, %len)
 *     llvm.intr.trap
 *     llvm.unreachable
 *   } */
static bool ensure_report(MlirOperation module, MlirOperation at) {
  MlirOperation f =
      coro_lookup_symbol(module, mlirStringRefCreateFromCString(REPORT_FN));
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType args[2] = {ir_ptr_type(ctx), ir_int_type(ctx, 64)};
  if (!mlirOperationIsNull(f)) {
    /* made by an earlier run of this pass */
    MlirAttribute t = mlirOperationGetAttributeByName(
        f, mlirStringRefCreateFromCString("function_type"));
    MlirType want =
        mlirLLVMFunctionTypeGet(mlirLLVMVoidTypeGet(ctx), 2, args, false);
    if (coro_op_named(f, "llvm.func") && !mlirAttributeIsNull(t) &&
        mlirTypeEqual(mlirTypeAttrGetValue(t), want))
      return true;
    mlirEmitError(
        mlirOperationGetLocation(f),
        "the checked mode (--coro-misuse-checks) needs the symbol '" REPORT_FN
        "' for its report function, but the module defines it");
    return false;
  }
  if (!ensure_write(module, at))
    return false;
  struct ir_func_spec spec = {.name = REPORT_FN,
                              .nargs = 2,
                              .args = args,
                              .linkage = MlirLLVMLinkageInternal};
  MlirLocation loc = ir_generated_loc(mlirOperationGetLocation(at), REPORT_FN);
  f = ir_llvm_func(module, &spec, false, loc);
  MlirBlock entry = ir_func_entry(f);
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue wargs[3] = {ir_const_int(&b, 32, 2), mlirBlockGetArgument(entry, 0),
                        mlirBlockGetArgument(entry, 1)};
  ir_call(&b, ir_sym_ref(ctx, "write"), false, 3, wargs, args[1]);
  ir_val(&b, "llvm.intr.trap", 0, NULL, (MlirType){NULL});
  ir_val(&b, "llvm.unreachable", 0, NULL, (MlirType){NULL});
  return true;
}

/* Before `op`: scf.if %bad { __coro_misuse(@msg, len) }. */
static void report_if(struct checks *c, MlirOperation op, MlirValue bad,
                      struct coro_str *text) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  struct coro_str name = fresh_name(c);
  string_global(c->module, &name, text, loc);

  MlirRegion then = mlirRegionCreate(), other = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(then, body);
  struct ir_builder t = ir_at_end(body, loc);
  MlirValue args[2] = {ir_addressof(&t, coro_str_cstr(&name)),
                       ir_const_int(&t, 64, (long long)text->len)};
  ir_call(&t, ir_sym_ref(ctx, REPORT_FN), false, 2, args, (MlirType){NULL});
  ir_op(&t, "scf.yield", 0, NULL, 0, NULL, 0, NULL, 0, NULL);

  MlirOperationState s =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.if"), loc);
  mlirOperationStateAddOperands(&s, 1, &bad);
  MlirRegion regions[2] = {then, other};
  mlirOperationStateAddOwnedRegions(&s, 2, regions);
  MlirOperation i = mlirOperationCreate(&s);
  assert(!mlirOperationIsNull(i) && "scf.if creation failed");
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, i);
  coro_str_free(&name);
  coro_str_free(text);
}

/* The table of destroyed handles, made unless the module has it; false
 * (with an error at the symbol) when the name is taken by anything else. */
static bool ensure_table(struct checks *c, MlirOperation at) {
  MlirContext ctx = mlirOperationGetContext(c->module);
  MlirType i64 = ir_int_type(ctx, 64);
  MlirType arr = mlirLLVMArrayTypeGet(i64, TABLE_SLOTS);
  MlirOperation g =
      coro_lookup_symbol(c->module, mlirStringRefCreateFromCString(TABLE));
  if (!mlirOperationIsNull(g)) {
    MlirAttribute t = mlirOperationGetAttributeByName(
        g, mlirStringRefCreateFromCString("global_type"));
    if (coro_op_named(g, "llvm.mlir.global") && !mlirAttributeIsNull(t) &&
        mlirTypeEqual(mlirTypeAttrGetValue(t), arr))
      return true; /* made by an earlier run of this pass */
    ir_emit_error(g, "the checked mode (--coro-misuse-checks) needs the symbol "
                     "'" TABLE "' for its table of destroyed handles, but the "
                     "module defines it");
    return false;
  }
  struct ir_global_spec spec = {
      .name = mlirStringRefCreateFromCString(TABLE),
      .type = arr,
      .linkage = MlirLLVMLinkageInternal,
      .value = mlirAttributeParseGet(
          ctx, mlirStringRefCreateFromCString("#llvm.zero")),
      .align = 8};
  ir_llvm_global(c->module, &spec,
                 ir_generated_loc(mlirOperationGetLocation(at), TABLE));
  return true;
}

/* The handle `h` as an i64, and the address of its slot in the table. */
static MlirValue slot_of(struct ir_builder *b, MlirValue h, MlirValue *hi) {
  MlirType i64 = ir_int_type(b->ctx, 64);
  MlirValue p = ir_cast(b, h, ir_ptr_type(b->ctx));
  if (mlirValueIsAOpResult(p) &&
      coro_op_named(mlirOpResultGetOwner(p),
                    "builtin.unrealized_conversion_cast"))
    mlirOperationSetAttributeByName(
        mlirOpResultGetOwner(p),
        mlirStringRefCreateFromCString(CORO_CHECKED_ADDRESS_ATTR),
        mlirUnitAttrGet(b->ctx));
  *hi = ir_ptrtoint(b, p, 64);
  MlirValue a = ir_binop(b, "lshr", *hi, ir_const_int(b, 64, 4));
  MlirValue c = ir_binop(b, "lshr", *hi, ir_const_int(b, 64, 20));
  MlirValue i = ir_binop(b, "and", ir_binop(b, "xor", a, c),
                         ir_const_int(b, 64, TABLE_SLOTS - 1));
  return ir_gep_index(b, ir_addressof(b, TABLE), i64, i);
}

/* Before a use of a handle (`op`: coro.resume, promise, done, await or
 * destroy): report when the table holds it; after coro.destroy, record
 * it. */
static void check_destroyed(struct checks *c, MlirOperation op) {
  MlirValue h = mlirOperationGetOperand(op, 0);
  struct ir_builder b = ir_before(op);
  MlirValue hi;
  MlirValue slot = slot_of(&b, h, &hi);
  MlirValue seen = ir_load(&b, slot, ir_int_type(b.ctx, 64), 8);
  MlirValue bad = ir_icmp(&b, IR_EQ, seen, hi);
  MlirOperation origin = coro_handle_origin(c->module, h);
  bool known = !mlirOperationIsNull(origin);
  MlirStringRef name = func_name(origin, "a coroutine");
  size_t k = use_kind(op);
  struct coro_str before = {0}, after = {0};
  coro_str_appendz(&before, uses_checked[k].what);
  coro_str_appendz(&before, known ? "'" : "");
  coro_str_appendz(&after, known ? "'" : "");
  coro_str_appendz(&after, uses_checked[k].when);
  struct coro_str text =
      message(op, coro_str_cstr(&before), name, coro_str_cstr(&after));
  coro_str_free(&before);
  coro_str_free(&after);
  report_if(c, op, bad, &text);
  if (coro_op_named(op, "coro.destroy")) {
    struct ir_builder a = ir_before(mlirOperationGetNextInBlock(op));
    ir_store(&a, hi, slot, 8);
  }
}

/* After coro.begin: a coroutine begins at this address, so a handle
 * destroyed there before is gone from the table. */
static void forget_destroyed(MlirOperation begin) {
  struct ir_builder b = ir_before(mlirOperationGetNextInBlock(begin));
  MlirValue hi;
  MlirValue slot = slot_of(&b, mlirOperationGetResult(begin, 0), &hi);
  MlirValue seen = ir_load(&b, slot, ir_int_type(b.ctx, 64), 8);
  MlirValue same = ir_icmp(&b, IR_EQ, seen, hi);
  MlirValue ops[3] = {same, ir_const_int(&b, 64, 0), seen};
  ir_store(&b, ir_val(&b, "llvm.select", 3, ops, ir_int_type(b.ctx, 64)), slot,
           8);
}

static void check_resume(struct checks *c, MlirOperation op) {
  MlirValue h = mlirOperationGetOperand(op, 0);
  struct ir_builder b = ir_before(op);
  MlirValue done = ir_val(&b, "coro.done", 1, &h, ir_int_type(b.ctx, 1));
  MlirOperation origin = coro_handle_origin(c->module, h);
  MlirStringRef name = func_name(origin, "a coroutine");
  bool known = !mlirOperationIsNull(origin);
  struct coro_str text =
      message(op, known ? "resuming '" : "resuming ", name,
              known ? "' after it ended" : " that has ended");
  report_if(c, op, done, &text);
}

/* The runtime's `name`, declared as an llvm.func (ptr...) -> i32 unless
 * the module has it. */
static void declare_group_fn(struct checks *c, const char *name, int nargs,
                             MlirLocation loc) {
  if (!mlirOperationIsNull(
          coro_lookup_symbol(c->module, mlirStringRefCreateFromCString(name))))
    return;
  MlirContext ctx = mlirOperationGetContext(c->module);
  MlirType args[2] = {ir_ptr_type(ctx), ir_ptr_type(ctx)};
  struct ir_func_spec spec = {.name = name,
                              .result = ir_int_type(ctx, 32),
                              .nargs = nargs,
                              .args = args};
  ir_llvm_func(c->module, &spec, true, loc);
}

/* coro.group_add and coro.group_destroy become their runtime calls, whose
 * refusal (a task already in a group, a group with tasks pending) the
 * runtime returns and this reports:
 *   %rc = llvm.call @coro_rt_group_add(%g, %task)
 *   scf.if (%rc != 0) { report "task 'NAME' added to a second group" } */
static void check_group(struct checks *c, MlirOperation op) {
  bool add = coro_op_named(op, "coro.group_add");
  const char *fn = add ? "coro_rt_group_add" : "coro_rt_group_destroy";
  struct ir_builder b = ir_before(op);
  declare_group_fn(c, fn, add ? 2 : 1, b.loc);
  MlirType ptr = ir_ptr_type(b.ctx);
  MlirValue args[2];
  args[0] = mlirOperationGetOperand(op, add ? 1 : 0);
  if (add)
    args[1] = ir_cast(&b, mlirOperationGetOperand(op, 0), ptr);
  MlirValue rc = ir_call(&b, ir_sym_ref(b.ctx, fn), false, add ? 2 : 1, args,
                         ir_int_type(b.ctx, 32));
  MlirValue bad = ir_icmp(&b, IR_NE, rc, ir_const_int(&b, 32, 0));
  struct coro_str text;
  if (add) {
    MlirOperation origin =
        coro_handle_origin(c->module, mlirOperationGetOperand(op, 0));
    bool known = !mlirOperationIsNull(origin);
    text = message(
        op, known ? "task '" : "a task",
        known ? func_name(origin, "") : mlirStringRefCreateFromCString(""),
        known ? "' added to a second group" : " added to a second group");
  } else {
    text = message(op, "group destroyed with tasks pending",
                   mlirStringRefCreateFromCString(""), "");
  }
  report_if(c, op, bad, &text);
  mlirOperationDestroy(op);
}

/* Whether the destroy flag (result 0) of the coro.yield `op` is used. */
static bool flag_used(MlirOperation op) {
  return mlirOperationGetNumResults(op) > 0 &&
         !mlirOpOperandIsNull(
             mlirValueGetFirstUse(mlirOperationGetResult(op, 0)));
}

/* The coroutine's coro.begin (null when absent). */
static MlirWalkResult find_begin(MlirOperation op, void *user) {
  if (coro_op_named(op, "coro.begin")) {
    *(MlirOperation *)user = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* The yields of one coroutine `func` (all in c->yields[from, to)). */
static void check_yields(struct checks *c, MlirOperation func, size_t from,
                         size_t to) {
  bool any_used = false;
  for (size_t i = from; i < to; ++i)
    any_used |= flag_used(c->yields.v[i]);
  MlirOperation begin = {NULL};
  mlirOperationWalk(func, find_begin, &begin, MlirWalkPreOrder);
  if (!any_used || mlirOperationIsNull(begin))
    return;
  MlirContext ctx = mlirOperationGetContext(func);
  MlirType i1 = ir_int_type(ctx, 1);
  struct ir_builder b = ir_before(mlirOperationGetNextInBlock(begin));
  MlirValue slot = ir_alloca(&b, ir_const_int(&b, 64, 1), i1, 1);
  ir_store(&b, ir_const_int(&b, 1, 0), slot, 1);
  MlirStringRef name = func_name(func, "a coroutine");
  for (size_t i = from; i < to; ++i) {
    MlirOperation y = c->yields.v[i];
    struct ir_builder p = ir_before(y);
    MlirValue dying = ir_load(&p, slot, i1, 1);
    struct coro_str text =
        message(y, "'", name, "' yields again after coro.destroy");
    report_if(c, y, dying, &text);
    if (!flag_used(y))
      continue;
    struct ir_builder a = ir_before(mlirOperationGetNextInBlock(y));
    MlirValue flag = mlirOperationGetResult(y, 0);
    MlirValue old = ir_load(&a, slot, i1, 1);
    ir_store(&a, ir_binop(&a, "or", old, flag), slot, 1);
  }
}

MlirLogicalResult coro_misuse_checks_run(MlirOperation module) {
  struct checks c = {module, {0}, {0}, {0}, {0}, {0}, 0};
  mlirOperationWalk(module, collect, &c, MlirWalkPreOrder);
  bool ok = true;
  /* every coro.resume is among the uses */
  if (c.uses.n + c.yields.n + c.groups.n)
    ok = ensure_report(module, c.uses.n     ? c.uses.v[0]
                               : c.yields.n ? c.yields.v[0]
                                            : c.groups.v[0]);
  if (ok && c.uses.n)
    ok = ensure_table(&c, c.uses.v[0]);
  if (ok) {
    /* first, so that the other checks of an op come after (they read the
     * handle's frame) */
    for (size_t i = 0; i < c.uses.n; ++i)
      check_destroyed(&c, c.uses.v[i]);
    if (c.uses.n)
      for (size_t i = 0; i < c.begins.n; ++i)
        forget_destroyed(c.begins.v[i]);
    for (size_t i = 0; i < c.groups.n; ++i)
      check_group(&c, c.groups.v[i]);
    for (size_t i = 0; i < c.resumes.n; ++i)
      check_resume(&c, c.resumes.v[i]);
    /* yields come grouped by coroutine in walk order */
    for (size_t i = 0, j; i < c.yields.n; i = j) {
      MlirOperation f = coro_enclosing_func(c.yields.v[i]);
      for (j = i + 1; j < c.yields.n &&
                      mlirOperationEqual(coro_enclosing_func(c.yields.v[j]), f);
           ++j)
        ;
      check_yields(&c, f, i, j);
    }
  }
  free(c.resumes.v);
  free(c.yields.v);
  free(c.groups.v);
  free(c.uses.v);
  free(c.begins.v);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
