/* handle_escape.c - whether a handle outlives its function (see
 * handle_escape.h). */
#include "dialect/handle_escape.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"

#include <assert.h>
#include <stdlib.h>

/* Whose uses are being classified: the creating function's, a parameter's
 * of a function the handle is passed to, or a coroutine's own. */
enum holder { H_CALLER, H_PARAM, H_SELF };

/* What an in-progress parameter maps to in the cache: a cycle of helpers
 * passing the handle around is local unless some use on it escapes. */
static struct handle_escape in_progress;

static void set(struct handle_escape *out, MlirOperation at, const char *a,
                MlirStringRef name, const char *b) {
  out->at = at;
  out->why.len = 0;
  coro_str_appendz(&out->why, a);
  coro_str_append(&out->why, name.data, name.length);
  coro_str_appendz(&out->why, b);
}

static MlirStringRef symbol_of(MlirOperation op, const char *attr) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(attr));
  if (mlirAttributeIsNull(a))
    return mlirStringRefCreate("", 0);
  if (mlirAttributeIsAFlatSymbolRef(a))
    return mlirFlatSymbolRefAttrGetValue(a);
  return mlirAttributeIsAString(a) ? mlirStringAttrGetValue(a)
                                   : mlirStringRefCreate("", 0);
}

static bool param_local(struct handle_escape_cache *c, MlirValue arg,
                        struct handle_escape *out);

/* Whether passing the handle as operand `index` of the func.call `call`
 * keeps it local. */
static bool call_local(struct handle_escape_cache *c, MlirOperation call,
                       intptr_t index, struct handle_escape *out) {
  MlirStringRef name = symbol_of(call, "callee");
  MlirOperation callee = coro_lookup_symbol(c->module, name);
  if (mlirOperationIsNull(callee) || !coro_op_named(callee, "func.func")) {
    set(out, call, "the handle is passed to '", name,
        "', which coro-elide cannot see into");
    return false;
  }
  if (coro_op_is_coroutine(callee)) {
    set(out, call, "the handle is passed to the coroutine '", name,
        "', whose frame may outlive the caller");
    return false;
  }
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  if (mlirBlockIsNull(entry) || index >= mlirBlockGetNumArguments(entry)) {
    set(out, call, "the handle is passed to '", name,
        "', which has no body here and may keep it");
    return false;
  }
  struct handle_escape inner = {0};
  if (param_local(c, mlirBlockGetArgument(entry, index), &inner))
    return true;
  set(out, call, "the handle is passed to '", name, "', where ");
  coro_str_append(&out->why, inner.why.data, inner.why.len);
  handle_escape_clear(&inner);
  return false;
}

/* Whether every use of `h` keeps it local for `holder`. */
static bool uses_local(struct handle_escape_cache *c, MlirValue h,
                       enum holder holder, struct handle_escape *out) {
  for (MlirOpOperand u = mlirValueGetFirstUse(h); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t index = (intptr_t)mlirOpOperandGetOperandNumber(u);
    if (index == 0 && (coro_op_named(user, "coro.resume") ||
                       coro_op_named(user, "coro.done") ||
                       coro_op_named(user, "coro.promise") ||
                       coro_op_named(user, "coro.await") ||
                       coro_op_named(user, "coro.failed")))
      continue;
    if (coro_op_named(user, "coro.destroy"))
      continue;
    if (coro_op_named(user, "builtin.unrealized_conversion_cast") &&
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(
            user, mlirStringRefCreateFromCString(CORO_CHECKED_ADDRESS_ATTR))))
      continue; /* the checked mode's look-up: an integer, never used */
    if (holder == H_SELF &&
        (coro_op_named(user, "coro.end") || coro_op_named(user, "func.return")))
      continue;
    if (coro_op_named(user, "func.call")) {
      if (call_local(c, user, index, out))
        continue;
      return false;
    }
    if (coro_op_named(user, "func.return"))
      set(out, user, "the handle is returned", mlirStringRefCreate("", 0), "");
    else
      set(out, user, "the handle escapes through '", coro_op_name(user), "'");
    return false;
  }
  return true;
}

static bool copy_answer(struct handle_escape *out,
                        const struct handle_escape *known);

static bool param_local(struct handle_escape_cache *c, MlirValue arg,
                        struct handle_escape *out) {
  struct handle_escape *known = ir_ptrmap_find(&c->params, arg.ptr);
  if (known == &in_progress)
    return true;
  if (!known) {
    ir_ptrmap_put(&c->params, arg.ptr, &in_progress);
    known = ir_xcalloc(1, sizeof *known);
    uses_local(c, arg, H_PARAM, known);
    ir_ptrmap_put(&c->params, arg.ptr, known);
  }
  return copy_answer(out, known);
}

/* `known` into `out`: whether it is local, else where and why not. */
static bool copy_answer(struct handle_escape *out,
                        const struct handle_escape *known) {
  if (mlirOperationIsNull(known->at))
    return true;
  out->at = known->at;
  out->why.len = 0;
  coro_str_append(&out->why, known->why.data, known->why.len);
  return false;
}

struct self_walk {
  struct handle_escape_cache *cache;
  struct handle_escape *out;
  bool local;
};

static MlirWalkResult self_uses(MlirOperation op, void *user) {
  struct self_walk *w = user;
  if (!coro_op_named(op, "coro.begin") && !coro_op_named(op, "coro.self"))
    return MlirWalkResultAdvance;
  struct handle_escape e = {0};
  if (uses_local(w->cache, mlirOperationGetResult(op, 0), H_SELF, &e)) {
    handle_escape_clear(&e);
    return MlirWalkResultAdvance;
  }
  w->local = false;
  w->out->at = e.at;
  w->out->why.len = 0;
  coro_str_appendz(&w->out->why, "it lets its own handle escape: ");
  coro_str_append(&w->out->why, e.why.data, e.why.len);
  handle_escape_clear(&e);
  return MlirWalkResultInterrupt;
}

/* Whether the coroutine `coroutine` keeps its own handle to itself: its
 * coro.begin and coro.self results feed only coro.end, the ramp's return
 * and consumer ops. Computed once per coroutine. */
static bool self_local(struct handle_escape_cache *c, MlirOperation coroutine,
                       struct handle_escape *out) {
  struct handle_escape *known = ir_ptrmap_find(&c->selves, coroutine.ptr);
  if (!known) {
    known = ir_xcalloc(1, sizeof *known);
    struct self_walk w = {.cache = c, .out = known, .local = true};
    mlirOperationWalk(coroutine, self_uses, &w, MlirWalkPreOrder);
    ir_ptrmap_put(&c->selves, coroutine.ptr, known);
  }
  return copy_answer(out, known);
}

static bool param_destroys(struct handle_escape_cache *c, MlirValue arg);

/* Whether `op` destroys `h`: a coro.destroy of it, or a call passing it to
 * a function that destroys that parameter on every path. */
static bool destroys_op(struct handle_escape_cache *c, MlirOperation op,
                        MlirValue h) {
  if (coro_op_named(op, "coro.destroy"))
    return mlirValueEqual(mlirOperationGetOperand(op, 0), h);
  if (!coro_op_named(op, "func.call"))
    return false;
  MlirOperation callee = coro_lookup_symbol(c->module, symbol_of(op, "callee"));
  if (mlirOperationIsNull(callee) || !coro_op_named(callee, "func.func") ||
      coro_op_is_coroutine(callee))
    return false;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(callee, 0));
  if (mlirBlockIsNull(entry))
    return false;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n && i < mlirBlockGetNumArguments(entry); ++i)
    if (mlirValueEqual(mlirOperationGetOperand(op, i), h) &&
        param_destroys(c, mlirBlockGetArgument(entry, i)))
      return true;
  return false;
}

/* Whether `b` destroys `h` (directly, not in a nested region); with
 * `after` non-null, after that op. */
static bool destroys(struct handle_escape_cache *c, MlirBlock b, MlirValue h,
                     MlirOperation after) {
  MlirOperation op = mlirOperationIsNull(after)
                         ? mlirBlockGetFirstOperation(b)
                         : mlirOperationGetNextInBlock(after);
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (destroys_op(c, op, h))
      return true;
  return false;
}

/* Whether every path from `after` in `home` (from the top of `home` when
 * `after` is null) to an exit of the region, or back to `home`, destroys
 * `h`. On false, `out` (when not null) names the op where a path fails. */
static bool paths_destroy(struct handle_escape_cache *c, MlirBlock home,
                          MlirOperation after, MlirValue h,
                          struct handle_escape *out) {
  if (destroys(c, home, h, after))
    return true;
  struct ir_ptrmap seen = {0};
  struct ir_blockvec work = {0};
  ir_blockvec_push(&work, home);
  bool ok = true;
  while (ok && work.n) {
    MlirBlock b = work.v[--work.n];
    MlirOperation term = mlirBlockGetTerminator(b);
    intptr_t succs =
        mlirOperationIsNull(term) ? 0 : mlirOperationGetNumSuccessors(term);
    if (!succs) {
      ok = false;
      MlirOperation at = mlirOperationIsNull(term) ? after : term;
      if (out && !mlirOperationIsNull(at))
        set(out, at, "the handle is not destroyed on every path: this '",
            coro_op_name(at), "' is reached without coro.destroy");
    }
    for (intptr_t i = 0; ok && i < succs; ++i) {
      MlirBlock s = mlirOperationGetSuccessor(term, i);
      if (mlirBlockEqual(s, home)) {
        ok = false;
        if (out && !mlirOperationIsNull(after))
          set(out, after,
              "the handle is not destroyed before the call runs again",
              mlirStringRefCreate("", 0), "");
      } else if (!ir_ptrmap_find(&seen, s.ptr)) {
        ir_ptrmap_put(&seen, s.ptr, (void *)1);
        if (!destroys(c, s, h, (MlirOperation){NULL}))
          ir_blockvec_push(&work, s);
      }
    }
  }
  free(work.v);
  ir_ptrmap_free(&seen);
  return ok;
}

/* The answers of param_destroys in the cache; an in-progress query
 * answers no (a helper that destroys only by calling itself back does not
 * destroy). */
static char destroys_in_progress, destroys_yes, destroys_no;

static bool param_destroys(struct handle_escape_cache *c, MlirValue arg) {
  void *known = ir_ptrmap_find(&c->destroys, arg.ptr);
  if (!known) {
    ir_ptrmap_put(&c->destroys, arg.ptr, &destroys_in_progress);
    bool yes = paths_destroy(c, mlirBlockArgumentGetOwner(arg),
                             (MlirOperation){NULL}, arg, NULL);
    known = yes ? &destroys_yes : &destroys_no;
    ir_ptrmap_put(&c->destroys, arg.ptr, known);
  }
  return known == &destroys_yes;
}

bool handle_escape_call(struct handle_escape_cache *c, MlirOperation call,
                        MlirOperation callee, struct handle_escape *out) {
  MlirValue h = mlirOperationGetResult(call, 0);
  return self_local(c, callee, out) && uses_local(c, h, H_CALLER, out) &&
         paths_destroy(c, mlirOperationGetBlock(call), call, h, out);
}

void handle_escape_clear(struct handle_escape *e) {
  coro_str_free(&e->why);
  e->at = (MlirOperation){NULL};
}

/* Frees the answers a map holds, and the map. */
static void free_answers(struct ir_ptrmap *m) {
  for (size_t i = 0; i < m->cap; ++i)
    if (m->from && m->from[i] && m->to[i] && m->to[i] != &in_progress) {
      handle_escape_clear(m->to[i]);
      free(m->to[i]);
    }
  ir_ptrmap_free(m);
}

void handle_escape_cache_free(struct handle_escape_cache *c) {
  free_answers(&c->params);
  free_answers(&c->selves);
  ir_ptrmap_free(&c->destroys);
}
