/* coro_split.c - --coro-split: coro's own split of LLVM-dialect coroutines
 * of every ABI (route B), in place of LLVM's CoroSplit; the pass driver.
 *
 * For a module (each nested module by itself) it splits every llvm.func
 * marked `passthrough = ["presplitcoroutine"]`: the coroutines with
 * elided calls first, callees before callers (elided_calls.c), each
 * through split_one (coroutine.c). Then one scan of the module finds what
 * is left (async size records, marked continuation calls, consumer
 * intrinsics) for split_async.c, split_retcon.c and split_consumers.c,
 * and the declarations of the coroutine intrinsics nothing calls any more
 * go. Nothing of LLVM's coroutine machinery is left.
 *
 * The files of this folder, by concern: coroutine.c (one coroutine: the
 * analyses, checks, remarks, part names), variant.c (rewriting one part:
 * intrinsics, allocas, returns), frame_access.c (frame fields, spills,
 * reloads and landings), reach.c (what a part reaches and copies),
 * sweep.c (SSA repair and erasing what died), elided_calls.c (calls that
 * give the frame in the caller), and one file per ABI: split_switch.c,
 * split_retcon.c (retcon and retcon.once), split_async.c; with the
 * analyses they use (coro_shape, suspend_crossing, frame_layout, remat,
 * split_sink, split_dynamic, frame_debug) and the consumers' lowering
 * (split_consumers.c). split_internal.h says what they share. */
#include "transforms/CoroSplit/coro_split.h"
#include "dialect/contract.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "transforms/CoroSplit/split_internal.h"

#include <assert.h>
#include <stdlib.h>

/* Splits `coro` and records it (and its parts, by name) as done. */
static bool split_and_record(MlirOperation coro, MlirSymbolTable table,
                             bool elide, struct ir_ptrmap *done,
                             struct ir_ptrmap *retcon, uint64_t *size,
                             uint64_t *align) {
  MlirStringRef name = ir_sym_name(coro);
  struct coro_str base = {0};
  coro_str_append(&base, name.data, name.length);
  MlirStringRef state =
      mlirStringRefCreateFromCString(CORO_CONTINUATION_STATE_ATTR);
  bool numbered =
      !mlirAttributeIsNull(mlirOperationGetAttributeByName(coro, state));
  mlirOperationRemoveAttributeByName(coro, state);
  const struct split_abi *abi;
  bool ok = split_coroutine(coro, table, elide, size, align, &abi);
  ir_ptrmap_put(done, coro.ptr, (void *)1);
  if (ok && numbered && abi == &split_abi_retcon)
    ir_ptrmap_put(retcon, coro.ptr, (void *)1);
  /* the switch parts, then a retcon coroutine's continuations */
  struct ir_opvec parts = {0};
  for (int v = V_RESUME; v < V_CONT; ++v) {
    struct coro_str n =
        split_part_name_of(mlirStringRefCreate(base.data, base.len), v);
    MlirOperation part =
        mlirSymbolTableLookup(table, mlirStringRefCreate(n.data, n.len));
    coro_str_free(&n);
    if (!mlirOperationIsNull(part))
      ir_opvec_push(&parts, part);
  }
  split_continuations(table, mlirStringRefCreate(base.data, base.len), &parts);
  for (size_t i = 0; i < parts.n; ++i)
    ir_ptrmap_put(done, parts.v[i].ptr, (void *)1);
  free(parts.v);
  coro_str_free(&base);
  return ok;
}

static bool is_intrinsic_decl(MlirOperation op) {
  if (!coro_op_named(op, "llvm.func") ||
      !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
    return false;
  MlirStringRef n = ir_sym_name(op);
  return n.length > 10 && !memcmp(n.data, "llvm.coro.", 10);
}

/* Erases the declarations of coroutine intrinsics nothing calls any more
 * (`called`: the names still called, as identifiers; a producer declares
 * the overloaded ones, as the retcon conversion does
 * llvm.coro.suspend.retcon.*): none is left after the split. */
static void drop_intrinsic_decls(MlirOperation module,
                                 const struct ir_ptrmap *called) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (is_intrinsic_decl(op) &&
        !ir_ptrmap_find(called, mlirIdentifierGet(mlirOperationGetContext(op),
                                                  ir_sym_name(op))
                                    .ptr))
      ir_symbol_erase(op);
    op = next;
  }
}

/* Notes what `op` leaves to do in `left`; an intrinsic only at the top of
 * its function `fn` (`top`), as the consumers' lowering takes them. */
static void scan_op(MlirOperation op, MlirOperation fn, bool top,
                    struct split_leftovers *left, struct ir_ptrmap *called) {
  if (ir_is_lifetime_marker(op)) {
    MlirValue p = mlirOperationGetOperand(op, 0);
    if (!mlirValueIsAOpResult(p) ||
        !coro_op_named(mlirOpResultGetOwner(p), "llvm.alloca"))
      ir_opvec_push(&left->stray_markers, op);
    return;
  }
  if (left->outside_marks &&
      coro_ref_eq(ir_callee(op), CORO_OUTSIDE_FRAME_MARKER)) {
    ir_opvec_push(&left->stray_markers, op); /* its alloca stayed out */
    return;
  }
  enum coro_intr k = coro_intr_classify(op);
  if (k == CI_ASYNC_SIZE_REPLACE) {
    ir_opvec_push(&left->size_replace, op);
  } else if (k != CI_NONE && top) {
    ir_opvec_push(&left->intr, op);
    ir_opvec_push(&left->intr_fn, fn);
  } else if (k != CI_NONE) {
    split_note_callee(called, op); /* nested: kept, as is its declaration */
  } else if (coro_op_named(op, "llvm.call") &&
             !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
                 op,
                 mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR)))) {
    ir_opvec_push(&left->marked, op);
  }
}

struct scan_nested {
  MlirOperation fn;
  struct split_leftovers *left;
  struct ir_ptrmap *called;
};

static MlirWalkResult scan_nested_op(MlirOperation op, void *user) {
  struct scan_nested *n = user;
  scan_op(op, n->fn, false, n->left, n->called);
  return MlirWalkResultAdvance;
}

static void scan_top_op(MlirOperation op, MlirOperation fn, void *user) {
  struct scan_nested *n = user;
  scan_op(op, fn, true, n->left, n->called);
  n->fn = fn;
  for (intptr_t i = 0; i < mlirOperationGetNumRegions(op); ++i)
    for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(op, i));
         ir_op_walk_next(&w);)
      mlirOperationWalk(w.op, scan_nested_op, n, MlirWalkPreOrder);
}

/* Fills `left` from every llvm.func of `module`. */
static void split_scan_module(MlirOperation module,
                              struct split_leftovers *left,
                              struct ir_ptrmap *called) {
  struct scan_nested n = {{NULL}, left, called};
  ir_each_func_op(module, scan_top_op, &n);
}

/* Whether the body of `fn` holds a coroutine's own intrinsic (any but
 * those that use a handle from outside: resume, destroy, done, promise,
 * noop, subfn.addr, prepare.retcon). */
static bool holds_coroutine_intrinsic(MlirOperation fn) {
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
       ir_op_walk_next(&w);) {
    switch (coro_intr_classify(w.op)) {
    case CI_NONE:
    case CI_RESUME:
    case CI_DESTROY:
    case CI_DONE:
    case CI_PROMISE:
    case CI_NOOP:
    case CI_SUBFN_ADDR:
    case CI_PREPARE_RETCON:
      break;
    default:
      return true;
    }
  }
  return false;
}

MlirLogicalResult coro_split_run(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  /* a nested module is a symbol table of its own: split it by itself */
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "builtin.module") &&
        mlirLogicalResultIsFailure(coro_split_run(op)))
      return mlirLogicalResultFailure();
  size_t n = 0, cap = 8;
  MlirOperation *coros = ir_xmalloc(cap * sizeof *coros);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coro_op_named(op, "llvm.func") || !coro_mark_presplit(op) ||
        mlirRegionIsNull(mlirOperationGetRegion(op, 0)) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      continue;
    if (!holds_coroutine_intrinsic(op)) {
      /* as LLVM's CoroSplit: a function marked but with no coroutine in
       * it has nothing to split, and is no longer marked */
      ir_passthrough_drop(op, "presplitcoroutine");
      continue;
    }
    if (n == cap) {
      cap *= 2;
      coros = ir_xrealloc(coros, cap * sizeof *coros);
    }
    coros[n++] = op;
  }
  /* the split's table is the one coro_lookup_symbol answers from */
  struct ir_symbol_scope scope;
  ir_symbol_scope_enter(&scope, module);
  MlirSymbolTable table = ir_symbol_scope_table(&scope);
  bool ok = true;
  struct ir_ptrmap done = {0};
  /* the retcon ones whose continuations may be numbered */
  struct ir_ptrmap retcon = {0};
  uint64_t size, align;
  /* Coroutines with elided calls (coro.elided, or coro.alloc = "elide")
   * first, callees before callers, each giving its callers' frames before
   * those are split; the others after. Elided calls between coroutines in
   * a cycle (which --coro-elide never marks) keep the heap. */
  bool *wanted = ir_xcalloc(n ? n : 1, sizeof *wanted);
  struct elided_calls calls = {0};
  split_find_elided_calls(module, coros, n, &calls);
  for (size_t k = 0; k < calls.caller.n; ++k)
    wanted[calls.call[k].callee] = true;
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < n; ++i) {
      if (mlirOperationIsNull(coros[i]) || !wanted[i] ||
          split_waits_for_elided(&calls, coros[i], i, coros))
        continue;
      MlirOperation c = coros[i];
      coros[i] = (MlirOperation){NULL};
      progress = true;
      bool split =
          split_and_record(c, table, true, &done, &retcon, &size, &align);
      ok &= split;
      if (split)
        split_elide_calls(&calls, i, c, &done, size, align);
    }
  }
  free(wanted);
  split_elided_calls_free(&calls);
  for (size_t i = 0; i < n; ++i)
    if (!mlirOperationIsNull(coros[i]))
      ok &= split_and_record(coros[i], table, false, &done, &retcon, &size,
                             &align);
  free(coros);
  struct split_leftovers left = {0};
  struct ir_ptrmap called = {0};
  if (ok) {
    MlirOperation mark = mlirSymbolTableLookup(
        table, mlirStringRefCreateFromCString(CORO_OUTSIDE_FRAME_MARKER));
    left.outside_marks = !mlirOperationIsNull(mark);
    split_scan_module(module, &left, &called);
    /* LLVM takes a lifetime marker only on an alloca; the frame is laid
     * out, so the coro.outside.frame marks are done with */
    for (size_t i = 0; i < left.stray_markers.n; ++i)
      mlirOperationDestroy(left.stray_markers.v[i]);
    if (left.outside_marks)
      mlirSymbolTableErase(table, mark);
    ok = split_async_size_replace(table, &left);
  }
  if (ok) {
    split_direct_continuation_calls(module, table, &left, &retcon);
    ok = coro_split_lower_consumers(module, table, &done, &left, &called);
  }
  if (ok)
    drop_intrinsic_decls(module, &called);
  free(left.size_replace.v);
  free(left.marked.v);
  free(left.intr.v);
  free(left.intr_fn.v);
  free(left.stray_markers.v);
  ir_ptrmap_free(&left.changed);
  ir_ptrmap_free(&called);
  ir_ptrmap_free(&done);
  ir_ptrmap_free(&retcon);
  ir_symbol_scope_exit(&scope);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
