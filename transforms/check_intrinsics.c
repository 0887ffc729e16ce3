/* check_intrinsics.c - hand-written coroutine intrinsics (see
 * check_intrinsics.h). */
#include "transforms/check_intrinsics.h"
#include "ir/blocks.h"
#include "ir/func.h"
#include "ir/support.h"
#include "transforms/CoroSplit/intrinsics.h"

#include <stdbool.h>
#include <string.h>

/* Whether `k` is one of a coroutine's own intrinsics, which only its body
 * may hold. */
static bool coroutine_only(enum coro_intr k) {
  switch (k) {
  case CI_ID:
  case CI_ALLOC:
  case CI_BEGIN:
  case CI_SIZE:
  case CI_ALIGN:
  case CI_SAVE:
  case CI_SUSPEND:
  case CI_END:
  case CI_FREE:
  case CI_FRAME:
  case CI_AWAIT_VOID:
  case CI_AWAIT_BOOL:
  case CI_AWAIT_HANDLE:
  case CI_IS_IN_RAMP:
  case CI_ID_RETCON:
  case CI_ID_RETCON_ONCE:
  case CI_SUSPEND_RETCON:
  case CI_END_RESULTS:
  case CI_ID_ASYNC:
  case CI_SUSPEND_ASYNC:
  case CI_ASYNC_RESUME:
  case CI_END_ASYNC:
    return true;
  default:
    return false;
  }
}

static bool is_id(enum coro_intr k) {
  return k == CI_ID || k == CI_ID_RETCON || k == CI_ID_RETCON_ONCE ||
         k == CI_ID_ASYNC;
}

struct fn_check {
  bool coroutine; /* the function is marked presplitcoroutine */
  /* the function is a split ramp: its switch id names its resume
   * functions (LLVM's split keeps the id, its alloc, begin and free for
   * elision; LLVM's CoroCleanup, and --coro-split, lower what is left) */
  bool split_ramp;
  int ids;
  bool failed;
};

/* `'NAME' TEXT` at `op`. */
static void error_named(MlirOperation op, const char *text) {
  MlirStringRef n = coro_intr_name(op);
  struct coro_str msg = {0};
  coro_str_appendz(&msg, "'");
  if (n.length < 5 || memcmp(n.data, "llvm.", 5)) /* an op of its own */
    coro_str_appendz(&msg, "llvm.");
  coro_str_append(&msg, n.data, n.length);
  coro_str_appendz(&msg, "' ");
  coro_str_appendz(&msg, text);
  ir_emit_error(op, coro_str_cstr(&msg));
  coro_str_free(&msg);
}

/* Whether `v` is an llvm.alloca or null: what LLVM takes for a promise. */
static bool promise_ok(MlirValue v) {
  /* through casts of a pointer to a pointer, as LLVM strips them */
  while (mlirValueIsAOpResult(v) &&
         coro_op_named(mlirOpResultGetOwner(v), "llvm.bitcast"))
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return coro_op_named(def, "llvm.alloca") ||
         coro_op_named(def, "llvm.mlir.zero");
}

static MlirWalkResult check_op(MlirOperation op, void *data) {
  struct fn_check *c = data;
  enum coro_intr k = coro_intr_classify(op);
  if (!coroutine_only(k))
    return MlirWalkResultAdvance;
  if (!c->coroutine && c->split_ramp &&
      (k == CI_ID || k == CI_ALLOC || k == CI_BEGIN || k == CI_FREE))
    return MlirWalkResultAdvance;
  if (!c->coroutine) {
    error_named(op, "belongs in a coroutine, and this function is not one "
                    "(LLVM's coroutine passes take only functions marked "
                    "presplitcoroutine, whose body holds the coroutine's id, "
                    "begin, suspensions and end)");
    c->failed = true;
    return MlirWalkResultAdvance;
  }
  if (is_id(k) && ++c->ids == 2) {
    error_named(op, "is a second coroutine id in this coroutine: a "
                    "coroutine has one (a coro-dialect coroutine gets its "
                    "own from the conversion; write a coroutine either in "
                    "the coro dialect or with LLVM's intrinsics)");
    c->failed = true;
  }
  if (k == CI_ID && mlirOperationGetNumOperands(op) == 4 &&
      !promise_ok(mlirOperationGetOperand(op, 1))) {
    ir_emit_error(op, "the promise of llvm.coro.id must be an llvm.alloca "
                      "of the coroutine or null");
    c->failed = true;
  }
  return MlirWalkResultAdvance;
}

/* Whether the body of `fn` holds a switch id whose fourth operand (the
 * resume functions) is not null: what LLVM's split leaves in a ramp. */
static bool names_resumers(MlirOperation fn) {
  if (mlirOperationGetNumRegions(fn) == 0)
    return false;
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
       ir_op_walk_next(&w);) {
    if (coro_intr_classify(w.op) == CI_ID && coro_id_names_resumers(w.op))
      return true;
  }
  return false;
}

static MlirWalkResult check_fn(MlirOperation op, void *data) {
  bool *failed = data;
  if (!coro_op_named(op, "llvm.func"))
    return MlirWalkResultAdvance;
  struct fn_check c = {.coroutine = coro_mark_presplit(op)};
  c.split_ramp = !c.coroutine && names_resumers(op);
  mlirOperationWalk(op, check_op, &c, MlirWalkPreOrder);
  *failed |= c.failed;
  return MlirWalkResultSkip;
}

MlirLogicalResult coro_check_intrinsics_run(MlirOperation root) {
  bool failed = false;
  mlirOperationWalk(root, check_fn, &failed, MlirWalkPreOrder);
  return failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}
