/* check_intrinsics.c - hand-written coroutine intrinsics (see
 * check_intrinsics.h). */
#include "transforms/check_intrinsics.h"
#include "dialect/verify.h"
#include "ir/blocks.h"
#include "ir/func.h"
#include "ir/support.h"
#include "transforms/CoroSplit/intrinsics.h"

#include <stdbool.h>
#include <stdlib.h>
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

/* Checks the coroutine-only intrinsic `op` (of kind `k`) of the function
 * `c` describes. */
static void check_own(struct fn_check *c, MlirOperation op, enum coro_intr k) {
  if (!c->coroutine && c->split_ramp &&
      (k == CI_ID || k == CI_ALLOC || k == CI_BEGIN || k == CI_FREE))
    return;
  if (!c->coroutine) {
    error_named(op, "belongs in a coroutine, and this function is not one "
                    "(LLVM's coroutine passes take only functions marked "
                    "presplitcoroutine, whose body holds the coroutine's id, "
                    "begin, suspensions and end)");
    c->failed = true;
    return;
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
}

/* One function's walk for coro_check_lowered_fn: the ids at its top level
 * (an unsplit one makes it a coroutine, as coro_mark_presplit finds; a
 * switch id naming resume functions, a split ramp), and its coroutine-only
 * intrinsics, checked once the walk has told what the function is. */
struct lowered_walk {
  MlirOperation fn;
  bool intrinsics; /* fn is an llvm.func, whose intrinsics are checked */
  bool failed;
  bool unsplit;  /* a top-level id no split has named resume functions in */
  bool resumers; /* a top-level switch id that names them */
  struct ir_opvec own;
};

static MlirWalkResult lowered_op(MlirOperation op, void *data) {
  struct lowered_walk *w = data;
  if (coro_check_lowered_visit(op, &w->failed))
    return MlirWalkResultSkip;
  if (!w->intrinsics)
    return MlirWalkResultAdvance;
  enum coro_intr k = coro_intr_classify(op);
  if (k == CI_NONE)
    return MlirWalkResultAdvance;
  if (coroutine_only(k))
    ir_opvec_push(&w->own, op);
  if (is_id(k) &&
      mlirOperationEqual(mlirOperationGetParentOperation(op), w->fn)) {
    w->resumers |= k == CI_ID && coro_id_names_resumers(op);
    w->unsplit |= coro_id_unsplit(op, k);
  }
  return MlirWalkResultAdvance;
}

MlirLogicalResult coro_check_lowered_fn(MlirOperation fn) {
  struct lowered_walk w = {.fn = fn,
                           .intrinsics = coro_op_named(fn, "llvm.func")};
  mlirOperationWalk(fn, lowered_op, &w, MlirWalkPreOrder);
  if (w.intrinsics) {
    /* as coro_mark_presplit marks it */
    struct fn_check c = {.coroutine =
                             ir_passthrough_has(fn, "presplitcoroutine")};
    if (!c.coroutine && w.unsplit) {
      coro_add_presplit_mark(fn);
      c.coroutine = true;
    }
    c.split_ramp = !c.coroutine && w.resumers;
    for (size_t i = 0; i < w.own.n; ++i)
      check_own(&c, w.own.v[i], coro_intr_classify(w.own.v[i]));
    w.failed |= c.failed;
  }
  free(w.own.v);
  return w.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}
