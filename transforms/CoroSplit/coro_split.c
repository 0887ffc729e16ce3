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
#include "ir/op_cache.h"
#include "ir/parallel.h"
#include "ir/support.h"
#include "ir/symbols.h"
#include "transforms/CoroSplit/split_internal.h"

#include "mlir-c/BuiltinAttributes.h"

#include <assert.h>
#include <stdlib.h>
#include <threads.h>

/* Takes off `coro`'s mark that its retcon continuations may be numbered,
 * and says whether it had one. */
static bool take_numbered_mark(MlirOperation coro) {
  MlirStringRef state =
      mlirStringRefCreateFromCString(CORO_CONTINUATION_STATE_ATTR);
  bool numbered =
      !mlirAttributeIsNull(mlirOperationGetAttributeByName(coro, state));
  mlirOperationRemoveAttributeByName(coro, state);
  return numbered;
}

/* Records the split `coro` (and its parts, by name) as done. */
static void record_split(MlirOperation coro, MlirSymbolTable table, bool ok,
                         bool numbered, const struct split_abi *abi,
                         struct ir_ptrmap *done, struct ir_ptrmap *retcon) {
  ir_ptrmap_put(done, coro.ptr, (void *)1);
  if (ok && numbered && abi == &split_abi_retcon)
    ir_ptrmap_put(retcon, coro.ptr, (void *)1);
  MlirStringRef name = ir_sym_name(coro);
  /* the switch parts, then a retcon coroutine's continuations */
  struct ir_opvec parts = {0};
  for (int v = V_RESUME; v < V_CONT; ++v) {
    struct coro_str n = split_part_name_of(name, v);
    MlirOperation part =
        mlirSymbolTableLookup(table, mlirStringRefCreate(n.data, n.len));
    coro_str_free(&n);
    if (!mlirOperationIsNull(part))
      ir_opvec_push(&parts, part);
  }
  split_continuations(table, name, &parts);
  for (size_t i = 0; i < parts.n; ++i)
    ir_ptrmap_put(done, parts.v[i].ptr, (void *)1);
  free(parts.v);
}

/* Splits `coro` and records it (and its parts, by name) as done. */
static bool split_and_record(MlirOperation coro, MlirSymbolTable table,
                             bool elide, struct ir_ptrmap *done,
                             struct ir_ptrmap *retcon, uint64_t *size,
                             uint64_t *align) {
  bool numbered = take_numbered_mark(coro);
  const struct split_abi *abi = NULL;
  bool ok = split_coroutine(coro, table, elide, size, align, &abi);
  record_split(coro, table, ok, numbered, abi, done, retcon);
  return ok;
}

/*===-- Coroutines split at once ------------------------------------------===*/

/* One coroutine of a module split on MLIR's threads: what the split makes
 * besides the coroutine itself (its parts, the declarations it needs) waits
 * in `made` until every coroutine is split, and is then placed in the
 * module in the order the split makes it one coroutine after another. */
struct split_task {
  MlirOperation coro;
  bool elide, numbered, ok;
  uint64_t size, align;
  const struct split_abi *abi;
  struct ir_symbol_deferral made;
};

struct split_tasks {
  struct split_task *task;
  MlirSymbolTable table; /* the module's, read only meanwhile */
  struct split_cache_pool caches;
};

void split_cache_pool_init(struct split_cache_pool *p, MlirContext ctx,
                           size_t n) {
  *p = (struct split_cache_pool){
      .ctx = ctx,
      .idle = ir_xmalloc((n ? n : 1) * sizeof *p->idle),
      .caches = ir_xmalloc((n ? n : 1) * sizeof *p->caches)};
  if (mtx_init(&p->lock, mtx_plain) != thrd_success)
    ir_out_of_memory();
}

struct ir_op_cache *split_cache_take(struct split_cache_pool *p) {
  mtx_lock(&p->lock);
  struct ir_op_cache *c = p->nidle ? p->idle[--p->nidle] : NULL;
  mtx_unlock(&p->lock);
  if (c) {
    ir_op_cache_resume(c);
    return c;
  }
  c = ir_xmalloc(sizeof *c);
  ir_op_cache_enter(c, p->ctx);
  mtx_lock(&p->lock);
  p->caches[p->ncaches++] = c;
  mtx_unlock(&p->lock);
  return c;
}

void split_cache_give(struct split_cache_pool *p, struct ir_op_cache *c) {
  ir_op_cache_set_aside(c);
  mtx_lock(&p->lock);
  p->idle[p->nidle++] = c;
  mtx_unlock(&p->lock);
}

void split_cache_pool_free(struct split_cache_pool *p) {
  for (size_t i = 0; i < p->ncaches; ++i) {
    ir_op_cache_exit(p->caches[i]);
    free(p->caches[i]);
  }
  free(p->idle);
  free(p->caches);
  mtx_destroy(&p->lock);
}

static void run_task(size_t i, void *user) {
  struct split_tasks *all = user;
  struct split_task *t = &all->task[i];
  struct ir_op_cache *cache = split_cache_take(&all->caches);
  ir_symbol_defer_begin(&t->made);
  t->ok = split_coroutine(t->coro, all->table, t->elide, &t->size, &t->align,
                          &t->abi);
  ir_symbol_defer_end(&t->made);
  split_cache_give(&all->caches, cache);
}

/* Whether `fn` holds a coroutine id that names no other coroutine of
 * `coros` (by a call or an address: reading a coroutine that another thread
 * is splitting), with the function pointer records of its async ids in
 * `records` (the split writes a record's context size: two coroutines
 * naming one are not split at once). Reads only. */
static bool splits_alone(MlirOperation fn, MlirSymbolTable table,
                         const struct ir_ptrmap *coros,
                         struct ir_opvec *records) {
  bool has_id = false;
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
       ir_op_walk_next(&w);) {
    enum coro_intr k = coro_intr_classify(w.op);
    has_id |= k == CI_ID || k == CI_ID_RETCON || k == CI_ID_RETCON_ONCE ||
              k == CI_ID_ASYNC;
    if (k == CI_ID_ASYNC) {
      MlirAttribute rec =
          mlirOperationGetNumOperands(w.op) > 3
              ? ir_symbol_addressed(mlirOperationGetOperand(w.op, 3))
              : (MlirAttribute){NULL};
      MlirOperation g = mlirAttributeIsNull(rec)
                            ? (MlirOperation){NULL}
                            : mlirSymbolTableLookup(
                                  table, mlirFlatSymbolRefAttrGetValue(rec));
      /* a malformed id is reported by the one-at-a-time split */
      if (mlirOperationIsNull(g))
        return false;
      ir_opvec_push(records, g);
      continue;
    }
    const char *attr = NULL;
    if (coro_op_named(w.op, "llvm.mlir.addressof"))
      attr = "global_name";
    else if (coro_op_named(w.op, "llvm.call") ||
             coro_op_named(w.op, "llvm.invoke"))
      attr = "callee";
    else
      continue;
    MlirAttribute sym = mlirOperationGetAttributeByName(
        w.op, mlirStringRefCreateFromCString(attr));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAFlatSymbolRef(sym))
      continue;
    MlirOperation named =
        mlirSymbolTableLookup(table, mlirFlatSymbolRefAttrGetValue(sym));
    if (!mlirOperationIsNull(named) && !mlirOperationEqual(named, fn) &&
        ir_ptrmap_find(coros, named.ptr))
      return false;
  }
  return has_id;
}

/* splits_alone for every coroutine, in pieces of consecutive ones on
 * MLIR's threads. */
enum { ALONE_PIECE = 64 };
struct alone_pieces {
  MlirOperation *coros;
  size_t n;
  MlirSymbolTable table;
  const struct ir_ptrmap *set;
  bool *alone;              /* per coroutine */
  struct ir_opvec *records; /* per coroutine */
};

static void alone_piece(size_t k, void *user) {
  struct alone_pieces *a = user;
  for (size_t i = k * ALONE_PIECE; i < a->n && i < (k + 1) * ALONE_PIECE; ++i)
    a->alone[i] = splits_alone(a->coros[i], a->table, a->set, &a->records[i]);
}

/* Whether the coroutines coros[0..n) of `module` may be split at once:
 * MLIR's threads are there, the module is for the host (a device frame's
 * size is a global the split adds), no coroutine names another and no
 * two async ones share a function pointer record, and none makes an elided
 * call of a coroutine (whose split rewrites it: elided_calls.c), so that
 * the coroutines are split in the order of the one-at-a-time path and
 * nothing one split reads another changes (a retcon split only reads its
 * prototype and allocator, which other coroutines may share). */
static bool split_at_once(MlirOperation module, MlirSymbolTable table,
                          MlirOperation *coros, size_t n,
                          const struct elided_calls *calls) {
  MlirContext ctx = mlirOperationGetContext(module);
  if (n < 2 || !ir_parallel_enabled(ctx) || coro_module_is_device(module))
    return false;
  for (size_t i = 0; i < n; ++i)
    if (ir_ptrmap_find(&calls->by_caller, coros[i].ptr))
      return false;
  struct ir_ptrmap set = {0}, records = {0};
  for (size_t i = 0; i < n; ++i)
    ir_ptrmap_put(&set, coros[i].ptr, (void *)1);
  struct alone_pieces a = {.coros = coros,
                           .n = n,
                           .table = table,
                           .set = &set,
                           .alone = ir_xcalloc(n, sizeof *a.alone),
                           .records = ir_xcalloc(n, sizeof *a.records)};
  ir_parallel_for(ctx, (n + ALONE_PIECE - 1) / ALONE_PIECE, alone_piece, &a);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    ok &= a.alone[i];
    for (size_t j = 0; ok && j < a.records[i].n; ++j) {
      ok = !ir_ptrmap_find(&records, a.records[i].v[j].ptr);
      ir_ptrmap_put(&records, a.records[i].v[j].ptr, (void *)1);
    }
    free(a.records[i].v);
  }
  free(a.alone);
  free(a.records);
  ir_ptrmap_free(&set);
  ir_ptrmap_free(&records);
  return ok;
}

/* Splits coros[0..n) at once (split_at_once holds), in the order of the
 * one-at-a-time path: the callees of elided calls (`wanted`), then the
 * others, each in module order. Then places what each made, records it
 * and rewrites the elided calls of it, in that order. */
static bool split_all_at_once(MlirOperation module, MlirSymbolTable table,
                              MlirOperation *coros, size_t n,
                              const bool *wanted, struct elided_calls *calls,
                              struct ir_ptrmap *done,
                              struct ir_ptrmap *retcon) {
  struct split_task *task = ir_xcalloc(n, sizeof *task);
  size_t *index = ir_xmalloc(n * sizeof *index);
  size_t k = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < n; ++i)
      if (wanted[i] == (pass == 0)) {
        index[k] = i;
        task[k].coro = coros[i];
        task[k].elide = wanted[i];
        task[k].numbered = take_numbered_mark(coros[i]);
        ++k;
      }
  struct split_tasks all = {.task = task, .table = table};
  MlirContext ctx = mlirOperationGetContext(module);
  split_cache_pool_init(&all.caches, ctx, n);
  ir_parallel_for(ctx, n, run_task, &all);
  split_cache_pool_free(&all.caches);
  bool ok = true;
  for (k = 0; k < n; ++k) {
    struct split_task *t = &task[k];
    /* a declaration an earlier coroutine's split placed is the one the
     * one-at-a-time split would have found */
    for (size_t j = 0; j < t->made.n; ++j) {
      MlirOperation sym = t->made.v[j];
      if (!mlirOperationIsNull(mlirSymbolTableLookup(table, ir_sym_name(sym))))
        mlirOperationDestroy(sym);
      else
        ir_symbol_place(module, sym);
    }
    free(t->made.v);
    record_split(t->coro, table, t->ok, t->numbered, t->abi, done, retcon);
    ok &= t->ok;
    if (t->ok && t->elide)
      split_elide_calls(calls, index[k], t->coro, done, t->size, t->align);
  }
  free(index);
  free(task);
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

/* The scan of the module's functions in pieces on MLIR's threads (it only
 * reads): each piece fills its own leftovers and names. */
struct scan_pieces {
  struct ir_pieces pieces;
  struct split_leftovers *left; /* per piece */
  struct ir_ptrmap *called;     /* per piece */
};

static void scan_piece(size_t k, void *user) {
  struct scan_pieces *s = user;
  struct scan_nested n = {{NULL}, &s->left[k], &s->called[k]};
  ir_each_piece_op(&s->pieces, k, scan_top_op, &n);
}

/* Moves the ops of `from` to the end of `to`. */
static void append_ops(struct ir_opvec *to, struct ir_opvec *from) {
  ir_opvec_append(to, from);
  free(from->v);
}

/* Fills `left` from every llvm.func of `module`, in module order. */
static void split_scan_module(MlirOperation module,
                              struct split_leftovers *left,
                              struct ir_ptrmap *called) {
  struct scan_pieces s = {0};
  ir_func_pieces_init(&s.pieces, module);
  size_t n = s.pieces.n;
  s.left = ir_xcalloc(n + 1, sizeof *s.left);
  s.called = ir_xcalloc(n + 1, sizeof *s.called);
  for (size_t k = 0; k < n; ++k)
    s.left[k].outside_marks = left->outside_marks;
  ir_parallel_for(mlirOperationGetContext(module), n, scan_piece, &s);
  for (size_t k = 0; k < n; ++k) {
    struct split_leftovers *p = &s.left[k];
    append_ops(&left->size_replace, &p->size_replace);
    append_ops(&left->marked, &p->marked);
    append_ops(&left->intr, &p->intr);
    append_ops(&left->intr_fn, &p->intr_fn);
    append_ops(&left->stray_markers, &p->stray_markers);
    ir_ptrmap_merge(called, &s.called[k]);
    ir_ptrmap_free(&s.called[k]);
  }
  free(s.left);
  free(s.called);
  free(s.pieces.op);
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

/* The functions of one piece of the module marked presplit (marked now
 * where they hold an unsplit coroutine id) that hold a coroutine; a
 * function marked with none has nothing to split and, as LLVM's CoroSplit
 * does, is no longer marked. On MLIR's threads: each changes only the
 * function it looks at. */
struct list_pieces {
  struct ir_pieces pieces;
  struct ir_opvec *found; /* per piece */
};

static void list_piece(size_t k, void *user) {
  struct list_pieces *l = user;
  size_t begin, end;
  ir_piece(&l->pieces, k, &begin, &end);
  for (size_t i = begin; i < end; ++i) {
    MlirOperation op = l->pieces.op[i];
    if (!coro_mark_presplit(op))
      continue;
    if (!holds_coroutine_intrinsic(op)) {
      coro_unmark_presplit(op);
      continue;
    }
    ir_opvec_push(&l->found[k], op);
  }
}

/* The coroutines of the llvm.func ops of `module`, in order (*n of them;
 * the caller frees the array). */
static MlirOperation *list_coroutines(MlirOperation module, size_t *n) {
  struct list_pieces l = {0};
  ir_func_pieces_init(&l.pieces, module);
  l.found = ir_xcalloc(l.pieces.n + 1, sizeof *l.found);
  ir_parallel_for(mlirOperationGetContext(module), l.pieces.n, list_piece, &l);
  struct ir_opvec all = {0};
  for (size_t k = 0; k < l.pieces.n; ++k)
    append_ops(&all, &l.found[k]);
  free(l.found);
  free(l.pieces.op);
  *n = all.n;
  return all.v ? all.v : ir_xmalloc(sizeof *all.v);
}

MlirLogicalResult coro_split_run(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  /* a nested module is a symbol table of its own: split it by itself */
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "builtin.module") &&
        mlirLogicalResultIsFailure(coro_split_run(op)))
      return mlirLogicalResultFailure();
  size_t n = 0;
  MlirOperation *coros = list_coroutines(module, &n);
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
  if (split_at_once(module, table, coros, n, &calls)) {
    ok = split_all_at_once(module, table, coros, n, wanted, &calls, &done,
                           &retcon);
    for (size_t i = 0; i < n; ++i)
      coros[i] = (MlirOperation){NULL};
  }
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
