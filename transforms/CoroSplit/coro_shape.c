/* coro_shape.c - collecting and checking a switched-resume coroutine (see
 * coro_shape.h). */
#include "transforms/CoroSplit/coro_shape.h"
#include "ir/builder.h"
#include "ir/fold.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void push_intr(struct coro_shape *s, size_t *cap, MlirOperation op,
                      enum coro_intr k) {
  if (s->nintr == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    s->intr = ir_xrealloc(s->intr, *cap * sizeof *s->intr);
  }
  s->intr[s->nintr++] = (struct coro_intr_op){op, k};
}

/* The result of `op` is used only by ops of its own block after it. */
static bool used_only_below(MlirOperation op) {
  MlirBlock b = mlirOperationGetBlock(op);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (!mlirBlockEqual(mlirOperationGetBlock(mlirOpOperandGetOwner(u)), b))
        return false;
  return true;
}

static bool check_suspend(struct coro_shape *s, struct coro_suspend *sp) {
  MlirOperation op = sp->suspend;
  if (mlirOperationGetNumOperands(op) != 2 ||
      mlirOperationGetNumResults(op) != 1) {
    ir_emit_error(op,
                  "llvm.coro.suspend takes a save token and an i1 final flag "
                  "and returns an i8");
    return false;
  }
  int64_t fin;
  if (!ir_const_int_value(mlirOperationGetOperand(op, 1), &fin)) {
    ir_emit_error(op, "the final flag of llvm.coro.suspend must be a constant");
    return false;
  }
  sp->final = fin != 0;
  MlirValue tok = mlirOperationGetOperand(op, 0);
  if (mlirValueIsAOpResult(tok)) {
    MlirOperation def = mlirOpResultGetOwner(tok);
    if (coro_intr_classify(def) == CI_SAVE) {
      sp->save = def;
    } else if (!coro_op_named(def, "llvm.mlir.none")) {
      ir_emit_error(
          op, "llvm.coro.suspend takes the token of an llvm.coro.save (or "
              "none)");
      return false;
    }
  } else {
    ir_emit_error(op,
                  "llvm.coro.suspend takes the token of an llvm.coro.save (or "
                  "none)");
    return false;
  }
  /* An await intrinsic between the save and the suspend in one block: the
   * suspension continues the awaited coroutine (symmetric transfer). */
  bool same = !mlirOperationIsNull(sp->save) &&
              mlirBlockEqual(mlirOperationGetBlock(sp->save),
                             mlirOperationGetBlock(op));
  MlirOperation from = same ? mlirOperationGetNextInBlock(sp->save) : op;
  for (MlirOperation it = from; !mlirOperationEqual(it, op);
       it = mlirOperationGetNextInBlock(it)) {
    enum coro_intr k = coro_intr_classify(it);
    if (k == CI_AWAIT_VOID || k == CI_AWAIT_BOOL || k == CI_AWAIT_HANDLE) {
      if (!mlirOperationIsNull(sp->await)) {
        ir_emit_error(it,
                      "a second await intrinsic before one llvm.coro.suspend");
        return false;
      }
      if (mlirOperationGetNumOperands(it) != 3) {
        ir_emit_error(it, "an await.suspend intrinsic takes the awaiter, the "
                          "coroutine handle and the wrapper function");
        return false;
      }
      sp->await = it;
      sp->await_kind = k;
    }
  }
  /* An await_suspend that may throw: clang invokes the await intrinsic at
   * the end of the save's block, and the suspend starts its normal
   * destination (nothing but constants before it). */
  if (mlirOperationIsNull(sp->await) && !mlirOperationIsNull(sp->save) &&
      !same) {
    MlirOperation term =
        mlirBlockGetTerminator(mlirOperationGetBlock(sp->save));
    enum coro_intr k =
        mlirOperationIsNull(term) ? CI_NONE : coro_intr_classify(term);
    bool first = true;
    for (MlirOperation it =
             mlirBlockGetFirstOperation(mlirOperationGetBlock(op));
         first && !mlirOperationEqual(it, op);
         it = mlirOperationGetNextInBlock(it))
      first = ir_op_is_constant(it);
    if ((k == CI_AWAIT_VOID || k == CI_AWAIT_BOOL || k == CI_AWAIT_HANDLE) &&
        coro_op_named(term, "llvm.invoke") && first &&
        mlirBlockEqual(mlirOperationGetSuccessor(term, 0),
                       mlirOperationGetBlock(op))) {
      if (mlirOperationGetNumOperands(term) < 3) {
        ir_emit_error(term, "an await.suspend intrinsic takes the awaiter, "
                            "the coroutine handle and the wrapper function");
        return false;
      }
      sp->await = term;
      sp->await_kind = k;
    }
  }
  if (!used_only_below(op)) {
    ir_emit_error(op,
                  "the result of llvm.coro.suspend is used outside its block: "
                  "--coro-split needs the branch on it in the same block");
    return false;
  }
  /* A value computed after the suspend may be used in other blocks (LLVM's
   * pre-split passes hoist a load both successors make there): each
   * landing copies it, and the SSA repair gives the other uses the copy. */
  return true;
}

static bool is_switch_only(enum coro_intr k) {
  return k == CI_ALLOC || k == CI_SAVE || k == CI_SUSPEND || k == CI_FREE ||
         k == CI_AWAIT_VOID || k == CI_AWAIT_BOOL || k == CI_AWAIT_HANDLE;
}

static bool is_retcon_only(enum coro_intr k) {
  return k == CI_SUSPEND_RETCON || k == CI_END_RESULTS ||
         k == CI_ALLOCA_ALLOC || k == CI_ALLOCA_GET || k == CI_ALLOCA_FREE;
}

static bool is_async_only(enum coro_intr k) {
  return k == CI_SUSPEND_ASYNC || k == CI_END_ASYNC || k == CI_ASYNC_RESUME;
}

/* Whether the intrinsic `k` may appear in a coroutine of ABI `abi`. */
static bool of_abi(enum coro_shape_abi abi, enum coro_intr k) {
  switch (abi) {
  case CORO_SHAPE_SWITCH:
    return !is_retcon_only(k) && !is_async_only(k);
  case CORO_SHAPE_ASYNC:
    return !is_switch_only(k) && !is_retcon_only(k);
  default:
    return !is_switch_only(k) && !is_async_only(k);
  }
}

/* An intrinsic of another ABI than the coroutine's (its coro.id's). */
static void wrong_abi(const struct coro_shape *s, MlirOperation op) {
  struct coro_str msg = {0};
  MlirStringRef n = coro_intr_name(op);
  coro_str_appendz(&msg, n.length && n.data[0] == 'c' ? "'llvm." : "'");
  coro_str_append(&msg, n.data, n.length);
  coro_str_appendz(&msg, s->abi == CORO_SHAPE_SWITCH
                             ? "' is not an intrinsic of the switched-resume "
                               "ABI, which the coroutine's llvm.coro.id "
                               "chose"
                         : s->abi == CORO_SHAPE_ASYNC
                             ? "' is not an intrinsic of the async ABI, "
                               "which the coroutine's llvm.coro.id.async "
                               "chose"
                             : "' is not an intrinsic of the "
                               "returned-continuation ABIs, which the "
                               "coroutine's llvm.coro.id.retcon chose");
  ir_emit_error(op, coro_str_cstr(&msg));
  coro_str_free(&msg);
}

/* Every suspension ends its block before an llvm.br without operands
 * (coro_shape_normalize) and has at most one result. */
static bool check_suspensions_end_blocks(struct coro_shape *s,
                                         const char *what) {
  for (size_t i = 0; i < s->nsusp; ++i) {
    MlirOperation op = s->susp[i].suspend;
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (mlirOperationGetNumResults(op) > 1 || mlirOperationIsNull(next) ||
        !coro_op_named(next, "llvm.br") || mlirOperationGetNumOperands(next)) {
      struct coro_str msg = {0};
      coro_str_appendz(&msg, what);
      coro_str_appendz(&msg, " has at most one result and must end its "
                             "block (coro_shape_normalize)");
      ir_emit_error(op, coro_str_cstr(&msg));
      coro_str_free(&msg);
      return false;
    }
  }
  return true;
}

/* The retcon id's operands: constant size and alignment, the storage. */
static bool check_retcon(struct coro_shape *s) {
  if (mlirOperationGetNumOperands(s->id) != 6 ||
      !ir_const_int_value(mlirOperationGetOperand(s->id, 0), &s->buffer_size) ||
      !ir_const_int_value(mlirOperationGetOperand(s->id, 1),
                          &s->buffer_align) ||
      s->buffer_size < 0 || s->buffer_align <= 0) {
    ir_emit_error(s->id,
                  "llvm.coro.id.retcon takes the buffer's constant size and "
                  "alignment, the buffer, the prototype, the allocator and "
                  "the deallocator");
    return false;
  }
  s->storage = mlirOperationGetOperand(s->id, 2);
  return check_suspensions_end_blocks(s, "llvm.coro.suspend.retcon");
}

static bool is_power_of_two(int64_t x) { return x > 0 && !(x & (x - 1)); }

/* The async id's operands: the context header's constant size and
 * alignment, the index of the context argument (the storage), the async
 * function pointer record. */
static bool check_async(struct coro_shape *s) {
  int64_t index;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(s->func, 0));
  if (mlirOperationGetNumOperands(s->id) != 4 ||
      !ir_const_int_value(mlirOperationGetOperand(s->id, 0), &s->buffer_size) ||
      !ir_const_int_value(mlirOperationGetOperand(s->id, 1),
                          &s->buffer_align) ||
      !ir_const_int_value(mlirOperationGetOperand(s->id, 2), &index) ||
      s->buffer_size < 0 || !is_power_of_two(s->buffer_align)) {
    ir_emit_error(s->id,
                  "llvm.coro.id.async takes the context header's constant "
                  "size and alignment (a power of two), the constant index "
                  "of the context argument and the async function pointer "
                  "record");
    return false;
  }
  if (index < 0 || index >= mlirBlockGetNumArguments(entry) ||
      !mlirTypeIsALLVMPointerType(
          mlirValueGetType(mlirBlockGetArgument(entry, index)))) {
    ir_emit_error(s->id,
                  "the context argument index of llvm.coro.id.async does not "
                  "name a ptr argument of the coroutine");
    return false;
  }
  s->storage = mlirBlockGetArgument(entry, index);
  return check_suspensions_end_blocks(s, "llvm.coro.suspend.async");
}

void coro_shape_normalize(MlirOperation func) {
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(func, 0));
       ir_op_walk_next(&w);) {
    MlirOperation op = w.op;
    enum coro_intr k = coro_intr_classify(op);
    if (k != CI_SUSPEND_RETCON && k != CI_SUSPEND_ASYNC)
      continue;
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (mlirOperationIsNull(next) ||
        (coro_op_named(next, "llvm.br") && !mlirOperationGetNumOperands(next)))
      continue;
    MlirBlock tail = ir_split_after(op);
    struct ir_builder at = ir_at_end(w.block, mlirOperationGetLocation(op));
    ir_br(&at, tail, 0, NULL);
    /* the walk goes on in `tail`, with the op after `op` */
  }
}

bool coro_shape_collect(struct coro_shape *s, MlirOperation func) {
  *s = (struct coro_shape){.func = func};
  size_t cap = 0, scap = 0, nid = 0, nbegin = 0;
  bool ok = true;
  MlirOperation fallthrough = {NULL}, second = {NULL};
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    bool after_end = false;
    for (MlirOperation op = mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      if (after_end)
        ir_ptrmap_put(&s->ramp_only, op.ptr, (void *)1);
      enum coro_intr k = coro_intr_classify(op);
      if (k == CI_NONE) {
        if (coro_op_named(op, "llvm.alloca"))
          ir_opvec_push(&s->allocas, op);
        continue;
      }
      if (k == CI_OTHER) {
        struct coro_str msg = {0};
        MlirStringRef n = coro_intr_name(op);
        coro_str_appendz(&msg, n.length && n.data[0] == 'c' ? "'llvm." : "'");
        coro_str_append(&msg, n.data, n.length);
        coro_str_appendz(&msg, "' is not an intrinsic --coro-split lowers");
        ir_emit_error(op, coro_str_cstr(&msg));
        coro_str_free(&msg);
        ok = false;
        continue;
      }
      push_intr(s, &cap, op, k);
      if (k == CI_ID || k == CI_ID_RETCON || k == CI_ID_RETCON_ONCE ||
          k == CI_ID_ASYNC) {
        ++nid;
        s->id = op;
        s->abi = k == CI_ID          ? CORO_SHAPE_SWITCH
                 : k == CI_ID_RETCON ? CORO_SHAPE_RETCON
                 : k == CI_ID_ASYNC  ? CORO_SHAPE_ASYNC
                                     : CORO_SHAPE_ONCE;
      } else if (k == CI_BEGIN) {
        ++nbegin;
        s->begin = op;
      } else if (k == CI_SUSPEND || k == CI_SUSPEND_RETCON ||
                 k == CI_SUSPEND_ASYNC) {
        if (s->nsusp == scap) {
          scap = scap ? 2 * scap : 8;
          s->susp = ir_xrealloc(s->susp, scap * sizeof *s->susp);
        }
        struct coro_suspend *sp = &s->susp[s->nsusp++];
        *sp = (struct coro_suspend){.suspend = op};
      } else if (k == CI_END || k == CI_END_ASYNC) {
        int64_t unwind = 0;
        if (mlirOperationGetNumOperands(op) < 2 ||
            !ir_const_int_value(mlirOperationGetOperand(op, 1), &unwind)) {
          ir_emit_error(
              op, k == CI_END
                      ? "the unwind flag of llvm.coro.end must be a constant"
                      : "the unwind flag of llvm.coro.end.async must be a "
                        "constant");
          ok = false;
        } else if (!unwind) {
          if (!mlirOperationIsNull(fallthrough) && mlirOperationIsNull(second))
            second = op;
          fallthrough = op;
          after_end = true;
        }
      }
    }
  }
  if (nid == 1) {
    /* every intrinsic of the coroutine's ABI, each suspension checked */
    for (size_t i = 0; i < s->nintr; ++i) {
      enum coro_intr k = s->intr[i].kind;
      if (!of_abi(s->abi, k)) {
        wrong_abi(s, s->intr[i].op);
        ok = false;
      }
    }
    for (size_t i = 0; ok && s->abi == CORO_SHAPE_SWITCH && i < s->nsusp; ++i)
      ok &= check_suspend(s, &s->susp[i]);
    if (ok && s->abi == CORO_SHAPE_ASYNC)
      ok = check_async(s);
    else if (ok && s->abi != CORO_SHAPE_SWITCH)
      ok = check_retcon(s);
    /* a returned-continuation coroutine returns at each end */
    if (s->abi == CORO_SHAPE_SWITCH && !mlirOperationIsNull(second)) {
      ir_emit_error(second,
                    "a second fall-through llvm.coro.end: a switched-resume "
                    "coroutine ends in one place (branch to it from every "
                    "path)");
      ok = false;
    }
  }
  if (!ok)
    return false;
  if (nid != 1 || nbegin != 1) {
    ir_emit_error(func, nid != 1 ? "a coroutine to split needs exactly one "
                                   "llvm.coro.id"
                                 : "a coroutine to split needs exactly one "
                                   "llvm.coro.begin");
    return false;
  }
  if (s->abi != CORO_SHAPE_SWITCH) {
    if (mlirOperationGetNumOperands(s->begin) != 2 ||
        !mlirValueEqual(mlirOperationGetOperand(s->begin, 0),
                        mlirOperationGetResult(s->id, 0))) {
      ir_emit_error(s->begin,
                    s->abi == CORO_SHAPE_ASYNC
                        ? "llvm.coro.begin takes the token of the "
                          "coroutine's llvm.coro.id.async and a frame "
                          "pointer"
                        : "llvm.coro.begin takes the token of the "
                          "coroutine's llvm.coro.id.retcon and a frame "
                          "pointer");
      return false;
    }
    return true;
  }
  if (mlirOperationGetNumOperands(s->id) != 4 ||
      mlirOperationGetNumOperands(s->begin) != 2 ||
      !mlirValueEqual(mlirOperationGetOperand(s->begin, 0),
                      mlirOperationGetResult(s->id, 0))) {
    ir_emit_error(s->begin,
                  "llvm.coro.begin takes the token of the coroutine's "
                  "llvm.coro.id and the frame memory");
    return false;
  }
  MlirValue promise = mlirOperationGetOperand(s->id, 1);
  if (mlirValueIsAOpResult(promise) &&
      coro_op_named(mlirOpResultGetOwner(promise), "llvm.alloca"))
    s->promise = promise;
  else if (!(mlirValueIsAOpResult(promise) &&
             coro_op_named(mlirOpResultGetOwner(promise), "llvm.mlir.zero"))) {
    ir_emit_error(s->id,
                  "the promise of llvm.coro.id must be an llvm.alloca of the "
                  "coroutine or null");
    return false;
  }
  return ok;
}

void coro_shape_free(struct coro_shape *s) {
  free(s->intr);
  free(s->susp);
  free(s->allocas.v);
  ir_ptrmap_free(&s->ramp_only);
  *s = (struct coro_shape){0};
}

intptr_t coro_suspend_target(const struct coro_suspend *s, int64_t c) {
  MlirOperation next = mlirOperationGetNextInBlock(s->suspend);
  /* a suspend.retcon whose prototype takes only the buffer has no result:
   * nothing after it depends on how it resumed */
  if (!mlirOperationGetNumResults(s->suspend))
    return ir_branch_target(next);
  return ir_branch_target_given(next, mlirOperationGetResult(s->suspend, 0), c);
}
