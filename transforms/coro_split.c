/* coro_split.c - --coro-split: coro's own split of switched-resume
 * coroutines (route B), in place of LLVM's CoroSplit.
 *
 * For each llvm.func marked `passthrough = ["presplitcoroutine"]` it
 *   1. collects and checks the coroutine (coro_shape.h),
 *   2. computes what each suspension keeps (suspend_crossing.h) and lays
 *      out the frame with sharing (frame_layout.h),
 *   3. clones the body into NAME.resume, NAME.destroy and NAME.cleanup
 *      (internal fastcc void(ptr frame)), each entered through a dispatch
 *      block that loads the suspension index and jumps to that
 *      suspension's landing, where the values it keeps are reloaded and
 *      its branch continues as if llvm.coro.suspend had returned 0
 *      (resume) or 1 (destroy, cleanup): a block of its own, or the front
 *      of the block it continues with when that block has no other
 *      predecessor;
 *   4. rewrites the original into the ramp: at each suspension it stores
 *      the values kept and the index, and continues as if the suspend had
 *      returned -1 (to the coroutine's return);
 *   5. in every variant, folds the branches the suspend results now decide,
 *      erases what became unreachable and, in the clones, rebuilds SSA form
 *      over the reloads (ir/ssa.h).
 * Then every consumer intrinsic in the module (resume, destroy, done,
 * promise, noop) becomes loads, calls and pointer arithmetic on the frame
 * header. Nothing of LLVM's coroutine machinery is left.
 *
 * Semantics kept from LLVM: values are stored at llvm.coro.save (the
 * await.suspend wrapper between save and suspend may resume the coroutine
 * elsewhere); a final suspension clears the resume pointer (coro.done);
 * NAME.cleanup is NAME.destroy with llvm.coro.free returning null;
 * await.suspend.handle ends in a musttail call to the next coroutine's
 * resume function when the suspended path returns at once. */
#include "transforms/coro_split.h"
#include "conversion/CoroToNVVM/convert_coro_to_nvvm.h"
#include "coro-runtime/HandleLayout.h"
#include "dialect/support.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/cfg.h"
#include "ir/copy.h"
#include "ir/func.h"
#include "ir/remark.h"
#include "ir/ssa.h"
#include "ir/types.h"
#include "transforms/coro_elide.h"
#include "transforms/coro_shape.h"
#include "transforms/frame_debug.h"
#include "transforms/frame_layout.h"
#include "transforms/remat.h"
#include "transforms/split_internal.h"
#include "transforms/suspend_crossing.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const suffix[V_COUNT] = {"",         ".resume", ".destroy",
                                            ".cleanup", ".elided", ".resume."};

static bool is_clone(enum variant v) { return v != V_RAMP && v != V_ELIDED; }

MlirValue split_mapv(const struct variant_state *vs, MlirValue v) {
  return vs->map ? ir_map_lookup(vs->map, v) : v;
}

/*===--- small builders -----------------------------------------------------*/

static void put_field_ptr(struct variant_state *vs, struct ir_builder *b,
                          uint64_t offset) {
  if (offset && !ir_ptrmap_find(&vs->fptr, (void *)(uintptr_t)offset))
    ir_ptrmap_put(&vs->fptr, (void *)(uintptr_t)offset,
                  (void *)ir_gep_bytes(b, vs->frame, (int)offset).ptr);
}

/* The ramp's addresses of the promise and of every alloca's field, at
 * `b` (before coro.begin's place), where they dominate every use of the
 * allocas they replace. */
static void make_field_ptrs(struct variant_state *vs, struct ir_builder *b) {
  const struct split *sp = vs->sp;
  if (!mlirValueIsNull(sp->shape.promise))
    put_field_ptr(vs, b, sp->fl.promise_offset);
  for (size_t it = 0; it < sp->sc.nitem; ++it)
    if (sp->sc.item[it].alloca)
      put_field_ptr(vs, b, sp->fl.field[it].offset);
}

/* Frame accesses are built once per variant and kind, then cloned:
 * cloning an op costs a fraction of building one from its name and
 * attributes. A template is a detached copy whose operands are the frame,
 * so that it keeps nothing of the function alive (destroyed with the
 * variant's state). */
static MlirOperation from_template(const struct ir_ptrmap *m, const void *key,
                                   struct ir_builder *b, intptr_t n,
                                   const MlirValue *operands) {
  MlirOperation tpl = {ir_ptrmap_find(m, key)};
  if (mlirOperationIsNull(tpl))
    return tpl;
  MlirOperation op = ir_op_copy(tpl, b->loc, n, operands, 0, NULL);
  ir_insert(b, op);
  return op;
}

static void keep_template(const struct variant_state *vs, struct ir_ptrmap *m,
                          const void *key, MlirOperation made) {
  MlirOperation tpl = mlirOperationClone(made);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(tpl); ++i)
    mlirOperationSetOperand(tpl, i, vs->frame);
  ir_ptrmap_put(m, key, (void *)tpl.ptr);
}

static void free_templates(struct ir_ptrmap *m) {
  for (size_t i = 0; i < m->cap; ++i)
    if (m->from[i])
      mlirOperationDestroy((MlirOperation){m->to[i]});
  ir_ptrmap_free(m);
}

/* The addresses a merged landing made at the front of `block`, or null
 * (see variant_state.front). */
static struct ir_ptrmap *front_of(struct variant_state *vs, MlirBlock block) {
  for (size_t k = 0; k < SPLIT_FRONTS && k < vs->nfront; ++k)
    if (mlirBlockEqual(vs->front[k].block, block))
      return &vs->front[k].at;
  return NULL;
}

/* Starts the front of `block`, where a landing is merged (make_landing). */
static void begin_front(struct variant_state *vs, MlirBlock block) {
  size_t k = vs->nfront++ % SPLIT_FRONTS;
  vs->front[k].block = block;
  ir_ptrmap_clear(&vs->front[k].at);
  vs->building = k + 1;
}

static void forget_fronts(struct variant_state *vs) {
  for (size_t k = 0; k < SPLIT_FRONTS; ++k)
    ir_ptrmap_free(&vs->front[k].at);
  vs->nfront = vs->building = 0;
}

/* The address of the field at `offset` for an access at `b`: in the ramp
 * the one made for an alloca's field or the promise, in a block a landing
 * was merged into the one that landing made at its front, else a GEP
 * right there. Either way the address is in the access's block: at -O0 a
 * GEP in the block of its use folds into the access, where one made in
 * the entry block would be kept in a stack slot across the function. */
MlirValue split_field_at(struct variant_state *vs, struct ir_builder *b,
                         uint64_t offset) {
  if (!offset)
    return vs->frame;
  const void *key = (const void *)(uintptr_t)offset;
  MlirValue v = {ir_ptrmap_find(&vs->fptr, key)};
  if (!mlirValueIsNull(v))
    return v;
  struct ir_ptrmap *front = front_of(vs, b->block);
  if (front) {
    v.ptr = ir_ptrmap_find(front, key);
    if (!mlirValueIsNull(v))
      return v;
  }
  MlirOperation op = from_template(&vs->tpl_gep, key, b, 1, &vs->frame);
  if (!mlirOperationIsNull(op)) {
    v = mlirOperationGetResult(op, 0);
  } else {
    v = ir_gep_bytes(b, vs->frame, (int)offset);
    keep_template(vs, &vs->tpl_gep, key, mlirOpResultGetOwner(v));
  }
  /* only a landing's own addresses precede every later access */
  if (front && vs->building && front == &vs->front[vs->building - 1].at)
    ir_ptrmap_put(front, key, (void *)v.ptr);
  return v;
}

/* A load of the field at `offset` (of type `t`, aligned to `align`). */
static MlirValue load_field(struct variant_state *vs, struct ir_builder *b,
                            uint64_t offset, MlirType t, unsigned align) {
  MlirValue at = split_field_at(vs, b, offset);
  /* types are 8-aligned pointers: the low bits hold log2(align) <= 6 */
  if (!align || align > 64)
    return ir_load(b, at, t, align);
  const void *key =
      (const void *)((uintptr_t)t.ptr | (uintptr_t)__builtin_ctz(align));
  MlirOperation op = from_template(&vs->tpl_load, key, b, 1, &at);
  if (!mlirOperationIsNull(op))
    return mlirOperationGetResult(op, 0);
  MlirValue v = ir_load(b, at, t, align);
  keep_template(vs, &vs->tpl_load, key, mlirOpResultGetOwner(v));
  return v;
}

/* A store of `v` into the field at `offset`, aligned to `align`; returns
 * the store. */
static MlirOperation store_field(struct variant_state *vs, struct ir_builder *b,
                                 MlirValue v, uint64_t offset, unsigned align) {
  MlirValue at = split_field_at(vs, b, offset);
  const void *key = (const void *)(uintptr_t)(align + 1);
  MlirValue operands[2] = {v, at};
  MlirOperation op = from_template(&vs->tpl_store, key, b, 2, operands);
  if (mlirOperationIsNull(op)) {
    op = ir_store(b, v, at, align);
    keep_template(vs, &vs->tpl_store, key, op);
  }
  return op;
}

static bool unused(MlirOperation op);
static bool dead_value(MlirOperation op);

/* Destroys `op`. Its results must be unused by now (asserted); should one
 * not be, its uses get poison rather than a dangling value. */
void split_erase(MlirOperation op) {
  if (!unused(op)) {
    assert(false && "erasing an op whose results are still used");
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      struct ir_builder b = ir_before(op);
      mlirValueReplaceAllUsesOfWith(
          v, ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(v)));
    }
  }
  mlirOperationDestroy(op);
}

void split_replace_result(MlirOperation op, MlirValue with) {
  if (mlirOperationGetNumResults(op))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), with);
}

static MlirValue const_like(struct ir_builder *b, MlirOperation op, int64_t v) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  return ir_const_int(b, mlirIntegerTypeGetWidth(t), v);
}

/* Replaces the result of `op`, if it has one that is used, by the constant
 * `v` (at `b`): no constant nothing uses (the sweep looks only where the
 * rewrite leaves those, see sweep). */
static void replace_by_const(struct ir_builder *b, MlirOperation op,
                             int64_t v) {
  if (mlirOperationGetNumResults(op) &&
      !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
    split_replace_result(op, const_like(b, op, v));
}

/* The ops of `block` from `from` on (all of them when `from` is null), in
 * order; the caller frees the array. */
static MlirOperation *ops_from(MlirBlock block, MlirOperation from, size_t *n) {
  size_t cap = 16;
  MlirOperation *ops = malloc(cap * sizeof *ops);
  assert(ops && "out of memory");
  *n = 0;
  for (MlirOperation op =
           mlirOperationIsNull(from) ? mlirBlockGetFirstOperation(block) : from;
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (*n == cap) {
      cap *= 2;
      ops = realloc(ops, cap * sizeof *ops);
      assert(ops && "out of memory");
    }
    ops[(*n)++] = op;
  }
  return ops;
}

MlirAttribute split_named(MlirValue v) {
  if (!mlirValueIsAOpResult(v) ||
      !coro_op_named(mlirOpResultGetOwner(v), "llvm.mlir.addressof"))
    return (MlirAttribute){NULL};
  MlirAttribute a = mlirOperationGetAttributeByName(
      mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("global_name"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a)
             ? a
             : (MlirAttribute){NULL};
}

MlirValue split_call(struct ir_builder *b, MlirValue fn, intptr_t n,
                     const MlirValue *args, MlirType result) {
  MlirAttribute sym = split_named(fn);
  return mlirAttributeIsNull(sym)
             ? ir_call_indirect(b, fn, 0, 0, n, args, result)
             : ir_call(b, sym, false, n, args, result);
}

/* Whether `op` is a constant or a conversion or comparison (what a
 * suspension's tail decides its branch with) that nothing uses. */
static bool dead_pure(MlirOperation op) {
  static const char *const pure[] = {"llvm.sext", "llvm.zext", "llvm.trunc",
                                     "llvm.icmp"};
  bool dead = coro_op_is_constant(op);
  for (size_t k = 0; k < sizeof pure / sizeof *pure && !dead; ++k)
    dead = coro_op_named(op, pure[k]);
  for (intptr_t r = 0; dead && r < mlirOperationGetNumResults(op); ++r)
    dead = mlirOpOperandIsNull(
        mlirValueGetFirstUse(mlirOperationGetResult(op, r)));
  return dead;
}

/* Erases the dead_pure ops among `from` and the ops after it in its
 * block, last first (so chains of them go too). */
static void erase_dead_pure(MlirBlock block, MlirOperation from) {
  size_t n;
  MlirOperation *ops = ops_from(block, from, &n);
  for (size_t i = n; i-- > 0;)
    if (dead_pure(ops[i]))
      split_erase(ops[i]);
  free(ops);
}

/* Replaces the terminator of `block` by a plain branch when the ops from
 * `from` on (the suspend results are constants by now) decide it; true
 * when it did. */
static bool fold_terminator(MlirBlock block, MlirOperation from) {
  MlirOperation term = mlirBlockGetTerminator(block);
  if (mlirOperationGetNumSuccessors(term) < 2)
    return false;
  intptr_t k = coro_branch_target(mlirOperationIsNull(from) ? term : from);
  intptr_t first, count;
  if (k < 0 || !ir_successor_operands(term, k, &first, &count))
    return false;
  MlirValue *args = malloc((size_t)(count + 1) * sizeof *args);
  assert(args && "out of memory");
  for (intptr_t i = 0; i < count; ++i)
    args[i] = mlirOperationGetOperand(term, first + i);
  struct ir_builder b = ir_before(term);
  ir_br(&b, mlirOperationGetSuccessor(term, k), count, args);
  free(args);
  split_erase(term);
  return true;
}

/* fold_terminator, then erases what only decided the branch. */
static void fold_branch(MlirBlock block, MlirOperation from) {
  bool at_term = mlirOperationIsNull(from) ||
                 mlirOperationEqual(from, mlirBlockGetTerminator(block));
  if (fold_terminator(block, from) && !at_term)
    erase_dead_pure(block, from);
}

/*===--- suspensions --------------------------------------------------------*/

/* True when the suspended (-1) path of `s` goes straight to the fall-through
 * coro.end, so nothing runs between the suspension and the return. */
static bool returns_at_once(const struct coro_suspend *s) {
  intptr_t k = coro_suspend_target(s, -1);
  if (k < 0)
    return false;
  MlirOperation term =
      mlirBlockGetTerminator(mlirOperationGetBlock(s->suspend));
  MlirBlock dest = mlirOperationGetSuccessor(term, k);
  for (MlirOperation op = mlirBlockGetFirstOperation(dest);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (coro_op_is_constant(op))
      continue;
    if (coro_intr_classify(op) != CI_END)
      return false;
    int64_t unwind = 1;
    coro_const_int(mlirOperationGetOperand(op, 1), &unwind);
    return !unwind;
  }
  return false;
}

/* Clears the resume pointer of `frame`: the coroutine is done. */
static void mark_done(struct variant_state *vs, struct ir_builder *b) {
  ir_store(b, ir_null(b), split_field_at(vs, b, CORO_HANDLE_RESUME_OFFSET), 8);
}

/* Stores what suspension `i` keeps, its index and, for a final one, the
 * null resume pointer, before `at`. */
void split_store_kept(struct variant_state *vs, size_t i, MlirOperation at) {
  struct split *sp = vs->sp;
  struct ir_builder b = ir_before(at);
  for (size_t q = sp->sc.start[i]; q < sp->sc.start[i + 1]; ++q) {
    size_t it = sp->sc.list[q];
    if (sp->sc.item[it].alloca || sp->rm.remat[q])
      continue;
    const struct frame_field *f = &sp->fl.field[it];
    store_field(vs, &b, split_mapv(vs, sp->sc.item[it].value), f->offset,
                (unsigned)f->align);
  }
}

static void store_state(struct variant_state *vs, size_t i, MlirOperation at) {
  struct split *sp = vs->sp;
  split_store_kept(vs, i, at);
  struct ir_builder b = ir_before(at);
  MlirValue index = ir_const_int(&b, sp->fl.index_width, (long long)i);
  MlirOperation st =
      store_field(vs, &b, index, sp->fl.index_offset, sp->fl.index_width / 8);
  if (vs->index_store)
    vs->index_store[i] = st;
  /* A final suspension marks the coroutine done before anything it calls
   * can look; a save in another block may not reach the suspend, so then
   * the mark waits for the suspend itself. */
  const struct coro_suspend *s = &vs->shape.susp[i];
  if (s->final) {
    if (!mlirBlockEqual(mlirOperationGetBlock(at),
                        mlirOperationGetBlock(s->suspend)))
      b = ir_before(s->suspend);
    mark_done(vs, &b);
  }
}

/* Calls the await wrapper in place of the await intrinsic; returns its
 * result (null for .void). */
static MlirValue call_wrapper(const struct coro_suspend *s, MlirType ptr,
                              MlirType i1) {
  struct ir_builder b = ir_before(s->await);
  MlirValue args[2] = {mlirOperationGetOperand(s->await, 0),
                       mlirOperationGetOperand(s->await, 1)};
  MlirType result = s->await_kind == CI_AWAIT_BOOL     ? i1
                    : s->await_kind == CI_AWAIT_HANDLE ? ptr
                                                       : (MlirType){NULL};
  /* the wrapper is named (llvm.mlir.addressof) in every producer we know:
   * called directly */
  MlirValue r =
      split_call(&b, mlirOperationGetOperand(s->await, 2), 2, args, result);
  if (s->await_kind == CI_AWAIT_BOOL)
    split_replace_result(s->await, r);
  split_erase(s->await);
  return r;
}

/* Resumes the coroutine `next` points to: a call of its resume function,
 * `musttail` followed by the return when `tail`. On the device (`device`),
 * where the parts return the handle to run next: the return of `next`
 * when `tail`, else a call of the resume loop CORO_DEVICE_RUN. */
static void resume_next(struct ir_builder *b, MlirValue next, bool tail,
                        bool device) {
  if (device) {
    /* no musttail on the device: a part returns the handle to run next to
     * the resume loop that called it, or runs that loop itself */
    if (tail)
      ir_op(b, "llvm.return", 1, &next, 0, NULL, 0, NULL, 0, NULL);
    else
      ir_call(b,
              mlirFlatSymbolRefAttrGet(
                  b->ctx, mlirStringRefCreateFromCString(CORO_DEVICE_RUN)),
              false, 1, &next, (MlirType){NULL});
    return;
  }
  MlirValue fn = ir_load(b, next, ir_ptr_type(b->ctx), 8);
  ir_call_indirect(b, fn, MlirLLVMCConvFast, tail ? 2 : 0, 1, &next,
                   (MlirType){NULL});
  if (tail)
    ir_op(b, "llvm.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
}

/* Erases `from` and everything after it in its block. A result still
 * used elsewhere (in blocks only reachable through this one) gets poison. */
void split_erase_from(MlirOperation from) {
  size_t n;
  MlirOperation *ops = ops_from(mlirOperationGetBlock(from), from, &n);
  for (size_t i = n; i-- > 0;) {
    MlirOperation op = ops[i];
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
        continue;
      struct ir_builder b = ir_before(from);
      mlirValueReplaceAllUsesOfWith(
          v, ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(v)));
    }
    split_erase(op);
  }
  free(ops);
}

/* Reloads, then recomputations from them (definition order). */
void split_reload_kept(struct variant_state *vs, size_t i,
                       struct ir_builder *b) {
  struct split *sp = vs->sp;
  /* the reloads a recomputation uses, if there is one */
  bool remat = false;
  for (size_t q = sp->sc.start[i]; q < sp->sc.start[i + 1] && !remat; ++q)
    remat = sp->rm.remat[q];
  struct ir_map here = {0};
  for (size_t q = sp->sc.start[i]; q < sp->sc.start[i + 1]; ++q) {
    size_t it = sp->sc.list[q];
    if (sp->sc.item[it].alloca || !vs->need[it])
      continue;
    MlirValue mine = split_mapv(vs, sp->sc.item[it].value);
    if (sp->rm.remat[q]) {
      MlirOperation copy =
          ir_clone_op(mlirOpResultGetOwner(mine), &here, b->block, b->before);
      vs->reload[q] = mlirOperationGetResult(copy, 0);
      continue;
    }
    const struct frame_field *f = &sp->fl.field[it];
    vs->reload[q] = load_field(vs, b, f->offset, f->type, (unsigned)f->align);
    if (remat)
      ir_map_value(&here, mine, vs->reload[q]);
  }
  ir_map_free(&here);
}

/* Records the values of `suspend`'s tail used in another block, with
 * their copies `m` made in landing `l` (see variant_state.tail_v). */
static void note_tail_uses(struct variant_state *vs, MlirOperation suspend,
                           const struct ir_map *m, MlirBlock l) {
  MlirBlock home = mlirOperationGetBlock(suspend);
  for (MlirOperation op = mlirOperationGetNextInBlock(suspend);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      bool outside = false;
      for (MlirOpOperand u = mlirValueGetFirstUse(v);
           !mlirOpOperandIsNull(u) && !outside; u = mlirOpOperandGetNextUse(u))
        outside = !mlirBlockEqual(
            mlirOperationGetBlock(mlirOpOperandGetOwner(u)), home);
      MlirValue copy = ir_map_lookup(m, v);
      if (!outside || mlirValueIsNull(copy))
        continue;
      if (vs->ntail == vs->captail) {
        vs->captail = vs->captail ? 2 * vs->captail : 4;
        vs->tail_v = realloc(vs->tail_v, vs->captail * sizeof *vs->tail_v);
        vs->tail_copy =
            realloc(vs->tail_copy, vs->captail * sizeof *vs->tail_copy);
        vs->tail_at = realloc(vs->tail_at, vs->captail * sizeof *vs->tail_at);
        assert(vs->tail_v && vs->tail_copy && vs->tail_at && "out of memory");
      }
      vs->tail_v[vs->ntail] = v;
      vs->tail_copy[vs->ntail] = copy;
      vs->tail_at[vs->ntail++] = l;
    }
}

/* The block suspension `i` continues with when its suspend returns `c`,
 * if the landing can be merged into its front: the suspension's tail
 * decides it (and the suspended path, so that the rewrite folds that
 * branch away), it takes no arguments and the suspension's block reaches
 * it through that one edge and is its only predecessor (in the
 * original's graph: a clone's edges are among its original's). Null
 * otherwise. */
static MlirBlock merge_target(const struct variant_state *vs, size_t i,
                              int64_t c) {
  const struct split *sp = vs->sp;
  const struct coro_suspend *s = &vs->shape.susp[i];
  intptr_t k = coro_suspend_target(s, c);
  if (k < 0 || coro_suspend_target(s, -1) < 0)
    return (MlirBlock){NULL};
  MlirBlock home = mlirOperationGetBlock(s->suspend);
  MlirOperation term = mlirBlockGetTerminator(home);
  MlirBlock t = mlirOperationGetSuccessor(term, k);
  if (mlirBlockEqual(t, home) || mlirBlockGetNumArguments(t))
    return (MlirBlock){NULL};
  for (intptr_t j = 0; j < mlirOperationGetNumSuccessors(term); ++j)
    if (j != k && mlirBlockEqual(mlirOperationGetSuccessor(term, j), t))
      return (MlirBlock){NULL};
  MlirOperation oterm =
      mlirBlockGetTerminator(mlirOperationGetBlock(sp->shape.susp[i].suspend));
  size_t ot = ir_cfg_index(&sp->cfg, mlirOperationGetSuccessor(oterm, k));
  if (ot == IR_CFG_NONE ||
      sp->cfg.pred_start[ot + 1] - sp->cfg.pred_start[ot] != 1)
    return (MlirBlock){NULL};
  return t;
}

/* Copies the ops of suspension `s`'s tail but its terminator before
 * `before` in `block` (at its end when null), the suspend returning `cv`,
 * into `copies` (`tail` maps the originals to them). */
static void copy_tail(const struct coro_suspend *s, MlirValue cv,
                      MlirBlock block, MlirOperation before,
                      struct ir_map *tail, struct ir_opvec *copies) {
  ir_map_value(tail, mlirOperationGetResult(s->suspend, 0), cv);
  MlirOperation term =
      mlirBlockGetTerminator(mlirOperationGetBlock(s->suspend));
  for (MlirOperation op = mlirOperationGetNextInBlock(s->suspend);
       !mlirOperationEqual(op, term); op = mlirOperationGetNextInBlock(op))
    ir_opvec_push(copies, ir_clone_op(op, tail, block, before));
}

/* Erases, last first, the copies of a tail that nothing uses once the
 * landing's branch is decided (dead_pure, or a dead_value the sweep would
 * find), but not those the SSA repair gives other blocks (vs->tail_copy
 * from `noted` on). */
static void erase_dead_copies(struct variant_state *vs,
                              const struct ir_opvec *copies, size_t noted) {
  for (size_t k = copies->n; k-- > 0;) {
    MlirOperation op = copies->v[k];
    bool keep = !dead_pure(op) && !dead_value(op);
    for (size_t j = noted; j < vs->ntail && !keep; ++j)
      keep = mlirOperationEqual(mlirOpResultGetOwner(vs->tail_copy[j]), op);
    if (!keep)
      split_erase(op);
  }
}

/* The landing of suspension `i` merged into the front of `t`, the block it
 * continues with (merge_target): the reloads and the copy of the tail
 * before `t`'s own ops.
 * No branch to make, and the accesses `t` makes later share the
 * landing's addresses (a chain's next block stores into the fields it
 * reloaded from). */
static void merge_landing(struct variant_state *vs, size_t i, int64_t c,
                          MlirBlock t) {
  const struct coro_suspend *s = &vs->shape.susp[i];
  MlirOperation first = mlirBlockGetFirstOperation(t);
  vs->merged[i] = true;
  struct ir_builder b = ir_before(first);
  b.loc = mlirOperationGetLocation(s->suspend);
  begin_front(vs, t);
  split_reload_kept(vs, i, &b);
  vs->building = 0;
  MlirValue cv = ir_const_int(&b, 8, c);
  struct ir_map tail = {0};
  struct ir_opvec copies = {0};
  ir_opvec_push(&copies, mlirOpResultGetOwner(cv));
  copy_tail(s, cv, t, first, &tail, &copies);
  size_t noted = vs->ntail;
  note_tail_uses(vs, s->suspend, &tail, t);
  ir_map_free(&tail);
  erase_dead_copies(vs, &copies, noted);
  free(copies.v);
}

/* A landing block of suspension `i` for a clone: reloads what it keeps,
 * then a copy of the suspension's tail with the suspend returning `c`
 * (merged into the block that follows when it can be, merge_landing). */
static MlirBlock make_landing(struct variant_state *vs, size_t i, int64_t c) {
  MlirBlock t = merge_target(vs, i, c);
  if (!mlirBlockIsNull(t)) {
    merge_landing(vs, i, c, t);
    return t;
  }
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  const struct coro_suspend *s = &vs->shape.susp[i];
  MlirLocation loc = mlirOperationGetLocation(s->suspend);
  MlirBlock l = ir_new_block(region, 0, NULL, loc);
  struct ir_builder b = ir_at_end(l, loc);
  split_reload_kept(vs, i, &b);
  MlirValue cv = ir_const_int(&b, 8, c);
  struct ir_map tail = {0};
  struct ir_opvec copies = {0};
  copy_tail(s, cv, l, (MlirOperation){NULL}, &tail, &copies);
  MlirOperation term =
      mlirBlockGetTerminator(mlirOperationGetBlock(s->suspend));
  MlirOperation tcopy = ir_clone_op(term, &tail, l, (MlirOperation){NULL});
  size_t noted = vs->ntail;
  note_tail_uses(vs, s->suspend, &tail, l);
  ir_map_free(&tail);
  fold_terminator(l, copies.n ? copies.v[0] : tcopy);
  erase_dead_copies(vs, &copies, noted);
  free(copies.v);
  return l;
}

/*===--- what each variant reaches ------------------------------------------*/

/* Pushes successor `k` of the terminator of `b` (all of them when `k` is
 * -1) onto the work list, once. */
static void reach_succ(const struct ir_cfg *g, size_t b, MlirBlock block,
                       intptr_t k, bool *seen, size_t *work, size_t *n) {
  if (k >= 0) {
    MlirOperation term = mlirBlockGetTerminator(block);
    size_t t = ir_cfg_index(g, mlirOperationGetSuccessor(term, k));
    if (t != IR_CFG_NONE && !seen[t]) {
      seen[t] = true;
      work[(*n)++] = t;
    }
    return;
  }
  for (size_t e = g->succ_start[b]; e < g->succ_start[b + 1]; ++e)
    if (!seen[g->succ[e]]) {
      seen[g->succ[e]] = true;
      work[(*n)++] = g->succ[e];
    }
}

/* Which suspensions variant `v` reaches once rewritten, on the original's
 * graph: the ramp starts at the entry, a clone at what its landings
 * continue with (the suspend returning 0 in NAME.resume, 1 in the others);
 * every suspension reached goes on as if the suspend returned -1. Where a
 * tail does not decide its successor from the suspend's result alone, all
 * successors count, so the answer only ever errs towards "reached". The
 * suspensions a variant does not reach are left to die with their blocks
 * rather than rewritten (NAME.destroy reaches no more than the cleanup
 * paths, the ramp no more than its first suspensions). */
static void variant_reach(const struct split *sp, enum variant v, size_t cont,
                          bool *live, bool *seen) {
  const struct ir_cfg *g = &sp->cfg;
  size_t ns = sp->shape.nsusp;
  size_t *work = malloc((g->n + 1) * sizeof *work);
  size_t *at = malloc((ns + 1) * sizeof *at);               /* block of each */
  size_t *decisive = malloc((g->n + 1) * sizeof *decisive); /* 1 + susp */
  assert(work && at && decisive && "out of memory");
  for (size_t b = 0; b < g->n; ++b) {
    decisive[b] = 0;
    seen[b] = false;
  }
  for (size_t i = 0; i < ns; ++i) {
    at[i] = ir_cfg_index(g, mlirOperationGetBlock(sp->shape.susp[i].suspend));
    live[i] = false;
    if (at[i] != IR_CFG_NONE)
      decisive[at[i]] = decisive[at[i]] ? SIZE_MAX : i + 1; /* two: none */
  }
  size_t n = 0;
  if (is_clone(v)) {
    for (size_t i = 0; i < ns; ++i) {
      const struct coro_suspend *s = &sp->shape.susp[i];
      if (at[i] == IR_CFG_NONE || (v == V_RESUME && s->final) ||
          (v == V_CONT && i != cont))
        continue;
      reach_succ(g, at[i], mlirOperationGetBlock(s->suspend),
                 coro_suspend_target(s, v == V_RESUME ? 0 : 1), seen, work, &n);
    }
  } else if (g->n) {
    seen[0] = true;
    work[n++] = 0;
  }
  while (n) {
    size_t b = work[--n];
    size_t d = decisive[b];
    intptr_t k = -1;
    if (d && d != SIZE_MAX) {
      live[d - 1] = true;
      if (sp->abi->suspend_returns)
        continue;
      k = coro_suspend_target(&sp->shape.susp[d - 1], -1);
    } else if (d == SIZE_MAX) {
      for (size_t i = 0; i < ns; ++i)
        live[i] |= at[i] == b;
    }
    reach_succ(g, b, g->block[b], k, seen, work, &n);
  }
  free(work);
  free(at);
  free(decisive);
}

enum {
  ITEM_USE_UNNUMBERED = 1, /* a use in a block the graph does not number */
  ITEM_USE_TAIL = 2        /* a use by an op of a suspension's tail */
};

/* Fills sp->use_start, use_block and use_flags: one walk over the uses of
 * the items, which every variant then reads (variant_needs) instead of
 * walking them again. */
static void note_item_uses(struct split *sp) {
  const struct suspend_crossing *sc = &sp->sc;
  struct ir_ptrmap tail = {0}; /* the ops after each suspend in its block */
  for (size_t i = 0; i < sp->shape.nsusp; ++i)
    for (MlirOperation op =
             mlirOperationGetNextInBlock(sp->shape.susp[i].suspend);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      ir_ptrmap_put(&tail, op.ptr, (void *)1);
  sp->use_start = malloc((sc->nitem + 1) * sizeof *sp->use_start);
  sp->use_flags = calloc(sc->nitem + 1, sizeof *sp->use_flags);
  size_t n = 0, cap = sc->nitem + 1; /* a use each, to begin with */
  sp->use_block = malloc(cap * sizeof *sp->use_block);
  assert(sp->use_start && sp->use_flags && sp->use_block && "out of memory");
  for (size_t it = 0; it < sc->nitem; ++it) {
    sp->use_start[it] = n;
    if (sc->item[it].alloca)
      continue;
    MlirBlock last = {NULL};
    for (MlirOpOperand u = mlirValueGetFirstUse(sc->item[it].value);
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation owner = mlirOpOperandGetOwner(u);
      if (ir_ptrmap_find(&tail, owner.ptr))
        sp->use_flags[it] |= ITEM_USE_TAIL;
      MlirBlock ub = mlirOperationGetBlock(owner);
      if (mlirBlockEqual(ub, last))
        continue;
      last = ub;
      size_t b = ir_cfg_index(&sp->cfg, ub);
      if (b == IR_CFG_NONE) {
        sp->use_flags[it] |= ITEM_USE_UNNUMBERED;
        continue;
      }
      sp->use_block = ir_grow(sp->use_block, &cap, n, sizeof *sp->use_block);
      sp->use_block[n++] = b;
    }
  }
  sp->use_start[sc->nitem] = n;
  ir_ptrmap_free(&tail);
}

/* Which items a clone reloads: those used in a block it reaches (`seen`,
 * on the original's graph; a use elsewhere counts) or, in a clone
 * (`clone`), by an op of a suspension's tail (which a clone's landing
 * copies), those a suspension it reaches (`live`) stores again, and the
 * operands of any item recomputed after a suspension. The others
 * (everything a chain keeps, in NAME.destroy) need no reload. */
static void variant_needs(const struct split *sp, const bool *live,
                          const bool *seen, bool clone, bool *need) {
  const struct suspend_crossing *sc = &sp->sc;
  bool any_remat = false;
  for (size_t q = 0; q < sc->start[sc->nsusp] && !any_remat; ++q)
    any_remat = sp->rm.remat[q];
  struct ir_ptrmap item_of = {0}; /* value -> 1 + item */
  unsigned char always = ITEM_USE_UNNUMBERED | (clone ? ITEM_USE_TAIL : 0);
  for (size_t it = 0; it < sc->nitem; ++it) {
    need[it] = false;
    if (sc->item[it].alloca)
      continue;
    if (any_remat)
      ir_ptrmap_put(&item_of, sc->item[it].value.ptr,
                    (void *)(uintptr_t)(it + 1));
    need[it] = sp->use_flags[it] & always;
    for (size_t k = sp->use_start[it]; k < sp->use_start[it + 1] && !need[it];
         ++k)
      need[it] = seen[sp->use_block[k]];
  }
  for (size_t su = 0; su < sc->nsusp; ++su)
    for (size_t q = sc->start[su]; live[su] && q < sc->start[su + 1]; ++q)
      need[sc->list[q]] = true;
  for (size_t q = 0; q < sc->start[sc->nsusp]; ++q) {
    if (!sp->rm.remat[q])
      continue;
    MlirOperation op = mlirOpResultGetOwner(sc->item[sc->list[q]].value);
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); ++o) {
      uintptr_t it = (uintptr_t)ir_ptrmap_find(
          &item_of, mlirOperationGetOperand(op, o).ptr);
      if (it)
        need[it - 1] = true;
    }
  }
  ir_ptrmap_free(&item_of);
}

static void rewrite_suspend(struct variant_state *vs, size_t i) {
  struct split *sp = vs->sp;
  const struct coro_suspend *s = &vs->shape.susp[i];
  bool resumable = vs->v == V_DESTROY || vs->v == V_CLEANUP ||
                   (vs->v == V_RESUME && !s->final);
  if (is_clone(vs->v) && resumable)
    vs->landing[i] = make_landing(vs, i, vs->v == V_RESUME ? 0 : 1);
  /* A save in another block may be reached without the suspend: then the
   * suspension is rewritten all the same, so no save outlives it. */
  if (!vs->live[i] && (mlirOperationIsNull(s->save) ||
                       mlirBlockEqual(mlirOperationGetBlock(s->save),
                                      mlirOperationGetBlock(s->suspend))))
    return; /* its block dies unreached */
  store_state(vs, i, mlirOperationIsNull(s->save) ? s->suspend : s->save);
  MlirValue waited = {NULL};
  if (!mlirOperationIsNull(s->await))
    waited = call_wrapper(s, sp->ptr, sp->i1);
  MlirBlock block = mlirOperationGetBlock(s->suspend);
  bool tail = false;
  if (s->await_kind == CI_AWAIT_HANDLE) {
    tail = is_clone(vs->v) && returns_at_once(s);
    struct ir_builder b = ir_before(s->suspend);
    resume_next(&b, waited, tail, sp->device);
  }
  if (tail) {
    split_erase_from(s->suspend);
  } else if (mlirOpOperandIsNull(
                 mlirValueGetFirstUse(mlirOperationGetResult(s->suspend, 0)))) {
    split_erase(s->suspend);
  } else {
    struct ir_builder b = ir_before(s->suspend);
    MlirValue minus1 = ir_const_int(&b, 8, -1);
    split_replace_result(s->suspend, minus1);
    split_erase(s->suspend);
    fold_branch(block, mlirOpResultGetOwner(minus1));
  }
  /* The save last: the suspend used its token. */
  if (!mlirOperationIsNull(s->save))
    split_erase(s->save);
}

/*===--- the other intrinsics -----------------------------------------------*/

static void rewrite_end(struct variant_state *vs, MlirOperation op) {
  struct ir_builder b = ir_before(op);
  int64_t unwind = 0;
  coro_const_int(mlirOperationGetOperand(op, 1), &unwind);
  if (!is_clone(vs->v)) {
    replace_by_const(&b, op, 0);
    split_erase(op);
    return;
  }
  replace_by_const(&b, op, 1);
  if (unwind) {
    mark_done(vs, &b);
    split_erase(op);
    return;
  }
  MlirBlock block = mlirOperationGetBlock(op);
  split_erase_from(op);
  struct ir_builder e = ir_at_end(block, b.loc);
  ir_op(&e, "llvm.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
}

static MlirValue fn_address(struct ir_builder *b, struct split *sp,
                            enum variant v) {
  struct coro_str n = {0};
  coro_str_append(&n, sp->name.data, sp->name.len);
  coro_str_appendz(&n, suffix[v]);
  MlirValue a = ir_addressof(b, coro_str_cstr(&n));
  coro_str_free(&n);
  return a;
}

static void rewrite_begin(struct variant_state *vs, MlirOperation op) {
  if (!is_clone(vs->v)) {
    struct ir_builder b = ir_before(mlirOperationGetNextInBlock(op));
    /* Each value built in its own statement: C leaves argument order. */
    MlirValue resume = fn_address(&b, vs->sp, V_RESUME);
    ir_store(&b, resume, split_field_at(vs, &b, CORO_HANDLE_RESUME_OFFSET), 8);
    /* A frame its caller owns is never freed: destroying it runs cleanup. */
    MlirValue destroy =
        fn_address(&b, vs->sp, vs->v == V_ELIDED ? V_CLEANUP : V_DESTROY);
    ir_store(&b, destroy, split_field_at(vs, &b, CORO_HANDLE_DESTROY_OFFSET),
             8);
  }
  split_replace_result(op, vs->frame);
  split_erase(op);
}

static void rewrite_intrinsic(struct variant_state *vs, MlirOperation op,
                              enum coro_intr k) {
  struct ir_builder b = ir_before(op);
  switch (k) {
  case CI_ALLOC: {
    /* Always allocate (eliding is --coro-elide's decision, made before);
     * fold the branches on it. */
    MlirValue yes = ir_const_int(&b, 1, vs->v != V_ELIDED);
    split_replace_result(op, yes);
    split_erase(op);
    for (MlirOpOperand u = mlirValueGetFirstUse(yes);
         !mlirOpOperandIsNull(u);) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      u = mlirOpOperandGetNextUse(u);
      if (coro_op_named(user, "llvm.cond_br"))
        fold_branch(mlirOperationGetBlock(user), user);
    }
    return;
  }
  case CI_SIZE:
    replace_by_const(&b, op, (int64_t)vs->sp->fl.size);
    break;
  case CI_ALIGN:
    replace_by_const(&b, op, (int64_t)vs->sp->fl.align);
    break;
  case CI_FREE:
    split_replace_result(
        op, vs->v == V_CLEANUP || vs->v == V_ELIDED ? ir_null(&b) : vs->frame);
    break;
  case CI_FRAME:
    split_replace_result(op, vs->frame);
    break;
  case CI_END:
  case CI_END_ASYNC:
    vs->sp->abi->end(vs, op);
    return;
  case CI_BEGIN:
    vs->sp->abi->begin(vs, op);
    return;
  default:
    return; /* suspensions are done; consumers are lowered module-wide */
  }
  split_erase(op);
}

MlirValue split_aligned(struct ir_builder *b, MlirValue p, uint64_t align) {
  MlirValue x = ir_ptrtoint(b, p, 64);
  MlirValue up =
      ir_binop(b, "add", x, ir_const_int(b, 64, (long long)(align - 1)));
  MlirValue y = ir_binop(b, "and", up, ir_const_int(b, 64, -(long long)align));
  return ir_val(b, "llvm.inttoptr", 1, &y, mlirValueGetType(p));
}

/* Allocas kept in the frame, and the promise, become frame addresses
 * (field_ptr; aligned at run time where the frame cannot be: realign). */
static void place_allocas(struct variant_state *vs) {
  struct split *sp = vs->sp;
  for (size_t i = 0; i <= sp->sc.nitem; ++i) {
    MlirValue a;
    uint64_t offset, realign = 0;
    if (i == sp->sc.nitem) {
      if (mlirValueIsNull(sp->shape.promise))
        break;
      a = sp->shape.promise;
      offset = sp->fl.promise_offset;
    } else if (sp->sc.item[i].alloca) {
      a = sp->sc.item[i].value;
      offset = sp->fl.field[i].offset;
      realign = sp->fl.field[i].realign;
    } else {
      continue;
    }
    MlirValue mine = split_mapv(vs, a);
    /* in a clone, an address next to each use (the frame, the dispatch
     * block's argument, dominates them all), which -O0 folds into the
     * access; in the ramp, the one make_field_ptrs made */
    while (!mlirOpOperandIsNull(mlirValueGetFirstUse(mine))) {
      MlirOpOperand u = mlirValueGetFirstUse(mine);
      MlirOperation user = mlirOpOperandGetOwner(u);
      struct ir_builder b = ir_before(user);
      MlirValue at = split_field_at(vs, &b, offset);
      mlirOperationSetOperand(user, (intptr_t)mlirOpOperandGetOperandNumber(u),
                              realign ? split_aligned(&b, at, realign) : at);
    }
    split_erase(mlirOpResultGetOwner(mine));
  }
}

/*===--- one variant --------------------------------------------------------*/

/* Moves every constant of the clone into its dispatch block, where it
 * dominates every use: those of the block after the dispatch block (the
 * copy of the coroutine's entry, which also holds the copy's
 * placeholders), then the copies of the coroutine's other constants
 * (sp->consts: found once rather than in every clone's ops). */
static void hoist_constants(struct variant_state *vs) {
  MlirBlock entry = mlirBlockGetNextInRegion(vs->dispatch);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (coro_op_is_constant(op)) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(vs->dispatch, op);
    }
    op = next;
  }
  const struct ir_opvec *consts = &vs->sp->consts;
  for (size_t i = 0; i < consts->n; ++i) {
    MlirOperation op = consts->v[i];
    if (vs->map) {
      MlirValue r = mlirOperationGetResult(op, 0);
      MlirValue copy = ir_map_lookup(vs->map, r);
      if (mlirValueEqual(copy, r))
        continue; /* not copied */
      op = mlirOpResultGetOwner(copy);
    }
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(vs->dispatch, op);
  }
}

/* A switch clone is entered with the frame, in a dispatch block. */
void split_entry_block(struct variant_state *vs, intptr_t n,
                       const MlirType *types) {
  MlirLocation *locs = malloc((size_t)(n + 1) * sizeof *locs);
  assert(locs && "out of memory");
  for (intptr_t i = 0; i < n; ++i)
    locs[i] = vs->sp->loc;
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  vs->dispatch = mlirBlockCreate(n, types, locs);
  free(locs);
  mlirRegionInsertOwnedBlockBefore(region, mlirRegionGetFirstBlock(region),
                                   vs->dispatch);
}

static void switch_clone_entry(struct variant_state *vs) {
  split_entry_block(vs, 1, &vs->sp->ptr);
  vs->frame = mlirBlockGetArgument(vs->dispatch, 0);
}

/* The switch ramp's frame is the memory coro.begin is given. */
static void switch_ramp_frame(struct variant_state *vs) {
  vs->frame = mlirOperationGetOperand(vs->shape.begin, 1);
}

/* The dispatch block's switch on the suspension index. */
static void finish_dispatch(struct variant_state *vs) {
  struct split *sp = vs->sp;
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  size_t n = vs->shape.nsusp, k = 0;
  int64_t *values = malloc((n + 1) * sizeof *values);
  MlirBlock *cases = malloc((n + 1) * sizeof *cases);
  assert(values && cases && "out of memory");
  for (size_t i = 0; i < n; ++i)
    if (!mlirBlockIsNull(vs->landing[i])) {
      values[k] = (int64_t)i;
      cases[k++] = vs->landing[i];
    }
  MlirBlock bad = ir_new_block(region, 0, NULL, sp->loc);
  struct ir_builder u = ir_at_end(bad, sp->loc);
  ir_unreachable(&u);
  struct ir_builder b = ir_at_end(vs->dispatch, sp->loc);
  MlirValue index = ir_load(&b, split_field_at(vs, &b, sp->fl.index_offset),
                            sp->idx, sp->fl.index_width / 8);
  ir_switch(&b, index, bad, (intptr_t)k, values, cases, NULL);
  free(values);
  free(cases);
}

/* Whether every suspension of the shape suspends once its state is
 * stored: its save, if any, is in the suspend's block, and it is no
 * await.suspend.bool (whose wrapper may decline). Read before the
 * suspensions are rewritten (their saves are erased then). */
static bool suspends_once_stored(const struct coro_shape *shape) {
  for (size_t i = 0; i < shape->nsusp; ++i) {
    const struct coro_suspend *s = &shape->susp[i];
    if (s->await_kind == CI_AWAIT_BOOL ||
        (!mlirOperationIsNull(s->save) &&
         !mlirBlockEqual(mlirOperationGetBlock(s->save),
                         mlirOperationGetBlock(s->suspend))))
      return false;
  }
  return true;
}

/* Erases the index stores of a clone that store the index its frame
 * already holds: a store of suspension i's index in a block that landing
 * i dominates. The clone records its index stores only when
 * suspends_once_stored holds; then no path from landing i to the store
 * stores another index, and the clone was entered with index i. A
 * generator resumed in a loop then writes nothing but its values, as a
 * hand-written state machine does. `g` is the clone's graph with
 * dominators. */
static void erase_dead(MlirOperation op, MlirBlock scan, struct ir_opvec *work);

static void drop_known_index_stores(struct variant_state *vs,
                                    const struct ir_cfg *g) {
  if (!vs->index_store)
    return;
  /* owner[b]: the suspension whose landing dominates block b, if any;
   * blocks are in reverse post-order, so idom[b] comes before b */
  size_t *owner = malloc((g->n + 1) * sizeof *owner);
  assert(owner && "out of memory");
  for (size_t b = 0; b < g->n; ++b)
    owner[b] = IR_CFG_NONE;
  for (size_t i = 0; i < vs->shape.nsusp; ++i) {
    size_t l = mlirBlockIsNull(vs->landing[i])
                   ? IR_CFG_NONE
                   : ir_cfg_index(g, vs->landing[i]);
    if (l != IR_CFG_NONE && l)
      owner[l] = i;
  }
  for (size_t b = 1; b < g->n; ++b)
    if (owner[b] == IR_CFG_NONE)
      owner[b] = owner[g->idom[b]];
  struct ir_opvec work = {0};
  for (size_t i = 0; i < vs->shape.nsusp; ++i) {
    MlirOperation st = vs->index_store[i];
    if (mlirOperationIsNull(st))
      continue;
    size_t b = ir_cfg_index(g, mlirOperationGetBlock(st));
    if (b != IR_CFG_NONE && owner[b] == i)
      erase_dead(st, (MlirBlock){NULL}, &work);
  }
  free(work.v);
  free(owner);
}

/* Rebuilds SSA form in a clone over the reloads of its landing blocks, on
 * `g`, the clone's graph (the caller's, which adds dominators to it). */
static bool repair_ssa(struct variant_state *vs, struct ir_cfg *g) {
  struct split *sp = vs->sp;
  struct ir_ssa ssa;
  ir_ssa_init(&ssa, g);
  size_t cap = 8;
  MlirBlock *blocks = malloc(cap * sizeof *blocks);
  MlirValue *defs = malloc(cap * sizeof *defs);
  assert(blocks && defs && "out of memory");
  /* cur[su]: where item `it` is in suspension su's list; items go up, so
   * every cursor only moves forward (linear in all lists together). */
  size_t *cur = malloc((sp->sc.nsusp + 1) * sizeof *cur);
  assert(cur && "out of memory");
  memcpy(cur, sp->sc.start, sp->sc.nsusp * sizeof *cur);
  bool ok = true;
  for (size_t it = 0; it < sp->sc.nitem; ++it) {
    if (sp->sc.item[it].alloca || !vs->need[it])
      continue;
    size_t n = 0;
    for (size_t q = sp->sc.istart[it]; q < sp->sc.istart[it + 1]; ++q) {
      size_t su = sp->sc.ilist[q];
      if (mlirBlockIsNull(vs->landing[su]))
        continue;
      /* The reload of item `it` at suspension `su`. */
      size_t at = cur[su];
      while (sp->sc.list[at] != it)
        ++at;
      cur[su] = at;
      if (n == cap) {
        cap *= 2;
        blocks = realloc(blocks, cap * sizeof *blocks);
        defs = realloc(defs, cap * sizeof *defs);
        assert(blocks && defs && "out of memory");
      }
      blocks[n] = vs->landing[su];
      defs[n++] = vs->reload[at];
    }
    if (n)
      ok &= ir_ssa_add_defs(&ssa, split_mapv(vs, sp->sc.item[it].value), n,
                            blocks, defs);
  }
  free(cur);
  free(blocks);
  free(defs);
  for (size_t i = 0; i < vs->ntail; ++i)
    ok &= ir_ssa_add_defs(&ssa, vs->tail_v[i], 1, &vs->tail_at[i],
                          &vs->tail_copy[i]);
  ir_ssa_free(&ssa);
  drop_known_index_stores(vs, g);
  if (!ok)
    mlirEmitError(sp->loc, "--coro-split could not rebuild SSA form: a block "
                           "reached through a terminator other than "
                           "llvm.br, llvm.cond_br or llvm.switch needs an "
                           "argument");
  return ok;
}

static bool unused(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, r))))
      return false;
  return true;
}

/* Whether `op` is a constant or an address that nothing uses. */
static bool dead_value(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 1 && unused(op) &&
         (coro_op_is_constant(op) || coro_op_named(op, "llvm.getelementptr"));
}

/* Erases `op` and then the constants and addresses it was the last user
 * of, except those of block `scan` (the caller's loop meets them later). */
static void erase_dead(MlirOperation op, MlirBlock scan,
                       struct ir_opvec *work) {
  ir_opvec_push(work, op);
  while (work->n) {
    MlirOperation o = work->v[--work->n];
    size_t below = work->n;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      if (!mlirValueIsAOpResult(v))
        continue;
      MlirOperation d = mlirOpResultGetOwner(v);
      bool dup = mlirBlockEqual(mlirOperationGetBlock(d), scan);
      for (size_t j = below; j < work->n && !dup; ++j)
        dup = mlirOperationEqual(work->v[j], d);
      if (!dup)
        ir_opvec_push(work, d);
    }
    split_erase(o);
    /* keep those `o` was the last user of */
    size_t keep = below;
    for (size_t k = below; k < work->n; ++k)
      if (dead_value(work->v[k]))
        work->v[keep++] = work->v[k];
    work->n = keep;
  }
}

/* Erases the unused reloads, and the constants and frame addresses nothing
 * uses any more, of a variant (and what they alone used). Blocks last
 * first and ops last first, so an op is met after its users in its
 * block. */
static void sweep(struct variant_state *vs) {
  struct ir_opvec work = {0};
  size_t nlist = vs->sp->sc.start[vs->sp->sc.nsusp];
  for (size_t q = 0; q < nlist; ++q)
    if (!mlirValueIsNull(vs->reload[q]) &&
        unused(mlirOpResultGetOwner(vs->reload[q])))
      erase_dead(mlirOpResultGetOwner(vs->reload[q]), (MlirBlock){NULL}, &work);
  /* A clone's constants are all in its dispatch block (hoist_constants);
   * the others the rewrite made that may die are in its landing blocks,
   * and the addresses of the index stores dropped went with them: the
   * clone's other blocks (all of NAME.resume's, which is most of a
   * coroutine) need no look. Neither do the fronts landings were merged
   * into: their reloads were seen to above, with their addresses, and
   * merge_landing erased what was dead of the tail's copies. */
  struct ir_blockvec blocks = {0};
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  if (is_clone(vs->v)) {
    ir_blockvec_push(&blocks, vs->dispatch);
    for (size_t i = 0; i < vs->shape.nsusp; ++i)
      if (!mlirBlockIsNull(vs->landing[i]) && !vs->merged[i])
        ir_blockvec_push(&blocks, vs->landing[i]);
  } else {
    for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      ir_blockvec_push(&blocks, b);
  }
  for (size_t k = blocks.n; k-- > 0;) {
    size_t n;
    MlirOperation *ops = ops_from(blocks.v[k], (MlirOperation){NULL}, &n);
    for (size_t i = n; i-- > 0;)
      if (dead_value(ops[i]))
        erase_dead(ops[i], blocks.v[k], &work);
    free(ops);
  }
  free(blocks.v);
  free(work.v);
}

/* Reads the destroy flag (CORO_DESTROY_FLAG_ATTR) as false in a variant
 * where no destroy path runs. Only loads used in their own block are
 * folded: such a value never lives across a suspension, so the analysis
 * made on the original function does not refer to it. */
static void fold_destroy_flag(struct variant_state *vs) {
  if (vs->v != V_RAMP && vs->v != V_ELIDED && vs->v != V_RESUME)
    return;
  for (size_t i = 0; i < vs->sp->flags.n; ++i) {
    MlirValue flag =
        split_mapv(vs, mlirOperationGetResult(vs->sp->flags.v[i], 0));
    if (!mlirValueIsAOpResult(flag) ||
        !coro_op_named(mlirOpResultGetOwner(flag), "llvm.alloca"))
      continue; /* a placeholder: no copied op reads it */
    for (MlirOpOperand u = mlirValueGetFirstUse(flag);
         !mlirOpOperandIsNull(u);) {
      MlirOperation load = mlirOpOperandGetOwner(u);
      u = mlirOpOperandGetNextUse(u);
      if (!coro_op_named(load, "llvm.load"))
        continue;
      MlirValue v = mlirOperationGetResult(load, 0);
      bool local = true;
      for (MlirOpOperand w = mlirValueGetFirstUse(v);
           local && !mlirOpOperandIsNull(w); w = mlirOpOperandGetNextUse(w))
        local = mlirBlockEqual(mlirOperationGetBlock(mlirOpOperandGetOwner(w)),
                               mlirOperationGetBlock(load));
      if (!local)
        continue;
      struct ir_builder at = ir_before(load);
      split_replace_result(load, ir_const_int(&at, 1, 0));
      split_erase(load);
    }
  }
}

/* On the device a part returns the handle to run next: every return that
 * transfers nowhere returns null. */
static void return_null(MlirOperation fn) {
  MlirRegion r = mlirOperationGetRegion(fn, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    MlirOperation term = mlirBlockGetTerminator(b);
    if (mlirOperationIsNull(term) || !coro_op_named(term, "llvm.return") ||
        mlirOperationGetNumOperands(term))
      continue;
    struct ir_builder at = ir_before(term);
    MlirValue null = ir_null(&at);
    ir_op(&at, "llvm.return", 1, &null, 0, NULL, 0, NULL, 0, NULL);
    split_erase(term);
  }
}

/* The shape of a variant made of the coroutine's own ops (NAME.resume,
 * which took them, resume_in_place): the coroutine's, without walking
 * them again. Only the lists a variant reads are copied: the ramp-only
 * ops and the allocas stay the coroutine's. */
static void same_shape(struct variant_state *vs) {
  const struct coro_shape *from = &vs->sp->shape;
  vs->shape = (struct coro_shape){.func = vs->fn,
                                  .abi = from->abi,
                                  .storage = from->storage,
                                  .buffer_size = from->buffer_size,
                                  .buffer_align = from->buffer_align,
                                  .id = from->id,
                                  .begin = from->begin,
                                  .promise = from->promise,
                                  .nintr = from->nintr,
                                  .nsusp = from->nsusp};
  vs->shape.intr = malloc((from->nintr + 1) * sizeof *vs->shape.intr);
  vs->shape.susp = malloc((from->nsusp + 1) * sizeof *vs->shape.susp);
  assert(vs->shape.intr && vs->shape.susp && "out of memory");
  if (from->nintr) /* the lists are null when empty */
    memcpy(vs->shape.intr, from->intr, from->nintr * sizeof *from->intr);
  if (from->nsusp)
    memcpy(vs->shape.susp, from->susp, from->nsusp * sizeof *from->susp);
}

bool split_rewrite_variant(struct variant_state *vs) {
  struct split *sp = vs->sp;
  const struct split_abi *abi = sp->abi;
  fold_destroy_flag(vs);
  if (vs->v == V_RESUME && !vs->map)
    same_shape(vs);
  else if (!coro_shape_collect(&vs->shape, vs->fn))
    return false;
  assert(vs->shape.nsusp == sp->shape.nsusp && "clones keep the shape");
  MlirRegion region = mlirOperationGetRegion(vs->fn, 0);
  if (is_clone(vs->v)) {
    abi->clone_entry(vs);
    hoist_constants(vs);
  } else if (vs->v == V_ELIDED) {
    MlirBlock entry = mlirRegionGetFirstBlock(region);
    vs->frame =
        mlirBlockGetArgument(entry, mlirBlockGetNumArguments(entry) - 1);
  } else {
    abi->ramp_frame(vs);
  }
  size_t nlist = sp->sc.start[sp->sc.nsusp];
  vs->landing = calloc(vs->shape.nsusp + 1, sizeof *vs->landing);
  vs->merged = calloc(vs->shape.nsusp + 1, sizeof *vs->merged);
  vs->reload = calloc(nlist + 1, sizeof *vs->reload);
  vs->live = calloc(vs->shape.nsusp + 1, sizeof *vs->live);
  vs->need = calloc(sp->sc.nitem + 1, sizeof *vs->need);
  if (is_clone(vs->v) && abi->header && suspends_once_stored(&vs->shape))
    vs->index_store = calloc(vs->shape.nsusp + 1, sizeof *vs->index_store);
  bool *seen = calloc(sp->cfg.n + 1, sizeof *seen);
  assert(vs->landing && vs->merged && vs->reload && vs->live && vs->need &&
         seen && "out of memory");
  variant_reach(sp, vs->v, vs->cont, vs->live, seen);
  /* A landing copies its suspension's tail: uses there count too (not
   * those before the suspend in its block, which the landing does not
   * run). */
  variant_needs(sp, vs->live, seen, is_clone(vs->v), vs->need);
  free(seen);
  struct ir_builder at = is_clone(vs->v) ? ir_at_end(vs->dispatch, sp->loc)
                                         : ir_before(vs->shape.begin);
  if (!is_clone(vs->v))
    make_field_ptrs(vs, &at);
  place_allocas(vs);
  /* Awaits that belong to a suspension go with it; any other is the call
   * of its wrapper (and, for .handle, a call resuming what it returns). */
  struct ir_ptrmap with_suspend = {0};
  for (size_t i = 0; i < vs->shape.nsusp; ++i)
    if (!mlirOperationIsNull(vs->shape.susp[i].await))
      ir_ptrmap_put(&with_suspend, vs->shape.susp[i].await.ptr, (void *)1);
  for (size_t i = 0; i < vs->shape.nsusp; ++i)
    abi->suspend(vs, i);
  forget_fronts(vs);
  for (size_t i = 0; i < vs->shape.nintr; ++i) {
    enum coro_intr k = vs->shape.intr[i].kind;
    MlirOperation op = vs->shape.intr[i].op;
    if (k == CI_AWAIT_VOID || k == CI_AWAIT_BOOL || k == CI_AWAIT_HANDLE) {
      if (ir_ptrmap_find(&with_suspend, op.ptr))
        continue;
      struct coro_suspend alone = {.await = op, .await_kind = k};
      struct ir_builder b = ir_before(mlirOperationGetNextInBlock(op));
      MlirValue r = call_wrapper(&alone, sp->ptr, sp->i1);
      if (k == CI_AWAIT_HANDLE)
        resume_next(&b, r, false, sp->device);
    } else if (k != CI_ID && k != CI_SAVE && k != CI_SUSPEND &&
               k != CI_ID_RETCON && k != CI_ID_RETCON_ONCE &&
               k != CI_SUSPEND_RETCON && k != CI_END_RESULTS &&
               k != CI_ID_ASYNC && k != CI_SUSPEND_ASYNC &&
               k != CI_ASYNC_RESUME && k != CI_ASYNC_SIZE_REPLACE) {
      rewrite_intrinsic(vs, op, k);
    }
  }
  ir_ptrmap_free(&with_suspend);
  split_erase(vs->shape.id);
  bool ok = true;
  /* a clone's graph, for the SSA repair and then for what its entry no
   * longer reaches (the repair adds no edge) */
  struct ir_cfg g = {0};
  if (is_clone(vs->v)) {
    abi->finish_entry(vs);
    ir_cfg_build(&g, region);
    ok = repair_ssa(vs, &g);
  }
  /* the templates use the frame: gone before the sweep looks for what
   * nothing uses */
  free_templates(&vs->tpl_gep);
  free_templates(&vs->tpl_load);
  free_templates(&vs->tpl_store);
  if (is_clone(vs->v)) {
    ir_erase_unnumbered(region, &g);
    ir_cfg_free(&g);
  } else {
    ir_erase_unreachable(region);
  }
  sweep(vs);
  split_unify_returns(vs->fn);
  free(vs->landing);
  free(vs->merged);
  free(vs->reload);
  free(vs->live);
  free(vs->need);
  free(vs->index_store);
  vs->index_store = NULL;
  free(vs->tail_v);
  free(vs->tail_copy);
  free(vs->tail_at);
  vs->tail_v = vs->tail_copy = NULL;
  vs->tail_at = NULL;
  vs->ntail = vs->captail = 0;
  ir_ptrmap_free(&vs->fptr);
  coro_shape_free(&vs->shape);
  return ok;
}

/*===--- one coroutine ------------------------------------------------------*/

bool coro_split_passthrough_has(MlirOperation fn, const char *what) {
  MlirAttribute p = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("passthrough"));
  if (mlirAttributeIsNull(p) || !mlirAttributeIsAArray(p))
    return false;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(p); ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(p, i);
    if (mlirAttributeIsAString(e) &&
        coro_ref_eq(mlirStringAttrGetValue(e), what))
      return true;
  }
  return false;
}

static void passthrough_drop(MlirOperation fn, const char *what) {
  MlirStringRef key = mlirStringRefCreateFromCString("passthrough");
  MlirAttribute p = mlirOperationGetAttributeByName(fn, key);
  intptr_t n = mlirArrayAttrGetNumElements(p), k = 0;
  MlirAttribute *keep = malloc((size_t)(n + 1) * sizeof *keep);
  assert(keep && "out of memory");
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute e = mlirArrayAttrGetElement(p, i);
    if (!(mlirAttributeIsAString(e) &&
          coro_ref_eq(mlirStringAttrGetValue(e), what)))
      keep[k++] = e;
  }
  if (k)
    mlirOperationSetAttributeByName(
        fn, key, mlirArrayAttrGet(mlirOperationGetContext(fn), k, keep));
  else
    mlirOperationRemoveAttributeByName(fn, key);
  free(keep);
}

void split_mark_before_begin(const struct split *sp, bool *before) {
  size_t bb = ir_cfg_index(&sp->cfg, mlirOperationGetBlock(sp->shape.begin));
  size_t *stack = malloc((sp->cfg.n + 1) * sizeof *stack), n = 0;
  assert(stack && "out of memory");
  if (bb != 0) {
    before[0] = true;
    stack[n++] = 0;
  }
  while (n) {
    size_t x = stack[--n];
    for (size_t q = sp->cfg.succ_start[x]; q < sp->cfg.succ_start[x + 1]; ++q) {
      size_t y = sp->cfg.succ[q];
      if (y == bb || before[y])
        continue;
      before[y] = true;
      stack[n++] = y;
    }
  }
  free(stack);
}

/* Allocas moved into the frame exist from coro.begin on: no use before. */
static bool check_frame_allocas(const struct split *sp) {
  bool *before = calloc(sp->cfg.n + 1, sizeof *before);
  assert(before && "out of memory");
  split_mark_before_begin(sp, before);
  bool ok = true;
  for (size_t i = 0; i <= sp->sc.nitem; ++i) {
    MlirValue a = i < sp->sc.nitem ? sp->sc.item[i].value : sp->shape.promise;
    if (mlirValueIsNull(a) || (i < sp->sc.nitem && !sp->sc.item[i].alloca))
      continue;
    for (MlirOpOperand u = mlirValueGetFirstUse(a); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (mlirOperationEqual(user, sp->shape.id))
        continue;
      MlirBlock ub = mlirOperationGetBlock(user);
      size_t x = ir_cfg_index(&sp->cfg, ub);
      bool early =
          (x != IR_CFG_NONE && before[x]) ||
          (mlirBlockEqual(ub, mlirOperationGetBlock(sp->shape.begin)) &&
           mlirOperationIsBeforeInBlock(user, sp->shape.begin));
      if (early) {
        mlirEmitError(mlirOperationGetLocation(user),
                      "this use of an alloca the coroutine keeps in its "
                      "frame runs before llvm.coro.begin, when the frame "
                      "does not exist yet");
        ok = false;
      }
    }
  }
  free(before);
  return ok;
}

static bool dominates(const struct ir_cfg *g, size_t a, size_t b) {
  for (;; b = g->idom[b]) {
    if (a == b)
      return true;
    if (b == 0)
      return false;
  }
}

/* What a suspension keeps is stored at its llvm.coro.save: each value must
 * exist there already. Read from the items' blocks and the results of the
 * few ops after each save, not from the values themselves (a chain's
 * suspensions keep a million). */
static bool check_saves(struct split *sp) {
  bool ok = true;
  ir_cfg_dominators(&sp->cfg);
  struct ir_ptrmap after = {0}; /* results of the ops after the save */
  for (size_t i = 0; i < sp->shape.nsusp && ok; ++i) {
    const struct coro_suspend *s = &sp->shape.susp[i];
    if (mlirOperationIsNull(s->save))
      continue;
    MlirBlock sb = mlirOperationGetBlock(s->save);
    bool same = mlirBlockEqual(sb, mlirOperationGetBlock(s->suspend));
    size_t sbi = ir_cfg_index(&sp->cfg, sb);
    ir_ptrmap_free(&after);
    for (MlirOperation op = mlirOperationGetNextInBlock(s->save);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
        ir_ptrmap_put(&after, mlirOperationGetResult(op, r).ptr, (void *)1);
    for (size_t q = sp->sc.start[i]; q < sp->sc.start[i + 1] && ok; ++q) {
      const struct sc_item *it = &sp->sc.item[sp->sc.list[q]];
      if (sp->rm.remat[q] || it->alloca)
        continue; /* rebuilt after the suspension / not stored */
      bool there;
      if (it->block == sbi)
        there = !ir_ptrmap_find(&after, it->value.ptr) &&
                !mlirValueEqual(it->value, mlirOperationGetResult(s->save, 0));
      else if (same)
        there = true; /* its block dominates the suspend's, the save's */
      else
        there = sbi != IR_CFG_NONE && it->block != IR_CFG_NONE &&
                dominates(&sp->cfg, it->block, sbi);
      if (!there) {
        mlirEmitError(mlirValueGetLocation(it->value),
                      "this value lives across a suspension but is computed "
                      "after its llvm.coro.save, where the suspension's "
                      "state is stored");
        ok = false;
      }
    }
  }
  ir_ptrmap_free(&after);
  return ok;
}

static void remark_split(const struct split *sp) {
  char buf[64];
  struct coro_str msg = {0};
  coro_str_appendz(&msg, "Split '");
  coro_str_append(&msg, sp->name.data, sp->name.len);
  snprintf(buf, sizeof buf, "' (frame_size=%llu, align=%llu)",
           (unsigned long long)sp->fl.size, (unsigned long long)sp->fl.align);
  coro_str_appendz(&msg, buf);
  coro_emit_remark(sp->loc, CORO_REMARK_PASSED, "coro-split", "CoroSplit",
                   coro_str_cstr(&msg));
  coro_str_free(&msg);
}

/* Appends ", kept across suspensions 0, 2" (the pairs whose recompute flag
 * is `recomputed`, worded for that). */
static void list_suspensions(struct coro_str *msg, const struct split *sp,
                             size_t it, bool recomputed) {
  char buf[32];
  bool first = true;
  for (size_t q = sp->sc.istart[it]; q < sp->sc.istart[it + 1]; ++q) {
    if (sp->rm.iremat[q] != recomputed)
      continue;
    if (first)
      coro_str_appendz(msg, recomputed ? ", recomputed after suspensions"
                                       : ", kept across suspensions");
    snprintf(buf, sizeof buf, "%s %zu", first ? "" : ",", sp->sc.ilist[q]);
    coro_str_appendz(msg, buf);
    first = false;
  }
}

/* One coro-frame remark per value the frame keeps or the split recomputes,
 * at the value. */
static void remark_frame(const struct split *sp) {
  if (!coro_remark_category_enabled(sp->ctx, "coro-frame"))
    return;
  char buf[160];
  for (size_t i = 0; i < sp->sc.nitem; ++i) {
    const struct frame_field *f = &sp->fl.field[i];
    bool alloca = sp->sc.item[i].alloca;
    struct coro_str msg = {0};
    if (alloca || f->size)
      snprintf(buf, sizeof buf,
               "frame field of '%.*s' at offset %llu (size %llu, align "
               "%llu): ",
               (int)sp->name.len, sp->name.data, (unsigned long long)f->offset,
               (unsigned long long)f->size, (unsigned long long)f->align);
    else
      snprintf(buf, sizeof buf, "no frame field in '%.*s': ", (int)sp->name.len,
               sp->name.data);
    coro_str_appendz(&msg, buf);
    coro_str_appendz(&msg, alloca ? "alloca of " : "value of ");
    mlirTypePrint(f->type, coro_str_callback, &msg);
    if (alloca) {
      coro_str_appendz(&msg, ", in the frame across suspensions");
      for (size_t q = sp->sc.istart[i]; q < sp->sc.istart[i + 1]; ++q) {
        snprintf(buf, sizeof buf, "%s %zu", q == sp->sc.istart[i] ? "" : ",",
                 sp->sc.ilist[q]);
        coro_str_appendz(&msg, buf);
      }
    } else {
      list_suspensions(&msg, sp, i, false);
      list_suspensions(&msg, sp, i, true);
    }
    coro_emit_remark(mlirValueGetLocation(sp->sc.item[i].value),
                     CORO_REMARK_ANALYSIS, "coro-frame", "CoroFrame",
                     coro_str_cstr(&msg));
    coro_str_free(&msg);
  }
}

struct coro_str split_part_name(const struct split *sp, const char *sfx) {
  struct coro_str n = {0};
  coro_str_append(&n, sp->name.data, sp->name.len);
  coro_str_appendz(&n, sfx);
  return n;
}

bool split_name_free(const struct split *sp, MlirSymbolTable table,
                     struct coro_str *name) {
  bool taken = !mlirOperationIsNull(
      mlirSymbolTableLookup(table, mlirStringRefCreate(name->data, name->len)));
  if (taken) {
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "'");
    coro_str_append(&msg, name->data, name->len);
    coro_str_appendz(&msg, "' is already a symbol of the module: --coro-split "
                           "gives that name to a part of this coroutine");
    mlirEmitError(sp->loc, coro_str_cstr(&msg));
    coro_str_free(&msg);
  }
  coro_str_free(name);
  return !taken;
}

static bool name_free(struct split *sp, MlirSymbolTable table, bool elide) {
  for (int v = V_RESUME; v < (elide ? V_CONT : V_ELIDED); ++v) {
    struct coro_str n = split_part_name(sp, suffix[v]);
    if (!split_name_free(sp, table, &n))
      return false;
  }
  return true;
}

/*===--- copying what a variant reaches -------------------------------------*/

/* Marks `op` and, through their operands, the ops of the coroutine that
 * compute what it uses: kept by every copy. */
static void keep_with_operands(struct split *sp, MlirOperation op,
                               struct ir_opvec *work) {
  if (ir_ptrmap_find(&sp->keep, op.ptr))
    return;
  ir_ptrmap_put(&sp->keep, op.ptr, (void *)1);
  ir_opvec_push(work, op);
  while (work->n) {
    MlirOperation o = work->v[--work->n];
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      if (!mlirValueIsAOpResult(v))
        continue;
      MlirOperation def = mlirOpResultGetOwner(v);
      if (ir_ptrmap_find(&sp->keep, def.ptr) ||
          !mlirOperationEqual(mlirOperationGetParentOperation(def), sp->func))
        continue;
      ir_ptrmap_put(&sp->keep, def.ptr, (void *)1);
      ir_opvec_push(work, def);
    }
  }
}

/* The ops every variant copies wherever they are (sp->keep): the
 * coroutine's intrinsics and allocas, the values recomputed after a
 * suspension, and what each of them uses. A suspension maps to 2: the
 * rest of its block is copied too (its landings copy that tail). Also
 * lists the destroy flags (sp->flags). */
static void collect_keep(struct split *sp) {
  struct ir_opvec work = {0};
  for (size_t i = 0; i < sp->shape.nintr; ++i)
    keep_with_operands(sp, sp->shape.intr[i].op, &work);
  for (size_t i = 0; i < sp->sc.nitem; ++i)
    if (sp->sc.item[i].alloca && mlirValueIsAOpResult(sp->sc.item[i].value))
      keep_with_operands(sp, mlirOpResultGetOwner(sp->sc.item[i].value), &work);
  for (size_t q = 0; q < sp->sc.start[sp->sc.nsusp]; ++q) {
    MlirValue v = sp->sc.item[sp->sc.list[q]].value;
    if (sp->rm.remat[q] && mlirValueIsAOpResult(v))
      keep_with_operands(sp, mlirOpResultGetOwner(v), &work);
  }
  for (size_t i = 0; i < sp->shape.allocas.n; ++i) {
    MlirOperation op = sp->shape.allocas.v[i];
    keep_with_operands(sp, op, &work);
    if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(
            op, mlirStringRefCreateFromCString(CORO_DESTROY_FLAG_ATTR))))
      ir_opvec_push(&sp->flags, op);
  }
  for (size_t i = 0; i < sp->shape.nsusp; ++i) {
    MlirOperation s = sp->shape.susp[i].suspend;
    keep_with_operands(sp, s, &work);
    ir_ptrmap_put(&sp->keep, s.ptr, (void *)2);
  }
  free(work.v);
  /* what each block gives a variant that does not reach it */
  const struct ir_cfg *g = &sp->cfg;
  sp->pick_start = malloc((g->n + 1) * sizeof *sp->pick_start);
  sp->pick.cap = 2 * g->n + 1; /* a terminator and a constant each */
  sp->pick.v = malloc(sp->pick.cap * sizeof *sp->pick.v);
  assert(sp->pick_start && sp->pick.v && "out of memory");
  for (size_t b = 0; b < g->n; ++b) {
    sp->pick_start[b] = sp->pick.n;
    bool rest = false;
    for (MlirOperation op = mlirBlockGetFirstOperation(g->block[b]);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      uintptr_t k = (uintptr_t)ir_ptrmap_find(&sp->keep, op.ptr);
      bool constant = coro_op_is_constant(op);
      if (constant && b)
        ir_opvec_push(&sp->consts, op);
      if (!(rest || k || mlirOperationIsNull(mlirOperationGetNextInBlock(op)) ||
            constant))
        continue;
      rest |= k == 2;
      ir_opvec_push(&sp->pick, op);
    }
  }
  sp->pick_start[g->n] = sp->pick.n;
}

/* What a variant copies of the original (ir_clone_region_some): every op
 * of a block it reaches (`seen`), every op of sp->keep and the tails
 * after its suspensions, terminators and constants. What else it leaves
 * out computes values only blocks it never reaches use, or values kept
 * across a suspension, which the variant reloads (the placeholders of the
 * clone die with those blocks or give way to the reloads in repair_ssa). */
struct keep_filter {
  const struct split *sp;
  const bool *seen; /* [cfg.n] */
};

static const MlirOperation *pick_ops(MlirBlock b, size_t *n, void *user) {
  const struct keep_filter *f = user;
  size_t i = ir_cfg_index(&f->sp->cfg, b);
  if (i == IR_CFG_NONE || f->seen[i])
    return NULL;
  *n = f->sp->pick_start[i + 1] - f->sp->pick_start[i];
  return f->sp->pick.v + f->sp->pick_start[i];
}

/* Copies into `fn` what variant `v` (`cont`) of the coroutine reaches,
 * from `body`, the region that holds the coroutine's ops (the coroutine's
 * own, or NAME.resume's once it has taken them), mapping the original's
 * values and blocks in `map`; returns the copy of the entry block. */
static MlirBlock clone_reached_from(struct split *sp, MlirRegion body,
                                    MlirOperation fn, enum variant v,
                                    size_t cont, struct ir_map *map) {
  bool *live = calloc(sp->shape.nsusp + 1, sizeof *live);
  bool *seen = calloc(sp->cfg.n + 1, sizeof *seen);
  assert(live && seen && "out of memory");
  variant_reach(sp, v, cont, live, seen);
  struct keep_filter f = {.sp = sp, .seen = seen};
  MlirBlock entry = ir_clone_region_some(body, mlirOperationGetRegion(fn, 0),
                                         map, pick_ops, &f);
  free(live);
  free(seen);
  return entry;
}

static MlirBlock clone_reached(struct split *sp, MlirOperation fn,
                               enum variant v, size_t cont,
                               struct ir_map *map) {
  return clone_reached_from(sp, mlirOperationGetRegion(sp->func, 0), fn, v,
                            cont, map);
}

/* NAME.elided(args..., ptr frame) -> ptr: the ramp on a frame its caller
 * provides. */
static bool make_elided(struct split *sp, MlirSymbolTable table) {
  MlirAttribute ft = mlirOperationGetAttributeByName(
      sp->func, mlirStringRefCreateFromCString("function_type"));
  MlirType fty = mlirTypeAttrGetValue(ft);
  intptr_t n = mlirLLVMFunctionTypeGetNumInputs(fty);
  MlirType *args = malloc((size_t)(n + 1) * sizeof *args);
  assert(args && "out of memory");
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirLLVMFunctionTypeGetInput(fty, i);
  args[n] = sp->ptr;
  struct coro_str name = {0};
  coro_str_append(&name, sp->name.data, sp->name.len);
  coro_str_appendz(&name, suffix[V_ELIDED]);
  struct ir_func_spec spec = {.name = coro_str_cstr(&name),
                              .result = mlirLLVMFunctionTypeGetReturnType(fty),
                              .nargs = n + 1,
                              .args = args,
                              .linkage = MlirLLVMLinkageInternal};
  MlirOperation fn = ir_llvm_func(sp->module, &spec, true,
                                  ir_generated_loc(sp->loc, "elided"));
  free(args);
  coro_str_free(&name);
  mlirSymbolTableInsert(table, fn);
  struct ir_map map = {0};
  MlirBlock entry = clone_reached(sp, fn, V_ELIDED, 0, &map);
  mlirBlockAddArgument(entry, sp->ptr, sp->loc);
  struct variant_state vs = {.sp = sp, .v = V_ELIDED, .fn = fn, .map = &map};
  bool ok = split_rewrite_variant(&vs);
  ir_map_free(&map);
  return ok;
}

bool coro_frame_size_global(MlirOperation module, MlirSymbolTable table,
                            MlirStringRef coro, uint64_t size,
                            MlirLocation loc) {
  struct coro_str n = {0};
  coro_str_append(&n, coro.data, coro.length);
  coro_str_appendz(&n, CORO_FRAME_SIZE_SUFFIX);
  MlirStringRef name = mlirStringRefCreate(n.data, n.len);
  bool free_name = mlirOperationIsNull(
      mlirSymbolTableIsNull(table) ? coro_lookup_symbol(module, name)
                                   : mlirSymbolTableLookup(table, name));
  if (free_name) {
    MlirType i64 = ir_int_type(mlirLocationGetContext(loc), 64);
    struct ir_global_spec spec = {.name = name,
                                  .type = i64,
                                  .linkage = MlirLLVMLinkageExternal,
                                  .constant = true,
                                  .value =
                                      mlirIntegerAttrGet(i64, (int64_t)size),
                                  .align = 8};
    MlirOperation g = ir_llvm_global(module, &spec, loc);
    if (!mlirSymbolTableIsNull(table))
      mlirSymbolTableInsert(table, g);
  } else {
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "'");
    coro_str_append(&msg, n.data, n.len);
    coro_str_appendz(&msg, "' is already a symbol of the module: on the "
                           "device that name is the coroutine's frame size");
    mlirEmitError(loc, coro_str_cstr(&msg));
    coro_str_free(&msg);
  }
  coro_str_free(&n);
  return free_name;
}

bool split_clone_part(struct split *sp, MlirSymbolTable table, MlirOperation fn,
                      enum variant v, size_t cont) {
  mlirSymbolTableInsert(table, fn);
  struct ir_map map = {0};
  clone_reached(sp, fn, v, cont, &map);
  struct variant_state vs = {
      .sp = sp, .v = v, .cont = cont, .fn = fn, .map = &map};
  bool ok = split_rewrite_variant(&vs);
  ir_map_free(&map);
  if (!mlirAttributeIsNull(sp->dsp))
    frame_debug_attach(fn, sp->dsp, sp->frame_ty);
  return ok;
}

/* NAME.resume, NAME.destroy and NAME.cleanup: internal fastcc
 * void(ptr frame) (on the device, returning the handle to run next). */
static bool switch_make_parts(struct split *sp, MlirSymbolTable table) {
  bool ok = true;
  for (int v = V_RESUME; v <= V_CLEANUP && ok; ++v) {
    struct coro_str n = split_part_name(sp, suffix[v]);
    struct ir_func_spec spec = {.name = coro_str_cstr(&n),
                                .result =
                                    sp->device ? sp->ptr : (MlirType){NULL},
                                .nargs = 1,
                                .args = &sp->ptr,
                                .linkage = MlirLLVMLinkageInternal,
                                .cconv = MlirLLVMCConvFast};
    MlirOperation fn = ir_llvm_func(sp->module, &spec, true,
                                    ir_generated_loc(sp->loc, suffix[v] + 1));
    coro_str_free(&n);
    if (v == V_RESUME) { /* filled by resume_in_place, last */
      mlirSymbolTableInsert(table, fn);
      sp->resume_fn = fn;
      continue;
    }
    ok = split_clone_part(sp, table, fn, v, 0);
    if (ok && sp->device)
      return_null(fn);
  }
  return ok;
}

/* The switch ABI's NAME.resume reaches most of a coroutine: rather than
 * copying it, it takes the coroutine's own ops. The ramp, which reaches
 * little, is copied back first (rewritten before NAME.resume changes what
 * the analyses refer to); the other parts were copied already. */
static bool resume_in_place(struct split *sp) {
  MlirRegion body = mlirOperationGetRegion(sp->resume_fn, 0);
  mlirRegionTakeBody(body, mlirOperationGetRegion(sp->func, 0));
  struct ir_map map = {0};
  clone_reached_from(sp, body, sp->func, V_RAMP, 0, &map);
  struct variant_state ramp = {
      .sp = sp, .v = V_RAMP, .fn = sp->func, .map = &map};
  bool ok = split_rewrite_variant(&ramp);
  ir_map_free(&map);
  if (!ok)
    return false;
  struct variant_state vs = {.sp = sp, .v = V_RESUME, .fn = sp->resume_fn};
  ok = split_rewrite_variant(&vs);
  if (!mlirAttributeIsNull(sp->dsp))
    frame_debug_attach(sp->resume_fn, sp->dsp, sp->frame_ty);
  if (ok && sp->device)
    return_null(sp->resume_fn);
  return ok;
}

static const struct split_abi switch_abi = {
    .name = "switch",
    .header = true,
    .names_free = name_free,
    .make_parts = switch_make_parts,
    .ramp_frame = switch_ramp_frame,
    .clone_entry = switch_clone_entry,
    .finish_entry = finish_dispatch,
    .suspend = rewrite_suspend,
    .begin = rewrite_begin,
    .end = rewrite_end,
};

/* Moves every llvm.extractvalue of an aggregate used only by such ops to
 * right after the aggregate's definition (equal ones merged): then the
 * fields taken out live
 * across suspensions rather than the aggregate (a memref descriptor of
 * five fields of which a resumed path reads the pointer keeps 8 bytes, not
 * 40). Pure ops, moved to where their operand is defined: every use stays
 * dominated. */
static void hoist_extracts(MlirOperation func) {
  struct ir_opvec moves = {0};
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      if (!coro_op_named(op, "llvm.extractvalue"))
        continue;
      MlirValue agg = mlirOperationGetOperand(op, 0);
      bool only = true;
      for (MlirOpOperand u = mlirValueGetFirstUse(agg);
           only && !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
        only = coro_op_named(mlirOpOperandGetOwner(u), "llvm.extractvalue");
      MlirOperation def = mlirValueIsAOpResult(agg) ? mlirOpResultGetOwner(agg)
                                                    : (MlirOperation){NULL};
      if (only &&
          (mlirOperationIsNull(def) || !mlirOperationGetNumSuccessors(def)))
        ir_opvec_push(&moves, op);
    }
  MlirStringRef position = mlirStringRefCreateFromCString("position");
  struct ir_ptrmap first_of = {0}; /* aggregate -> 1 + its latest move */
  size_t *next = calloc(moves.n + 1, sizeof *next);
  assert(next && "out of memory");
  /* in block order, so an extract from an extract follows the one it
   * reads, which has moved already; one of two equal extracts serves the
   * uses of both (they would be kept twice) */
  for (size_t i = 0; i < moves.n; ++i) {
    MlirOperation op = moves.v[i];
    MlirValue agg = mlirOperationGetOperand(op, 0);
    /* the kept extracts of `agg` so far: a list through `next` */
    MlirAttribute pos = mlirOperationGetAttributeByName(op, position);
    size_t k = (size_t)(uintptr_t)ir_ptrmap_find(&first_of, agg.ptr);
    while (k &&
           !mlirAttributeEqual(
               mlirOperationGetAttributeByName(moves.v[k - 1], position), pos))
      k = next[k - 1];
    if (k) {
      split_replace_result(op, mlirOperationGetResult(moves.v[k - 1], 0));
      split_erase(op);
      continue;
    }
    next[i] = (size_t)(uintptr_t)ir_ptrmap_find(&first_of, agg.ptr);
    ir_ptrmap_put(&first_of, agg.ptr, (void *)(uintptr_t)(i + 1));
    mlirOperationRemoveFromParent(op);
    if (mlirValueIsAOpResult(agg)) {
      MlirOperation def = mlirOpResultGetOwner(agg);
      mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(def), def, op);
    } else {
      MlirBlock b = mlirBlockArgumentGetOwner(agg);
      mlirBlockInsertOwnedOperation(b, 0, op);
    }
  }
  free(moves.v);
  free(next);
  ir_ptrmap_free(&first_of);
}

/* The ABI entry for the presplit coroutine `func`, by its coro.id (the
 * switch entry when it has none of another ABI: coro_shape_collect then
 * reports what is wrong, an unknown llvm.coro.id.X included). Another ABI's
 * intrinsics in a coroutine are errors of coro_shape_collect. */
static const struct split_abi *abi_of(MlirOperation func) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    for (MlirOperation op = mlirBlockGetFirstOperation(b);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      /* the first id decides (the shape finds a second one wrong) */
      enum coro_intr k = coro_intr_classify(op);
      if (k == CI_ID_RETCON || k == CI_ID_RETCON_ONCE)
        return &split_abi_retcon;
      if (k == CI_ID_ASYNC)
        return &split_abi_async;
      if (k == CI_ID)
        return &switch_abi;
    }
  return &switch_abi;
}

/* The shape, graph and crossing sets of `sp`'s coroutine again, after a
 * rewrite of its body. */
static bool recompute(struct split *sp) {
  suspend_crossing_free(&sp->sc);
  ir_cfg_free(&sp->cfg);
  sp->cfg = (struct ir_cfg){0};
  coro_shape_free(&sp->shape);
  if (!coro_shape_collect(&sp->shape, sp->func))
    return false;
  ir_cfg_build(&sp->cfg, mlirOperationGetRegion(sp->func, 0));
  return suspend_crossing_compute(&sp->sc, &sp->shape, &sp->cfg, NULL);
}

/* Marks the way to the coroutine's end unlikely: a conditional branch
 * whose one side can still reach a suspension that is not final and whose
 * other side cannot (it goes on only to the end: the final suspension,
 * coro.end, a return) gets branch weights 2000:1 for the first side, as
 * __builtin_expect gives. A coroutine suspends many times and ends once;
 * without this, LLVM may place the suspending side out of line, and a
 * generator's resume then jumps on every value where a hand-written state
 * machine falls through (bench/run.sh, docs/route-b.md). Weights already
 * on a branch are left as they are. Every part copies the marks. */
static void weigh_end_paths(const struct split *sp) {
  const struct ir_cfg *g = &sp->cfg;
  bool *warm = calloc(g->n + 1, sizeof *warm);
  size_t *work = malloc((g->n + 1) * sizeof *work);
  assert(warm && work && "out of memory");
  size_t n = 0;
  for (size_t i = 0; i < sp->shape.nsusp; ++i) {
    if (sp->shape.susp[i].final)
      continue;
    size_t b =
        ir_cfg_index(g, mlirOperationGetBlock(sp->shape.susp[i].suspend));
    if (b != IR_CFG_NONE && !warm[b]) {
      warm[b] = true;
      work[n++] = b;
    }
  }
  while (n) {
    size_t b = work[--n];
    for (size_t q = g->pred_start[b]; q < g->pred_start[b + 1]; ++q)
      if (!warm[g->pred[q]]) {
        warm[g->pred[q]] = true;
        work[n++] = g->pred[q];
      }
  }
  MlirStringRef key = mlirStringRefCreateFromCString("branch_weights");
  for (size_t b = 0; b < g->n; ++b) {
    MlirOperation t = mlirBlockGetTerminator(g->block[b]);
    if (!warm[b] || mlirOperationIsNull(t) ||
        !coro_op_named(t, "llvm.cond_br") ||
        !mlirAttributeIsNull(mlirOperationGetAttributeByName(t, key)))
      continue;
    size_t s0 = ir_cfg_index(g, mlirOperationGetSuccessor(t, 0));
    size_t s1 = ir_cfg_index(g, mlirOperationGetSuccessor(t, 1));
    bool w0 = s0 != IR_CFG_NONE && warm[s0];
    bool w1 = s1 != IR_CFG_NONE && warm[s1];
    if (w0 == w1)
      continue;
    int32_t weights[2] = {w0 ? 2000 : 1, w1 ? 2000 : 1};
    mlirOperationSetAttributeByName(t, key,
                                    mlirDenseI32ArrayGet(sp->ctx, 2, weights));
  }
  free(warm);
  free(work);
}

static bool split_one(MlirOperation func, MlirSymbolTable table, bool elide,
                      uint64_t *size, uint64_t *align) {
  struct split sp = {.ctx = mlirOperationGetContext(func),
                     .module = mlirOperationGetParentOperation(func),
                     .table = table,
                     .func = func,
                     .loc = mlirOperationGetLocation(func)};
  /* with debug info (-g): ops the split makes sit at the coroutine's
   * position, never in its subprogram's scope (each clone gets its own:
   * frame_debug_attach) */
  sp.dsp = frame_debug_subprogram(func);
  if (!mlirAttributeIsNull(sp.dsp) &&
      mlirLocationFusedGetNumLocations(sp.loc) == 1)
    mlirLocationFusedGetLocations(sp.loc, &sp.loc);
  sp.ptr = ir_ptr_type(sp.ctx);
  sp.device = coro_module_is_device(sp.module);
  sp.i1 = ir_int_type(sp.ctx, 1);
  sp.i8 = ir_int_type(sp.ctx, 8);
  MlirStringRef nm = ir_sym_name(func);
  coro_str_append(&sp.name, nm.data, nm.length);
  sp.abi = abi_of(func);
  hoist_extracts(func);
  if (!sp.abi->header)
    coro_shape_normalize(func);
  /* the switch parts' names are known before the shape; the
   * continuations' need the number of suspensions */
  bool ok = (!sp.abi->header || sp.abi->names_free(&sp, table, elide)) &&
            coro_shape_collect(&sp.shape, func) &&
            (sp.abi->header || sp.abi->names_free(&sp, table, elide));
  if (ok) {
    ir_cfg_build(&sp.cfg, mlirOperationGetRegion(func, 0));
    /* allocas of dynamic size across suspensions get heap memory the
     * frame owns; then everything is computed again */
    struct ir_opvec dynamic = {0};
    ok = suspend_crossing_compute(&sp.sc, &sp.shape, &sp.cfg, &dynamic);
    if (ok && dynamic.n)
      ok = split_heap_allocas(&sp, table, &dynamic) && recompute(&sp);
    free(dynamic.v);
    /* large values made of smaller ones: their inputs are kept instead */
    if (ok && split_sink_chains(&sp))
      ok = recompute(&sp);
    ok = ok &&
         (remat_compute(&sp.rm, &sp.sc, &sp.shape),
          frame_layout_compute(
              &sp.fl, &sp.sc, sp.rm.iremat, sp.shape.promise, sp.abi->header,
              sp.shape.abi == CORO_SHAPE_ASYNC ? (uint64_t)sp.shape.buffer_align
                                               : 0)) &&
         check_frame_allocas(&sp) && check_saves(&sp) &&
         (!sp.abi->prepare || sp.abi->prepare(&sp, table));
  }
  if (ok) {
    sp.idx = ir_int_type(sp.ctx, sp.fl.index_width);
    /* with debug info: the frame as gdb will show it */
    if (!mlirAttributeIsNull(sp.dsp) && sp.abi->header)
      sp.frame_ty = frame_debug_type(
          sp.ctx, mlirStringRefCreate(sp.name.data, sp.name.len), &sp.fl,
          &sp.sc, sp.shape.promise);
    weigh_end_paths(&sp);
    collect_keep(&sp);
    note_item_uses(&sp);
    ok = sp.abi->make_parts(&sp, table);
    if (ok && elide && sp.abi->header)
      ok = make_elided(&sp, table);
    if (ok) {
      remark_frame(&sp);
      if (!mlirOperationIsNull(sp.resume_fn)) {
        ok = resume_in_place(&sp);
      } else {
        struct variant_state ramp = {.sp = &sp, .v = V_RAMP, .fn = func};
        ok = split_rewrite_variant(&ramp);
      }
      passthrough_drop(func, "presplitcoroutine");
      remark_split(&sp);
      /* a retcon frame lives in its control block's buffer: the retcon
       * conversion gives the control block's size */
      if (sp.device && sp.abi->header)
        ok = coro_frame_size_global(
            sp.module, table, mlirStringRefCreate(sp.name.data, sp.name.len),
            sp.fl.size, sp.loc);
    }
  }
  *size = sp.fl.size;
  *align = sp.fl.align;
  frame_layout_free(&sp.fl);
  remat_free(&sp.rm);
  suspend_crossing_free(&sp.sc);
  ir_cfg_free(&sp.cfg);
  coro_shape_free(&sp.shape);
  ir_ptrmap_free(&sp.keep);
  free(sp.pick_start);
  free(sp.pick.v);
  free(sp.use_start);
  free(sp.use_block);
  free(sp.use_flags);
  free(sp.flags.v);
  free(sp.consts.v);
  coro_str_free(&sp.name);
  return ok;
}

/*===--- the pass -----------------------------------------------------------*/

static bool asserts_elision(MlirOperation coro) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      coro, mlirStringRefCreateFromCString("coro.alloc"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
         coro_ref_eq(mlirStringAttrGetValue(a), "elide");
}

/* The direct callee of an llvm.call, or an empty name. */
static MlirStringRef callee(MlirOperation op) {
  MlirStringRef none = {"", 0};
  if (!coro_op_named(op, "llvm.call"))
    return none;
  MlirAttribute c = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("callee"));
  return mlirAttributeIsNull(c) ? none : mlirFlatSymbolRefAttrGetValue(c);
}

static bool ref_eq(MlirStringRef a, MlirStringRef b) {
  return a.length == b.length && !memcmp(a.data, b.data, a.length);
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

/* The elided calls of the module: function caller[i] calls coroutine
 * number callee[i] (of the coroutines being split) with a call
 * call_elided. */
struct elided_calls {
  struct ir_opvec caller;
  size_t *callee, cap;
};

/* Calls `visit(op, fn, user)` for every op at the top of every llvm.func
 * `fn` of `module` (not of modules nested in it, split by themselves), in
 * order; `op` may not be erased. */
static void each_func_op(MlirOperation module,
                         void (*visit)(MlirOperation, MlirOperation, void *),
                         void *user) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn)) {
    if (!coro_op_named(fn, "llvm.func"))
      continue;
    MlirRegion r = mlirOperationGetRegion(fn, 0);
    for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation op = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
        visit(op, fn, user);
  }
}

struct find_elided {
  MlirOperation *coros;
  MlirStringRef *names; /* of coros[], looked up once */
  size_t n;
  struct elided_calls *e;
};

static void note_elided_call(MlirOperation op, MlirOperation fn, void *user) {
  struct find_elided *f = user;
  struct elided_calls *e = f->e;
  MlirStringRef c = callee(op);
  for (size_t i = 0; c.length && i < f->n; ++i) {
    if (!ref_eq(c, f->names[i]) || !call_elided(op, f->coros[i]))
      continue;
    e->callee = ir_grow(e->callee, &e->cap, e->caller.n, sizeof *e->callee);
    e->callee[e->caller.n] = i;
    ir_opvec_push(&e->caller, fn);
  }
}

/* Fills `e` from every llvm.func of `module`, in one pass: the splits only
 * ever remove such calls (of a coroutine split, whose number is done). */
static void find_elided_calls(MlirOperation module, MlirOperation *coros,
                              size_t n, struct elided_calls *e) {
  struct find_elided f = {coros, malloc((n + 1) * sizeof *f.names), n, e};
  assert(f.names && "out of memory");
  for (size_t i = 0; i < n; ++i)
    f.names[i] = ir_sym_name(coros[i]);
  each_func_op(module, note_elided_call, &f);
  free(f.names);
}

/* Whether coroutine number `i` (the function `self`) makes an elided call
 * of a coroutine still pending in coros[] other than itself: such a callee
 * is split first, its frame size then known. */
static bool waits(const struct elided_calls *e, MlirOperation self, size_t i,
                  const MlirOperation *coros) {
  for (size_t k = 0; k < e->caller.n; ++k)
    if (mlirOperationEqual(e->caller.v[k], self) && e->callee[k] != i &&
        !mlirOperationIsNull(coros[e->callee[k]]))
      return true;
  return false;
}

/* Gives every direct call of the elided coroutine `coro` in a function not
 * split yet (`done` holds the split ones) a frame in its caller: an alloca
 * of the frame's size and alignment in the caller's entry block, passed to
 * NAME.elided. The frame of a call site is reused each time the call runs,
 * as LLVM's CoroElide does: the handle must be destroyed before the call
 * runs again, and before its caller returns (what coro.alloc = "elide"
 * asserts). */
static void elide_calls(MlirOperation module, MlirOperation coro,
                        const struct ir_ptrmap *done, uint64_t size,
                        uint64_t align) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirStringRef name = ir_sym_name(coro);
  struct coro_str elided = {0};
  coro_str_append(&elided, name.data, name.length);
  coro_str_appendz(&elided, suffix[V_ELIDED]);
  MlirAttribute sym = mlirFlatSymbolRefAttrGet(
      ctx, mlirStringRefCreate(elided.data, elided.len));
  MlirType frame = mlirLLVMArrayTypeGet(ir_int_type(ctx, 8), size);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn)) {
    if (!coro_op_named(fn, "llvm.func") || ir_ptrmap_find(done, fn.ptr))
      continue;
    MlirRegion r = mlirOperationGetRegion(fn, 0);
    for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation op = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(op);) {
        MlirOperation next = mlirOperationGetNextInBlock(op);
        if (ref_eq(callee(op), name) && call_elided(op, coro)) {
          MlirBlock entry = mlirRegionGetFirstBlock(r);
          struct ir_builder e = ir_before(mlirBlockGetFirstOperation(entry));
          e.loc = mlirOperationGetLocation(op);
          MlirValue mem =
              ir_alloca(&e, ir_const_int(&e, 64, 1), frame, (unsigned)align);
          intptr_t n = mlirOperationGetNumOperands(op);
          MlirValue *args = malloc((size_t)(n + 1) * sizeof *args);
          assert(args && "out of memory");
          for (intptr_t i = 0; i < n; ++i)
            args[i] = mlirOperationGetOperand(op, i);
          args[n] = mem;
          struct ir_builder c = ir_before(op);
          MlirValue h =
              ir_call(&c, sym, false, n + 1, args,
                      mlirValueGetType(mlirOperationGetResult(op, 0)));
          free(args);
          /* --coro-elide has told the user already where it decided */
          bool decided = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
              op, mlirStringRefCreateFromCString(CORO_ELIDED_ATTR)));
          split_replace_result(op, h);
          split_erase(op);
          op = next;
          if (decided)
            continue;
          coro_elide_remark_elided(
              mlirOperationGetLocation(mlirOpResultGetOwner(h)), name,
              ir_sym_name(fn));
          continue;
        }
        op = next;
      }
  }
  coro_str_free(&elided);
}

/* Splits `coro` and records it (and its parts, by name) as done. */
static bool split_and_record(MlirOperation coro, MlirSymbolTable table,
                             bool elide, struct ir_ptrmap *done, uint64_t *size,
                             uint64_t *align) {
  MlirStringRef name = ir_sym_name(coro);
  struct coro_str base = {0};
  coro_str_append(&base, name.data, name.length);
  bool ok = split_one(coro, table, elide, size, align);
  ir_ptrmap_put(done, coro.ptr, (void *)1);
  /* the switch parts, then a retcon coroutine's continuations */
  struct ir_opvec parts = {0};
  for (int v = V_RESUME; v < V_CONT; ++v) {
    struct coro_str n = {0};
    coro_str_append(&n, base.data, base.len);
    coro_str_appendz(&n, suffix[v]);
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
      mlirOperationDestroy(op);
    op = next;
  }
}

/* Notes what `op` leaves to do in `left`; an intrinsic only at the top of
 * its function `fn` (`top`), as the consumers' lowering takes them. */
static void scan_op(MlirOperation op, MlirOperation fn, bool top,
                    struct split_leftovers *left, struct ir_ptrmap *called) {
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
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, i));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        mlirOperationWalk(o, scan_nested_op, n, MlirWalkPreOrder);
}

/* Fills `left` from every llvm.func of `module`. */
static void split_scan_module(MlirOperation module,
                              struct split_leftovers *left,
                              struct ir_ptrmap *called) {
  struct scan_nested n = {{NULL}, left, called};
  each_func_op(module, scan_top_op, &n);
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
  MlirOperation *coros = malloc(cap * sizeof *coros);
  assert(coros && "out of memory");
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!coro_op_named(op, "llvm.func") ||
        !coro_split_passthrough_has(op, "presplitcoroutine") ||
        mlirRegionIsNull(mlirOperationGetRegion(op, 0)) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      continue;
    if (n == cap) {
      cap *= 2;
      coros = realloc(coros, cap * sizeof *coros);
      assert(coros && "out of memory");
    }
    coros[n++] = op;
  }
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  bool ok = true;
  struct ir_ptrmap done = {0};
  uint64_t size, align;
  /* Coroutines with elided calls (coro.elided, or coro.alloc = "elide")
   * first, callees before callers, each giving its callers' frames before
   * those are split; the others after. Elided calls between coroutines in
   * a cycle (which --coro-elide never marks) keep the heap. */
  bool *wanted = calloc(n ? n : 1, sizeof *wanted);
  assert(wanted && "out of memory");
  struct elided_calls calls = {0};
  find_elided_calls(module, coros, n, &calls);
  for (size_t k = 0; k < calls.caller.n; ++k)
    wanted[calls.callee[k]] = true;
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < n; ++i) {
      if (mlirOperationIsNull(coros[i]) || !wanted[i] ||
          waits(&calls, coros[i], i, coros))
        continue;
      MlirOperation c = coros[i];
      coros[i] = (MlirOperation){NULL};
      progress = true;
      bool split = split_and_record(c, table, true, &done, &size, &align);
      ok &= split;
      if (split)
        elide_calls(module, c, &done, size, align);
    }
  }
  free(wanted);
  free(calls.caller.v);
  free(calls.callee);
  for (size_t i = 0; i < n; ++i)
    if (!mlirOperationIsNull(coros[i]))
      ok &= split_and_record(coros[i], table, false, &done, &size, &align);
  free(coros);
  struct split_leftovers left = {0};
  struct ir_ptrmap called = {0};
  if (ok) {
    split_scan_module(module, &left, &called);
    ok = split_async_size_replace(table, &left);
  }
  if (ok) {
    split_direct_continuation_calls(module, table, &left);
    ok = coro_split_lower_consumers(module, table, &done, &left, &called);
  }
  if (ok)
    drop_intrinsic_decls(module, &called);
  free(left.size_replace.v);
  free(left.marked.v);
  free(left.intr.v);
  free(left.intr_fn.v);
  ir_ptrmap_free(&left.changed);
  ir_ptrmap_free(&called);
  ir_ptrmap_free(&done);
  mlirSymbolTableDestroy(table);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
