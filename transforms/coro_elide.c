/* coro_elide.c - --coro-elide: coro decides, before lowering, which
 * coroutine frames live in their caller instead of on the heap.
 *
 * It runs on the coro dialect, where handles are typed and their uses are
 * plain to see. For every func.call of a switch, retcon or retcon.once
 * coroutine it asks:
 *
 *   1. does the callee keep its own handle to itself?
 *   2. is the call's handle used only locally, in the caller and in the
 *      helpers it is passed to?
 *   3. is it destroyed on every path from the call, so that the frame is
 *      dead before the caller returns and before the call runs again?
 *      (1 to 3: handle_escape_call)
 *   4. when the caller is itself a coroutine, do the elided calls between
 *      coroutines form no cycle? (the caller's frame holds the callee's, so
 *      a cycle would be a frame that contains itself)
 *
 * and marks the call `coro.elided = true` or `false`. --coro-split (route
 * B) gives a switch call marked true a frame in its caller: an alloca of
 * the callee's frame size and alignment, in the caller's frame when the
 * caller is a coroutine and the handle lives across its suspensions
 * (nested frames); route A leaves the decision to LLVM (coro.alloc =
 * "elide" marks the ramp alwaysinline so CoroElide can act at -O1 and
 * above). A retcon or retcon.once call marked true gets its control block
 * (the handle, whose buffer holds the frame) in its caller from the retcon
 * conversion, on both routes.
 *
 * coro.alloc on the callee: absent, or coro.alloc_fn/coro.free_fn, means
 * "the heap unless proven local"; "heap" is left alone; "arena" is the GPU
 * path's and left alone; "elide" is the frontend's assertion, checked here:
 * a handle that escapes or is not destroyed on every path is a located
 * error at the op where that happens. A cycle keeps the heap even then.
 *
 * Remarks (category coro-elide): "'CALLEE' elided in 'CALLER'" at the call,
 * "'CALLEE' not elided in 'CALLER': REASON" at the op that decided it. */
#include "transforms/coro_elide.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "dialect/handle_escape.h"
#include "dialect/handle_origin.h"
#include "ir/blocks.h"
#include "ir/func.h"
#include "ir/remark.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <assert.h>
#include <stdlib.h>

/* One call of a coroutine that passed checks 1 to 3. */
struct candidate {
  MlirOperation call, caller, callee;
};

struct elide {
  MlirContext ctx;
  MlirOperation module;
  struct handle_escape_cache cache;
  struct candidate *cand;
  size_t n, cap;
  bool failed;
};

static MlirStringRef alloc_kind(MlirOperation coroutine) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      coroutine, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a)
             ? mlirStringAttrGetValue(a)
             : mlirStringRefCreate("", 0);
}

static void mark(struct elide *e, MlirOperation call, bool elided) {
  mlirOperationSetAttributeByName(
      call, mlirStringRefCreateFromCString(CORO_ELIDED_ATTR),
      mlirBoolAttrGet(e->ctx, elided));
}

/* "'CALLEE' <verb> in 'CALLER'" */
static struct coro_str headline(MlirStringRef a, const char *verb,
                                MlirStringRef b) {
  struct coro_str s = {0};
  coro_str_appendz(&s, "'");
  coro_str_append(&s, a.data, a.length);
  coro_str_appendz(&s, "' ");
  coro_str_appendz(&s, verb);
  coro_str_appendz(&s, " in '");
  coro_str_append(&s, b.data, b.length);
  coro_str_appendz(&s, "'");
  return s;
}

void coro_elide_remark_elided(MlirLocation loc, MlirStringRef callee,
                              MlirStringRef caller) {
  struct coro_str msg = headline(callee, "elided", caller);
  coro_emit_remark(loc, CORO_REMARK_PASSED, "coro-elide", "CoroElide",
                   coro_str_cstr(&msg));
  coro_str_free(&msg);
}

/* The call is not elided: a missed remark at `at`, or, where the callee
 * asserts coro.alloc = "elide" and `binding` says the reason breaks that
 * assertion, a located error. */
static void reject(struct elide *e, const struct candidate *c, MlirOperation at,
                   const struct coro_str *why, bool binding) {
  mark(e, c->call, false);
  if (binding && coro_ref_eq(alloc_kind(c->callee), "elide")) {
    struct coro_str msg = {0};
    MlirStringRef a = ir_sym_name(c->callee), b = ir_sym_name(c->caller);
    coro_str_appendz(&msg, "coro.alloc = \"elide\" on '");
    coro_str_append(&msg, a.data, a.length);
    coro_str_appendz(&msg, "' asserts that its frame can live in '");
    coro_str_append(&msg, b.data, b.length);
    coro_str_appendz(&msg, "', but ");
    coro_str_append(&msg, why->data, why->len);
    ir_emit_error(at, coro_str_cstr(&msg));
    coro_str_free(&msg);
    e->failed = true;
    return;
  }
  if (!coro_remarks_enabled(e->ctx))
    return;
  struct coro_str msg =
      headline(ir_sym_name(c->callee), "not elided", ir_sym_name(c->caller));
  coro_str_appendz(&msg, ": ");
  coro_str_append(&msg, why->data, why->len);
  coro_emit_remark(mlirOperationGetLocation(at), CORO_REMARK_MISSED,
                   "coro-elide", "CoroElide", coro_str_cstr(&msg));
  coro_str_free(&msg);
}

static void reject_z(struct elide *e, const struct candidate *c,
                     MlirOperation at, const char *why) {
  struct coro_str w = {0};
  coro_str_appendz(&w, why);
  reject(e, c, at, &w, false);
  coro_str_free(&w);
}

/* Checks 1 to 3 for one call; a call that passes becomes a candidate. */
static void consider(struct elide *e, MlirOperation call,
                     MlirOperation caller) {
  if (mlirOperationGetNumResults(call) != 1)
    return;
  MlirOperation callee =
      coro_handle_origin(e->module, mlirOperationGetResult(call, 0));
  if (mlirOperationIsNull(callee))
    return;
  struct candidate c = {call, caller, callee};
  MlirStringRef kind = alloc_kind(callee);
  if (coro_ref_eq(coro_coroutine_abi(callee), "async")) {
    reject_z(e, &c, call,
             "an async task's context comes from the executor's allocator");
    return;
  }
  if (coro_ref_eq(kind, "heap") || coro_ref_eq(kind, "arena")) {
    reject_z(e, &c, call,
             coro_ref_eq(kind, "heap")
                 ? "coro.alloc = \"heap\" asks for the heap"
                 : "coro.alloc = \"arena\" gives it an arena frame");
    return;
  }
  struct handle_escape why = {0};
  if (!handle_escape_call(&e->cache, call, callee, &why)) {
    reject(e, &c, why.at, &why.why, true);
    handle_escape_clear(&why);
    return;
  }
  handle_escape_clear(&why);
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 16;
    e->cand = ir_xrealloc(e->cand, e->cap * sizeof *e->cand);
  }
  e->cand[e->n++] = c;
}

struct collect {
  struct elide *e;
  MlirOperation caller;
  struct ir_opvec calls;
};

static MlirWalkResult collect_calls(MlirOperation op, void *user) {
  struct collect *c = user;
  if (coro_op_named(op, "func.call"))
    ir_opvec_push(&c->calls, op);
  return MlirWalkResultAdvance;
}

/* Whether `from` reaches `to` through candidate calls made by coroutines
 * (each such call nests the callee's frame in the caller's). */
static bool nests(const struct elide *e, MlirOperation from, MlirOperation to,
                  struct ir_ptrmap *seen) {
  if (mlirOperationEqual(from, to))
    return true;
  if (ir_ptrmap_find(seen, from.ptr))
    return false;
  ir_ptrmap_put(seen, from.ptr, (void *)1);
  for (size_t i = 0; i < e->n; ++i)
    if (mlirOperationEqual(e->cand[i].caller, from) &&
        nests(e, e->cand[i].callee, to, seen))
      return true;
  return false;
}

/* Check 4, then the marks and remarks of the candidates. */
static void decide(struct elide *e) {
  bool *cyclic = ir_xcalloc(e->n ? e->n : 1, sizeof *cyclic);
  for (size_t i = 0; i < e->n; ++i) {
    if (!coro_op_is_coroutine(e->cand[i].caller))
      continue;
    struct ir_ptrmap seen = {0};
    cyclic[i] = nests(e, e->cand[i].callee, e->cand[i].caller, &seen);
    ir_ptrmap_free(&seen);
  }
  for (size_t i = 0; i < e->n; ++i) {
    const struct candidate *c = &e->cand[i];
    if (cyclic[i]) {
      reject_z(e, c, c->call,
               mlirOperationEqual(c->caller, c->callee)
                   ? "a coroutine's frame cannot hold a frame of itself "
                     "(recursion keeps the heap)"
                   : "the frames would nest in a cycle (the callee leads "
                     "back to the caller through calls whose frames it "
                     "would hold)");
      continue;
    }
    mark(e, c->call, true);
    if (!coro_remarks_enabled(e->ctx))
      continue;
    coro_elide_remark_elided(mlirOperationGetLocation(c->call),
                             ir_sym_name(c->callee), ir_sym_name(c->caller));
  }
  free(cyclic);
}

MlirLogicalResult coro_elide_run(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = true;
  /* a nested module is a symbol table of its own: decide it by itself */
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "builtin.module") &&
        mlirLogicalResultIsFailure(coro_elide_run(op)))
      ok = false;
  struct elide e = {.ctx = mlirOperationGetContext(module),
                    .module = module,
                    .cache = {.module = module}};
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn)) {
    if (!coro_op_named(fn, "func.func"))
      continue;
    struct collect c = {.e = &e, .caller = fn};
    mlirOperationWalk(fn, collect_calls, &c, MlirWalkPreOrder);
    for (size_t i = 0; i < c.calls.n; ++i)
      consider(&e, c.calls.v[i], fn);
    free(c.calls.v);
  }
  decide(&e);
  handle_escape_cache_free(&e.cache);
  free(e.cand);
  return ok && !e.failed ? mlirLogicalResultSuccess()
                         : mlirLogicalResultFailure();
}
