/* intrinsics.c - classification of coroutine intrinsics (see
 * intrinsics.h). */
#include "transforms/CoroSplit/intrinsics.h"
#include "dialect/contract.h"
#include "ir/blocks.h"
#include "ir/func.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"

#include <string.h>

static bool eq(MlirStringRef s, const char *z) {
  return s.length == strlen(z) && !memcmp(s.data, z, s.length);
}

static bool starts(MlirStringRef s, const char *z) {
  size_t n = strlen(z);
  return s.length >= n && !memcmp(s.data, z, n);
}

/* coro_intr_name of `op`, whose name is `name`. */
static MlirStringRef intr_name(MlirOperation op, MlirStringRef name) {
  static const char intr[] = "llvm.intr.";
  MlirStringRef none = {"", 0};
  if (eq(name, "llvm.call_intrinsic")) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("intrin"));
    return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a)
               ? mlirStringAttrGetValue(a)
               : none;
  }
  if (eq(name, "llvm.call") || eq(name, "llvm.invoke")) {
    MlirAttribute a = ir_callee_attr(op);
    return !mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a)
               ? mlirFlatSymbolRefAttrGetValue(a)
               : none;
  }
  if (starts(name, "llvm.intr.coro.")) {
    /* "llvm.intr.coro.X" -> "coro.X"; callers compare without "llvm.". */
    name.data += strlen(intr);
    name.length -= strlen(intr);
    return name;
  }
  return none;
}

MlirStringRef coro_intr_name(MlirOperation op) {
  return intr_name(op, mlirIdentifierStr(mlirOperationGetName(op)));
}

/* Base names, without "llvm.", and the overloaded ones by prefix. */
#define ROW(name, kind, overloaded)                                            \
  { name, sizeof name - 1, kind, overloaded }
static const struct {
  const char *name;
  size_t len; /* strlen(name), compared first */
  enum coro_intr kind;
  bool overloaded;
} table[] = {
    ROW("coro.id", CI_ID, false),
    ROW("coro.alloc", CI_ALLOC, false),
    ROW("coro.begin", CI_BEGIN, false),
    ROW("coro.size", CI_SIZE, true),
    ROW("coro.align", CI_ALIGN, true),
    ROW("coro.save", CI_SAVE, false),
    ROW("coro.suspend", CI_SUSPEND, false),
    ROW("coro.end", CI_END, false),
    ROW("coro.free", CI_FREE, false),
    ROW("coro.frame", CI_FRAME, false),
    ROW("coro.resume", CI_RESUME, false),
    ROW("coro.destroy", CI_DESTROY, false),
    ROW("coro.done", CI_DONE, false),
    ROW("coro.promise", CI_PROMISE, false),
    ROW("coro.noop", CI_NOOP, false),
    ROW("coro.await.suspend.void", CI_AWAIT_VOID, false),
    ROW("coro.await.suspend.bool", CI_AWAIT_BOOL, false),
    ROW("coro.await.suspend.handle", CI_AWAIT_HANDLE, false),
    ROW("coro.is_in_ramp", CI_IS_IN_RAMP, false),
    ROW("coro.id.retcon", CI_ID_RETCON, false),
    ROW("coro.id.retcon.once", CI_ID_RETCON_ONCE, false),
    ROW("coro.end.results", CI_END_RESULTS, false),
    ROW("coro.prepare.retcon", CI_PREPARE_RETCON, false),
    ROW("coro.alloca.alloc", CI_ALLOCA_ALLOC, true),
    ROW("coro.alloca.get", CI_ALLOCA_GET, false),
    ROW("coro.alloca.free", CI_ALLOCA_FREE, false),
    ROW("coro.id.async", CI_ID_ASYNC, false),
    ROW("coro.async.resume", CI_ASYNC_RESUME, false),
    ROW("coro.end.async", CI_END_ASYNC, false),
    ROW("coro.async.size.replace", CI_ASYNC_SIZE_REPLACE, false),
    ROW("coro.subfn.addr", CI_SUBFN_ADDR, false),
};
#undef ROW

static enum coro_intr classify(MlirOperation op, MlirStringRef name);

enum coro_intr coro_intr_classify(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  /* most ops are none of llvm.call, llvm.call_intrinsic, llvm.intr.coro.*,
   * llvm.invoke: told by a few bytes (the sixth, then the next few) */
  if (name.length < 9 || memcmp(name.data, "llvm.", 5) != 0)
    return CI_NONE;
  const char *rest = name.data + 5;
  size_t left = name.length - 5;
  bool candidate = rest[0] == 'c' ? memcmp(rest, "call", 4) == 0
                   : rest[0] == 'i'
                       ? (left == 6 && memcmp(rest, "invoke", 6) == 0) ||
                             (left > 10 && memcmp(rest, "intr.coro.", 10) == 0)
                       : false;
  if (!candidate)
    return CI_NONE;
  enum coro_intr k = classify(op, name);
  /* an await.suspend may be invoked (an await_suspend that may throw), and
   * so may a resume or destroy (the inliner makes an invoke of a call that
   * may unwind); no other coroutine intrinsic is */
  if (k != CI_NONE && eq(name, "llvm.invoke") && k != CI_AWAIT_VOID &&
      k != CI_AWAIT_BOOL && k != CI_AWAIT_HANDLE && k != CI_RESUME &&
      k != CI_DESTROY)
    return CI_OTHER;
  return k;
}

static enum coro_intr classify(MlirOperation op, MlirStringRef name) {
  MlirStringRef n = intr_name(op, name);
  if (starts(n, "llvm."))
    n.data += 5, n.length -= 5;
  else if (!starts(name, "llvm.intr."))
    return CI_NONE; /* a function of the user's that happens to be coro.X */
  if (!starts(n, "coro."))
    return CI_NONE;
  /* overloaded on its result type, mangled any way ("...retcon.i1",
   * "...retcon.sl_i1i64s") */
  if (eq(n, "coro.suspend.retcon") || starts(n, "coro.suspend.retcon."))
    return CI_SUSPEND_RETCON;
  if (eq(n, "coro.suspend.async") || starts(n, "coro.suspend.async."))
    return CI_SUSPEND_ASYNC;
  for (size_t i = 0; i < sizeof table / sizeof *table; ++i) {
    size_t k = table[i].len;
    if (n.length == k && !memcmp(n.data, table[i].name, k))
      return table[i].kind;
    if (table[i].overloaded && n.length > k + 1 && n.data[k] == '.' &&
        n.data[k + 1] == 'i' && !memcmp(n.data, table[i].name, k))
      return table[i].kind;
  }
  return CI_OTHER;
}

bool coro_id_names_resumers(MlirOperation id) {
  if (mlirOperationGetNumOperands(id) != 4)
    return false;
  MlirValue r = mlirOperationGetOperand(id, 3);
  return !mlirValueIsAOpResult(r) ||
         !coro_op_named(mlirOpResultGetOwner(r), "llvm.mlir.zero");
}

void coro_unmark_presplit(MlirOperation fn) {
  ir_passthrough_drop(fn, "presplitcoroutine");
  MlirStringRef mark =
      mlirStringRefCreateFromCString(CORO_NOINLINE_UNTIL_SPLIT_ATTR);
  if (!mlirOperationRemoveAttributeByName(fn, mark))
    return;
  /* a passthrough, or no_inline once the trip through LLVM IR (at -O2)
   * has brought it back */
  ir_passthrough_drop(fn, "noinline");
  mlirOperationRemoveAttributeByName(
      fn, mlirStringRefCreateFromCString("no_inline"));
}

bool coro_mark_presplit(MlirOperation fn) {
  if (ir_passthrough_has(fn, "presplitcoroutine"))
    return true;
  if (mlirOperationGetNumRegions(fn) == 0)
    return false;
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
       ir_op_walk_next(&w);)
    if (coro_id_unsplit(w.op, coro_intr_classify(w.op))) {
      coro_add_presplit_mark(fn);
      return true;
    }
  return false;
}

bool coro_id_unsplit(MlirOperation op, enum coro_intr k) {
  /* a switch id is unsplit while it names no resume functions (the split
   * ramp keeps its id, naming them) */
  return k == CI_ID_RETCON || k == CI_ID_RETCON_ONCE || k == CI_ID_ASYNC ||
         (k == CI_ID && mlirOperationGetNumOperands(op) == 4 &&
          !coro_id_names_resumers(op));
}

void coro_add_presplit_mark(MlirOperation fn) {
  static const char *const mark[] = {"presplitcoroutine", NULL};
  ir_add_passthrough(fn, mark);
}
