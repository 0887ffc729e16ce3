/* elided_calls.c - calls whose coroutine frame lives in the caller.
 *
 * A direct call of a switch coroutine that --coro-elide marked
 * (coro.elided), or of one that asserts coro.alloc = "elide", becomes a
 * call of NAME.elided on an alloca of the frame's size in the caller's
 * entry block (LLVM's CoroElide does the same on route A). The callee is
 * split first, so its frame size is known; the pass driver orders the
 * coroutines by these calls (split_waits_for_elided). */
#include "dialect/contract.h"
#include "ir/func.h"
#include "ir/parallel.h"
#include "ir/support.h"
#include "ir/types.h"
#include "transforms/CoroSplit/split_internal.h"
#include "transforms/coro_elide.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdlib.h>

static bool asserts_elision(MlirOperation coro) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      coro, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
         coro_ref_eq(mlirStringAttrGetValue(a), "elide");
}

/* Whether the call `op` of the coroutine `coro` gets its frame in its
 * caller: what --coro-elide decided (coro.elided), or, where it did not
 * run, whether `coro` asserts coro.alloc = "elide". */
static bool call_elided(MlirOperation op, MlirOperation coro) {
  MlirAttribute d = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_ELIDED_ATTR));
  if (!mlirAttributeIsNull(d) && mlirAttributeIsABool(d))
    return mlirBoolAttrGetValue(d);
  return asserts_elision(coro);
}

/* The elided calls one piece of the module's functions makes (found on
 * MLIR's threads: reading only), each with its caller and callee. */
struct found_call {
  MlirOperation fn;
  size_t callee;
};
struct piece_calls {
  struct found_call *v;
  size_t n, cap;
};

struct find_elided {
  MlirOperation *coros;
  struct ir_ptrmap index; /* a coroutine's name (identifier) -> 1 + number */
  struct ir_pieces pieces;
  struct piece_calls *found; /* per piece */
};

struct piece_walk {
  const struct find_elided *f;
  struct piece_calls *out;
};

static void note_elided_call(MlirOperation op, MlirOperation fn, void *user) {
  struct piece_walk *w = user;
  MlirStringRef c = ir_callee(op);
  if (!c.length)
    return;
  size_t i = (size_t)ir_ptrmap_find(
      &w->f->index, mlirIdentifierGet(mlirOperationGetContext(op), c).ptr);
  if (!i-- || !call_elided(op, w->f->coros[i]))
    return;
  struct piece_calls *out = w->out;
  out->v = ir_grow(out->v, &out->cap, out->n, sizeof *out->v);
  out->v[out->n++] = (struct found_call){fn, i};
}

static void find_in_piece(size_t k, void *user) {
  struct find_elided *f = user;
  struct piece_walk w = {f, &f->found[k]};
  ir_each_piece_op(&f->pieces, k, note_elided_call, &w);
}

/* Records the elided call of coroutine `i` in `fn`, after those before it
 * in module order. */
static void add_call(struct elided_calls *e, MlirOperation fn, size_t i) {
  size_t k = e->caller.n;
  e->call = ir_grow(e->call, &e->cap, k, sizeof *e->call);
  e->call[k] = (struct elided_call){
      .callee = i,
      .next_of_callee = e->first_of_callee[i],
      .next_of_caller = (size_t)ir_ptrmap_find(&e->by_caller, fn.ptr)};
  e->first_of_callee[i] = k + 1;
  ir_ptrmap_put(&e->by_caller, fn.ptr, (void *)(k + 1));
  ir_opvec_push(&e->caller, fn);
}

/* Fills `e` from every llvm.func of `module`, in one pass (its pieces on
 * MLIR's threads, then joined in order): the splits only ever remove such
 * calls (of a coroutine split, whose number is done). */
void split_find_elided_calls(MlirOperation module, MlirOperation *coros,
                             size_t n, struct elided_calls *e) {
  struct find_elided f = {.coros = coros};
  MlirContext ctx = mlirOperationGetContext(module);
  for (size_t i = 0; i < n; ++i)
    ir_ptrmap_put(&f.index, mlirIdentifierGet(ctx, ir_sym_name(coros[i])).ptr,
                  (void *)(i + 1));
  e->first_of_callee = ir_xcalloc(n + 1, sizeof *e->first_of_callee);
  ir_func_pieces_init(&f.pieces, module);
  f.found = ir_xcalloc(f.pieces.n + 1, sizeof *f.found);
  if (n)
    ir_parallel_for(ctx, f.pieces.n, find_in_piece, &f);
  for (size_t k = 0; k < f.pieces.n; ++k) {
    for (size_t j = 0; j < f.found[k].n; ++j)
      add_call(e, f.found[k].v[j].fn, f.found[k].v[j].callee);
    free(f.found[k].v);
  }
  free(f.found);
  free(f.pieces.op);
  ir_ptrmap_free(&f.index);
}

void split_elided_calls_free(struct elided_calls *e) {
  free(e->caller.v);
  free(e->call);
  free(e->first_of_callee);
  ir_ptrmap_free(&e->by_caller);
}

/* Whether coroutine number `i` (the function `self`) makes an elided call
 * of a coroutine still pending in coros[] other than itself: such a callee
 * is split first, its frame size then known. */
bool split_waits_for_elided(const struct elided_calls *e, MlirOperation self,
                            size_t i, const MlirOperation *coros) {
  for (size_t k = (size_t)ir_ptrmap_find(&e->by_caller, self.ptr); k--;
       k = e->call[k].next_of_caller)
    if (e->call[k].callee != i &&
        !mlirOperationIsNull(coros[e->call[k].callee]))
      return true;
  return false;
}

/* The elided call `op` (in `fn`) of the coroutine `name`, whose frame is
 * `frame` aligned to `align`, becomes a call of NAME.elided (`sym`) on an
 * alloca of the caller's entry block. */
static void elide_call(MlirOperation op, MlirOperation fn, MlirStringRef name,
                       MlirAttribute sym, MlirType frame, uint64_t align) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  struct ir_builder e = ir_before(mlirBlockGetFirstOperation(entry));
  e.loc = mlirOperationGetLocation(op);
  MlirValue mem =
      ir_alloca(&e, ir_const_int(&e, 64, 1), frame, (unsigned)align);
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirOperationGetOperand(op, i);
  args[n] = mem;
  struct ir_builder c = ir_before(op);
  MlirValue h = ir_call(&c, sym, false, n + 1, args,
                        mlirValueGetType(mlirOperationGetResult(op, 0)));
  free(args);
  /* --coro-elide has told the user already where it decided */
  bool decided = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_ELIDED_ATTR)));
  split_replace_result(op, h);
  split_erase(op);
  if (!decided)
    coro_elide_remark_elided(mlirOperationGetLocation(mlirOpResultGetOwner(h)),
                             name, ir_sym_name(fn));
}

/* A `tail` call promises that the callee touches no alloca of the caller.
 * The caller may have been given that mark before it had any frame in it
 * (LLVM's tailcallelim runs before the split, under -O2's pre-split
 * simplification); a frame in it now reaches other code (the coroutine's
 * continuation, a task's waiters on another thread), so the mark would
 * let LLVM keep the frame's fields loaded across those calls. Drops it
 * from the calls of `fn` (musttail stays: it is a requirement, not a
 * promise about allocas, and none is made here). */
static void drop_tail_marks(MlirOperation fn) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirAttribute tail = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#llvm.tailcallkind<tail>"));
  MlirAttribute none = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#llvm.tailcallkind<none>"));
  MlirStringRef key = mlirStringRefCreateFromCString("TailCallKind");
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
       ir_op_walk_next(&w);) {
    if (!coro_op_named(w.op, "llvm.call"))
      continue;
    MlirAttribute kind = mlirOperationGetAttributeByName(w.op, key);
    if (!mlirAttributeIsNull(kind) && mlirAttributeEqual(kind, tail))
      mlirOperationSetAttributeByName(w.op, key, none);
  }
}

/* Gives every direct call of the elided coroutine `coro` in a function not
 * split yet (`done` holds the split ones) a frame in its caller: an alloca
 * of the frame's size and alignment in the caller's entry block, passed to
 * NAME.elided. The frame of a call site is reused each time the call runs,
 * as LLVM's CoroElide does: the handle must be destroyed before the call
 * runs again, and before its caller returns (what coro.alloc = "elide"
 * asserts). */
void split_elide_calls(const struct elided_calls *e, size_t i,
                       MlirOperation coro, const struct ir_ptrmap *done,
                       uint64_t size, uint64_t align) {
  MlirContext ctx = mlirOperationGetContext(coro);
  MlirStringRef name = ir_sym_name(coro);
  struct coro_str elided = split_part_name_of(name, V_ELIDED);
  MlirAttribute sym = mlirFlatSymbolRefAttrGet(
      ctx, mlirStringRefCreate(elided.data, elided.len));
  MlirType frame = mlirLLVMArrayTypeGet(ir_int_type(ctx, 8), size);
  struct ir_ptrmap walked = {0}; /* a caller may make several such calls */
  for (size_t k = e->first_of_callee[i]; k--; k = e->call[k].next_of_callee) {
    MlirOperation fn = e->caller.v[k];
    if (ir_ptrmap_find(done, fn.ptr) || ir_ptrmap_find(&walked, fn.ptr))
      continue;
    ir_ptrmap_put(&walked, fn.ptr, fn.ptr);
    bool elided_here = false;
    for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
         ir_op_walk_next(&w);)
      if (mlirStringRefEqual(ir_callee(w.op), name) &&
          call_elided(w.op, coro)) {
        elide_call(w.op, fn, name, sym, frame, align);
        elided_here = true;
      }
    if (elided_here)
      drop_tail_marks(fn);
  }
  ir_ptrmap_free(&walked);
  coro_str_free(&elided);
}
