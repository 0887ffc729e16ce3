/* suspend_crossing.c - liveness across suspensions (see
 * suspend_crossing.h). */
#include "transforms/CoroSplit/suspend_crossing.h"

#include "dialect/contract.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"
#include "transforms/CoroSplit/remat.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct vec {
  size_t *d, n, cap;
};

static void vec_push(struct vec *v, size_t x) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 4;
    v->d = ir_xrealloc(v->d, v->cap * sizeof *v->d);
  }
  v->d[v->n++] = x;
}

/* No larger than an sc_item: the items are made in the candidates'
 * memory (suspend_crossing_compute). */
struct cand {
  MlirValue v;
  MlirType type;
  size_t block; /* the number of its block */
  size_t item;  /* 1 + index in the output, 0 while it crosses nothing */
  bool cheap;   /* defined by an op remat_op_is_cheap */
  bool alloca, escaped, dynamic, reported;
  bool deferred; /* a dynamic alloca handed to the caller */
};

_Static_assert(sizeof(struct sc_item) <= sizeof(struct cand),
               "items are made in place of the candidates");

struct state {
  const struct coro_shape *s;
  const struct ir_cfg *g;
  struct ir_opvec *dynamic; /* where dynamic allocas go, or null */
  MlirSymbolTable table;    /* the module's, or null */
  struct vec *livein;       /* [g->n] candidate ids */
  struct cand *cand;
  size_t ncand, capcand;
  struct ir_ptrmap id; /* value -> 1 + candidate id, once `mapped` */
  bool mapped;
  size_t *mark;           /* [g->n] 1 + the candidate last walked there */
  MlirOperation *susp_in; /* [g->n] the block's suspend, or `many` */
  MlirOperation many;     /* a block's mark when it has several */
  struct vec stack;
  MlirType token; /* !llvm.token, once a candidate needs it */
  bool ok;
  /* [g->n] a block some resumed path reaches without passing a fallthrough
   * coro.end: a use in another block runs only in the ramp */
  bool *resumed;
  bool *before_begin; /* [g->n] blocks that run before coro.begin's */
  /* [capcand] for an alloca: the blocks some write of its memory reaches
   * (a bit each), or null */
  uint8_t **written;
  /* [capcand] for an alloca with lifetime markers: its markers, and
   * the blocks it is alive on entry to (a bit each); else empty, null */
  struct ir_opvec *markers;
  uint8_t **alive;
  /* [2 * g->n] for a block ending in a suspension's branch, the numbers of
   * its resume and destroy successors; IR_CFG_NONE elsewhere */
  size_t *landing;
};

static MlirOperation owner(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v)
                                 : (MlirOperation){NULL};
}

/* Values the split rebuilds rather than keeps. */
static bool excluded(const struct state *st, MlirValue v) {
  /* a continuation is passed the retcon storage again (the async context
   * it projects) */
  if (!mlirValueIsNull(st->s->storage) && mlirValueEqual(v, st->s->storage))
    return true;
  MlirOperation op = owner(v);
  if (mlirOperationIsNull(op))
    return false;
  if (ir_op_is_constant(op) || mlirOperationEqual(op, st->s->begin))
    return true;
  /* an alloca the producer keeps out of the frame (coro.outside.frame) */
  if (coro_op_named(op, "llvm.alloca"))
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      if (coro_ref_eq(ir_callee(mlirOpOperandGetOwner(u)),
                      CORO_OUTSIDE_FRAME_MARKER))
        return true;
  enum coro_intr k = coro_intr_classify(op);
  if (k == CI_ID || k == CI_ID_RETCON || k == CI_ID_RETCON_ONCE ||
      k == CI_ID_ASYNC || k == CI_ASYNC_RESUME || k == CI_SAVE ||
      k == CI_SUSPEND)
    return true;
  return !mlirValueIsNull(st->s->promise) && mlirValueEqual(v, st->s->promise);
}

/* A new candidate, `v`, defined in block number `defb` (IR_CFG_NONE: look
 * it up). */
static size_t cand_new(struct state *st, MlirValue v, size_t defb) {
  if (st->ncand == st->capcand) {
    size_t old = st->capcand;
    st->capcand = st->capcand ? 2 * st->capcand : 64;
    st->cand = ir_xrealloc(st->cand, st->capcand * sizeof *st->cand);
    st->written = ir_xrealloc(st->written, st->capcand * sizeof *st->written);
    memset(st->written + old, 0, (st->capcand - old) * sizeof *st->written);
    st->markers = ir_xrealloc(st->markers, st->capcand * sizeof *st->markers);
    memset(st->markers + old, 0, (st->capcand - old) * sizeof *st->markers);
    st->alive = ir_xrealloc(st->alive, st->capcand * sizeof *st->alive);
    memset(st->alive + old, 0, (st->capcand - old) * sizeof *st->alive);
  }
  MlirOperation op = owner(v);
  if (defb == IR_CFG_NONE)
    defb = ir_cfg_index(st->g, mlirOperationIsNull(op)
                                   ? mlirBlockArgumentGetOwner(v)
                                   : mlirOperationGetBlock(op));
  st->cand[st->ncand] = (struct cand){
      .v = v,
      .type = mlirValueGetType(v),
      .block = defb,
      .cheap = !mlirOperationIsNull(op) && remat_op_is_cheap(op),
      .alloca = !mlirOperationIsNull(op) && coro_op_named(op, "llvm.alloca")};
  if (st->mapped)
    ir_ptrmap_put(&st->id, v.ptr, (void *)(uintptr_t)(st->ncand + 1));
  return st->ncand++;
}

/* The candidate id of `v`, a new one if it has none. The walk meets each
 * value once and makes its candidate with cand_new; the map from values
 * to ids is built on the first call here, after the walk (a chain of a
 * million values kept never needs it). */
static size_t cand_id(struct state *st, MlirValue v) {
  if (!st->mapped) {
    st->mapped = true;
    for (size_t i = 0; i < st->ncand; ++i)
      ir_ptrmap_put(&st->id, st->cand[i].v.ptr, (void *)(uintptr_t)(i + 1));
  }
  size_t id = (size_t)(uintptr_t)ir_ptrmap_find(&st->id, v.ptr);
  return id ? id - 1 : cand_new(st, v, IR_CFG_NONE);
}

/* Marks `id` live into block `ub` and every block between its definition
 * block `defb` and `ub`. */
static void live_from(struct state *st, size_t id, size_t defb, size_t ub) {
  if (ub == defb || st->mark[ub] == id + 1)
    return;
  st->mark[ub] = id + 1;
  st->stack.n = 0;
  vec_push(&st->stack, ub);
  while (st->stack.n) {
    size_t x = st->stack.d[--st->stack.n];
    vec_push(&st->livein[x], id);
    for (size_t q = st->g->pred_start[x]; q < st->g->pred_start[x + 1]; ++q) {
      size_t p = st->g->pred[q];
      if (p == defb || st->mark[p] == id + 1)
        continue;
      st->mark[p] = id + 1;
      vec_push(&st->stack, p);
    }
  }
}

/* The number of block `b`, where `user` uses a value; IR_CFG_NONE when
 * the use does not count (only the ramp runs it) or no number. */
static size_t use_block(const struct state *st, MlirOperation user,
                        MlirBlock b) {
  if (ir_ptrmap_find(&st->s->ramp_only, user.ptr))
    return IR_CFG_NONE;
  size_t i = ir_cfg_index(st->g, b);
  return i != IR_CFG_NONE && !st->resumed[i] ? IR_CFG_NONE : i;
}

/* Fills st->resumed: from each suspension's block on, stopping at the
 * blocks that end the coroutine (a fallthrough coro.end, after which the
 * parts return: what follows runs only in the ramp, as LLVM's
 * SuspendCrossingInfo has it). */
static void mark_resumed(struct state *st) {
  const struct ir_cfg *g = st->g;
  const struct coro_shape *s = st->s;
  st->resumed = ir_xcalloc(g->n + 1, sizeof *st->resumed);
  bool *ends = ir_xcalloc(g->n + 1, sizeof *ends);
  for (size_t i = 0; i < s->nintr; ++i) {
    enum coro_intr k = s->intr[i].kind;
    int64_t unwind = 0;
    if ((k != CI_END && k != CI_END_ASYNC) ||
        (mlirOperationGetNumOperands(s->intr[i].op) > 1 &&
         ir_const_int_value(mlirOperationGetOperand(s->intr[i].op, 1),
                            &unwind) &&
         unwind))
      continue;
    size_t b = ir_cfg_index(g, mlirOperationGetBlock(s->intr[i].op));
    if (b != IR_CFG_NONE)
      ends[b] = true;
  }
  st->stack.n = 0;
  for (size_t i = 0; i < s->nsusp; ++i) {
    size_t b = ir_cfg_index(g, mlirOperationGetBlock(s->susp[i].suspend));
    if (b != IR_CFG_NONE && !st->resumed[b]) {
      st->resumed[b] = true;
      vec_push(&st->stack, b);
    }
  }
  while (st->stack.n) {
    size_t x = st->stack.d[--st->stack.n];
    if (ends[x])
      continue;
    for (size_t q = g->succ_start[x]; q < g->succ_start[x + 1]; ++q)
      if (!st->resumed[g->succ[q]]) {
        st->resumed[g->succ[q]] = true;
        vec_push(&st->stack, g->succ[q]);
      }
  }
  free(ends);
}

/* Makes `v` (defined in block number `defb`) a candidate once, as *id;
 * false when the split rebuilds it instead (asked only of a value found
 * live somewhere: most are not). */
static bool take(struct state *st, MlirValue v, size_t defb, size_t *id) {
  if (*id != IR_CFG_NONE)
    return true;
  if (excluded(st, v))
    return false;
  *id = cand_new(st, v, defb);
  return true;
}

/* A value gets its candidate id here, in definition order, when some use
 * is in another block or in the tail of a suspension in its block (gather
 * adds those); the others, most of a function, are live in no block and
 * cost no lookup. */
static void walk_value(struct state *st, MlirValue v, size_t defb) {
  MlirOperation susp = st->susp_in[defb];
  size_t id = IR_CFG_NONE;
  if (mlirOperationEqual(susp, st->many) && !take(st, v, defb, &id))
    return;
  MlirBlock home = st->g->block[defb];
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    MlirBlock b = mlirOperationGetBlock(user);
    if (mlirBlockEqual(b, home)) {
      if (id == IR_CFG_NONE && !mlirOperationIsNull(susp) &&
          !mlirOperationEqual(user, susp) &&
          mlirOperationIsBeforeInBlock(susp, user) && !take(st, v, defb, &id))
        return;
      continue;
    }
    size_t ub = use_block(st, user, b);
    if (ub == IR_CFG_NONE)
      continue;
    if (!take(st, v, defb, &id))
      return;
    live_from(st, id, defb, ub);
  }
}

/* Whether `user`, given an alloca's pointer as operand `at`, may read or
 * write its memory (what is not a load, a store's address, a lifetime
 * marker or a memory intrinsic may do both). */
static bool may_read(MlirOperation user, intptr_t at) {
  if (coro_op_named(user, "llvm.load"))
    return true;
  if (ir_is_lifetime_marker(user) || coro_op_named(user, "llvm.intr.memset"))
    return false;
  if (coro_op_named(user, "llvm.store"))
    return at != 1; /* the pointer stored (an escape), not its address */
  if (ir_is_mem_intrinsic(user)) /* memcpy, memmove: (dst, src, len) */
    return at == 1;
  return true;
}

static bool may_write(MlirOperation user, intptr_t at) {
  if (coro_op_named(user, "llvm.load") || ir_is_lifetime_marker(user))
    return false;
  if (coro_op_named(user, "llvm.store"))
    return true; /* its address, or the pointer stored: an escape */
  if (ir_is_mem_intrinsic(user))
    return at == 0;
  return true;
}

static bool is_start(MlirOperation marker) {
  return coro_op_named(marker, "llvm.intr.lifetime.start");
}

/* Whether a store before `user` in its block, and after any suspension
 * there, overwrites all of the alloca `alloca` (of one element: its whole
 * element type, stored at its address, or a memcpy, memmove or memset of
 * at least its size to its address), or its llvm.intr.lifetime.start
 * starts it again there (what it held before is undefined), so that what
 * `user` reads was written there. A block longer than a few hundred ops is not
 * searched (no: conservative). */
static bool overwritten_before(MlirOperation alloca, MlirOperation user) {
  MlirValue a = mlirOperationGetResult(alloca, 0);
  int64_t count;
  if (!ir_const_int_value(mlirOperationGetOperand(alloca, 0), &count) ||
      count != 1)
    return false;
  MlirAttribute elem = mlirOperationGetAttributeByName(
      alloca, mlirStringRefCreateFromCString("elem_type"));
  if (mlirAttributeIsNull(elem) || !mlirAttributeIsAType(elem))
    return false;
  MlirType t = mlirTypeAttrGetValue(elem);
  uint64_t size = 0, align;
  if (!ir_type_layout(t, &size, &align))
    size = UINT64_MAX; /* no memory intrinsic covers it */
  bool killed = false;
  int budget = 256;
  for (MlirOperation op =
           mlirBlockGetFirstOperation(mlirOperationGetBlock(user));
       !mlirOperationEqual(op, user) && budget--;
       op = mlirOperationGetNextInBlock(op)) {
    enum coro_intr k = coro_intr_classify(op);
    if (k == CI_SUSPEND || k == CI_SUSPEND_RETCON || k == CI_SUSPEND_ASYNC)
      killed = false; /* a read after a suspension in its own block */
    else if (coro_op_named(op, "llvm.store") &&
             mlirValueEqual(mlirOperationGetOperand(op, 1), a) &&
             mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, 0)), t))
      killed = true;
    else if (is_start(op) && mlirOperationGetNumOperands(op) > 0 &&
             mlirValueEqual(mlirOperationGetOperand(
                                op, mlirOperationGetNumOperands(op) - 1),
                            a))
      killed = true; /* what it held before is undefined from here */
    else if (ir_is_mem_intrinsic(op) && /* memcpy, memmove, memset */
             mlirOperationGetNumOperands(op) >= 3 &&
             mlirValueEqual(mlirOperationGetOperand(op, 0), a)) {
      int64_t len;
      if (ir_const_int_value(mlirOperationGetOperand(op, 2), &len) &&
          len >= 0 && (uint64_t)len >= size)
        killed = true;
    }
  }
  return killed && budget >= 0;
}

/* Marks in `bits` ([g->n] bits) every block reachable from those of
 * `from`, themselves included. */
static void reach_from(struct state *st, const struct vec *from,
                       uint8_t *bits) {
  st->stack.n = 0;
  for (size_t i = 0; i < from->n; ++i) {
    size_t b = from->d[i];
    if (!(bits[b / 8] & (1u << (b % 8)))) {
      bits[b / 8] |= (uint8_t)(1u << (b % 8));
      vec_push(&st->stack, b);
    }
  }
  while (st->stack.n) {
    size_t x = st->stack.d[--st->stack.n];
    for (size_t q = st->g->succ_start[x]; q < st->g->succ_start[x + 1]; ++q) {
      size_t y = st->g->succ[q];
      if (!(bits[y / 8] & (1u << (y % 8)))) {
        bits[y / 8] |= (uint8_t)(1u << (y % 8));
        vec_push(&st->stack, y);
      }
    }
  }
}

/* Of the markers `m` in block `b` (before `before`, when not null), the
 * last one, or null. */
static MlirOperation last_marker(const struct ir_opvec *m, MlirBlock b,
                                 MlirOperation before) {
  MlirOperation last = {NULL};
  for (size_t i = 0; i < m->n; ++i) {
    MlirOperation k = m->v[i];
    if (!mlirBlockEqual(mlirOperationGetBlock(k), b) ||
        (!mlirOperationIsNull(before) &&
         !mlirOperationIsBeforeInBlock(k, before)))
      continue;
    if (mlirOperationIsNull(last) || mlirOperationIsBeforeInBlock(last, k))
      last = k;
  }
  return last;
}

/* The blocks an alloca with lifetime markers `m` is alive on entry to (a
 * bit each): reached from a llvm.intr.lifetime.start without passing a
 * llvm.intr.lifetime.end after it. Outside, its memory holds nothing
 * (LLVM's rule: what is read or written outside its lifetime is
 * undefined), so a suspension there keeps nothing of it, escaped or not,
 * as LLVM's CoroSplit decides from the same markers. */
static uint8_t *alive_blocks(struct state *st, const struct ir_opvec *m) {
  const struct ir_cfg *g = st->g;
  uint8_t *in = ir_xcalloc(g->n / 8 + 1, 1);
  /* a block whose last marker is a start is alive at its exit; one whose
   * last is an end, dead; any other passes on what it is given */
  st->stack.n = 0;
  for (size_t i = 0; i < m->n; ++i) {
    MlirBlock b = mlirOperationGetBlock(m->v[i]);
    size_t bi = ir_cfg_index(g, b);
    if (bi != IR_CFG_NONE && is_start(m->v[i]) &&
        mlirOperationEqual(last_marker(m, b, (MlirOperation){NULL}), m->v[i]))
      vec_push(&st->stack, bi);
  }
  while (st->stack.n) {
    size_t x = st->stack.d[--st->stack.n];
    for (size_t q = g->succ_start[x]; q < g->succ_start[x + 1]; ++q) {
      size_t y = g->succ[q];
      /* a suspension's way out to the caller (to coro.end and the
       * return) carries no lifetime, or every alloca alive at some
       * suspension would meet every other there (as in LLVM, which
       * leaves those edges out of the same analysis) */
      if (st->landing[2 * x] != IR_CFG_NONE && y != st->landing[2 * x] &&
          y != st->landing[2 * x + 1])
        continue;
      if (in[y / 8] & (1u << (y % 8)))
        continue;
      in[y / 8] |= (uint8_t)(1u << (y % 8));
      MlirOperation last = last_marker(m, g->block[y], (MlirOperation){NULL});
      if (mlirOperationIsNull(last) || is_start(last))
        vec_push(&st->stack, y);
    }
  }
  return in;
}

/* Whether candidate `id` (an alloca with lifetime markers) is outside its
 * lifetime at `suspend`, in block number `sb`. */
static bool dead_at(const struct state *st, size_t id, size_t sb,
                    MlirOperation suspend) {
  const uint8_t *in = st->alive ? st->alive[id] : NULL;
  if (!in)
    return false;
  MlirOperation last = last_marker(&st->markers[id], st->g->block[sb], suspend);
  if (!mlirOperationIsNull(last))
    return !is_start(last);
  return !(in[sb / 8] & (1u << (sb % 8)));
}

/* Whether `user`, given an alloca's pointer as operand `at`, keeps no
 * pointer to it once it returns: an argument its call or callee marks
 * llvm.nocapture (the pre-split trip's function-attrs infers it) or
 * llvm.byval (the callee gets a copy), or the awaiter of an await
 * intrinsic whose wrapper marks its first parameter llvm.nocapture. It may
 * still read and write the memory while it runs. */
static bool keeps_no_pointer(const struct state *st, MlirOperation user,
                             intptr_t at) {
  enum coro_intr k = coro_intr_classify(user);
  if (k != CI_AWAIT_VOID && k != CI_AWAIT_BOOL && k != CI_AWAIT_HANDLE)
    return ir_call_operand_nocapture(user, at, st->table);
  if (at != 0 || mlirOperationGetNumOperands(user) < 3 ||
      mlirSymbolTableIsNull(st->table))
    return false;
  MlirOperation wrapper =
      ir_llvm_func_of(st->table, mlirOperationGetOperand(user, 2));
  return !mlirOperationIsNull(wrapper) && ir_arg_nocapture(wrapper, 0);
}

/* An alloca: its uses are those of every pointer derived from it; passing
 * it anywhere else than a load's or store's address, a lifetime marker,
 * llvm.memcpy/memmove/memset or an argument that keeps no pointer to it
 * (keeps_no_pointer) escapes it. An escape before llvm.coro.begin
 * is no reason to keep it in the frame (which does not exist there: the
 * escaped address is the ramp's stack either way, as in LLVM), but what a
 * call given it returns may be it (an elided call's handle is the frame
 * it was given): the pointers such a call returns are uses of it, so a
 * use of them after a suspension keeps it in the frame (and the copy-in
 * then reports the escape: split_copy_in.c). */
static void walk_alloca(struct state *st, MlirOperation op, size_t defb) {
  MlirValue a = mlirOperationGetResult(op, 0);
  size_t id = cand_new(st, a, defb);
  struct vec writes = {0}; /* the blocks of writes to its memory */
  int64_t count;
  st->cand[id].dynamic =
      !ir_const_int_value(mlirOperationGetOperand(op, 0), &count);
  struct ir_ptrmap seen = {0};
  MlirValue *vals = NULL;
  size_t nvals = 0, cap = 0;
#define PUSH(x)                                                                \
  do {                                                                         \
    if (nvals == cap) {                                                        \
      cap = cap ? 2 * cap : 8;                                                 \
      vals = ir_xrealloc(vals, cap * sizeof *vals);                            \
    }                                                                          \
    vals[nvals++] = (x);                                                       \
  } while (0)
  PUSH(a);
  for (size_t i = 0; i < nvals; ++i) {
    for (MlirOpOperand u = mlirValueGetFirstUse(vals[i]);
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      intptr_t at = mlirOpOperandGetOperandNumber(u);
      if (i == 0 && ir_is_lifetime_marker(user))
        ir_opvec_push(&st->markers[id], user);
      size_t ub = use_block(st, user, mlirOperationGetBlock(user));
      bool gep = coro_op_named(user, "llvm.getelementptr") && at == 0;
      /* its memory is live from a write to a read: live_from the reads
       * of what their block did not write first (back to the alloca), and
       * the suspensions the writes reach; a
       * dynamic alloca keeps the liveness of its address (every use): its
       * size is a value the parts may not have, so one used in several
       * parts goes to the heap (split_dynamic) */
      if (ub != IR_CFG_NONE && !gep &&
          (st->cand[id].dynamic ||
           (may_read(user, at) && !overwritten_before(op, user))))
        live_from(st, id, defb, ub);
      /* a write counts wherever it is (the ramp's before any suspension
       * too), but after the ramp's fallthrough coro.end */
      size_t wb = ir_ptrmap_find(&st->s->ramp_only, user.ptr)
                      ? IR_CFG_NONE
                      : ir_cfg_index(st->g, mlirOperationGetBlock(user));
      if (wb != IR_CFG_NONE && !gep && may_write(user, at))
        vec_push(&writes, wb);
      if (gep) {
        MlirValue r = mlirOperationGetResult(user, 0);
        if (!ir_ptrmap_find(&seen, r.ptr)) {
          ir_ptrmap_put(&seen, r.ptr, (void *)1);
          PUSH(r);
        }
      } else if (!ir_is_memory_access(user, at)) {
        /* before llvm.coro.begin, where no frame exists yet */
        if (!ir_cfg_runs_before(st->g, st->before_begin, st->s->begin, user) &&
            !keeps_no_pointer(st, user, at)) {
          st->cand[id].escaped = true;
          continue;
        }
        for (intptr_t r = 0; r < mlirOperationGetNumResults(user); ++r) {
          MlirValue res = mlirOperationGetResult(user, r);
          if (mlirTypeIsALLVMPointerType(mlirValueGetType(res)) &&
              !ir_ptrmap_find(&seen, res.ptr)) {
            ir_ptrmap_put(&seen, res.ptr, (void *)1);
            PUSH(res);
          }
        }
      }
    }
  }
#undef PUSH
  free(vals);
  ir_ptrmap_free(&seen);
  if (!st->cand[id].dynamic) {
    st->written[id] = ir_xcalloc(st->g->n / 8 + 1, 1);
    reach_from(st, &writes, st->written[id]);
  }
  /* a dynamic alloca's too (llvm.coro.alloca.alloc's, split_dynamic.c):
   * outside its markers its address is dead, escaped or not */
  if (st->markers[id].n)
    st->alive[id] = alive_blocks(st, &st->markers[id]);
  free(writes.d);
}

static void walk_block(struct state *st, size_t bi) {
  MlirBlock b = st->g->block[bi];
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(b); ++i)
    walk_value(st, mlirBlockGetArgument(b, i), bi);
  for (MlirOperation op = mlirBlockGetFirstOperation(b);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!mlirOperationGetNumResults(op))
      continue;
    if (coro_op_named(op, "llvm.alloca")) {
      if (!excluded(st, mlirOperationGetResult(op, 0)))
        walk_alloca(st, op, bi);
      continue;
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
      walk_value(st, mlirOperationGetResult(op, r), bi);
  }
}

/*===--- per suspension -----------------------------------------------------*/

struct gather {
  struct state *st;
  size_t susp;
  size_t *seen; /* [ncand] 1 + the suspension that last added it */
  size_t capseen;
  struct vec out;     /* (suspension, candidate) pairs, flattened */
  struct vec escaped; /* allocas whose address escapes: they cross all */
  MlirValue self;     /* the retcon suspension's own result, or null */
};

static void add(struct gather *ga, size_t id) {
  /* a retcon suspension's result is made by its continuation */
  if (!mlirValueIsNull(ga->self) &&
      mlirValueEqual(ga->st->cand[id].v, ga->self))
    return;
  if (ga->capseen < ga->st->ncand) {
    size_t old = ga->capseen;
    ga->capseen = 2 * ga->st->ncand;
    ga->seen = ir_xrealloc(ga->seen, ga->capseen * sizeof *ga->seen);
    for (size_t i = old; i < ga->capseen; ++i)
      ga->seen[i] = 0;
  }
  if (ga->seen[id] == ga->susp + 1)
    return;
  ga->seen[id] = ga->susp + 1;
  vec_push(&ga->out, ga->susp);
  vec_push(&ga->out, id);
}

/* Whether `v` is computed after suspension `sp`, in its tail: each
 * landing computes it again, so it is not kept. */
static bool in_tail(const struct coro_suspend *sp, MlirValue v) {
  MlirOperation def = owner(v);
  return !mlirOperationIsNull(def) &&
         mlirBlockEqual(mlirOperationGetBlock(def),
                        mlirOperationGetBlock(sp->suspend)) &&
         mlirOperationIsBeforeInBlock(sp->suspend, def);
}

/* An operand of the tail of suspension `sp`: kept if defined before it. */
static void add_operand(struct gather *ga, const struct coro_suspend *sp,
                        MlirValue v) {
  struct state *st = ga->st;
  if (excluded(st, v) || in_tail(sp, v))
    return;
  add(ga, cand_id(st, v));
}

static void gather_suspend(struct gather *ga, const struct coro_suspend *sp) {
  struct state *st = ga->st;
  MlirBlock b = mlirOperationGetBlock(sp->suspend);
  size_t sb = ir_cfg_index(st->g, b);
  if (sb == IR_CFG_NONE)
    return;
  MlirOperation term = mlirBlockGetTerminator(b);
  intptr_t t0 = coro_suspend_target(sp, 0), t1 = coro_suspend_target(sp, 1);
  intptr_t nsucc = mlirOperationGetNumSuccessors(term);
  for (intptr_t k = 0; k < nsucc; ++k) {
    if (t0 >= 0 && t1 >= 0 && k != t0 && k != t1)
      continue;
    size_t d = ir_cfg_index(st->g, mlirOperationGetSuccessor(term, k));
    for (size_t i = 0; i < st->livein[d].n; ++i) {
      size_t id = st->livein[d].d[i];
      /* an alloca whose memory no write before the suspension reaches
       * holds nothing to keep there (clang's exception slots: written and
       * read between suspensions, in each part) */
      const uint8_t *w = st->written[id];
      if ((w && !(w[sb / 8] & (1u << (sb % 8)))) ||
          dead_at(st, id, sb, sp->suspend))
        continue;
      if (!in_tail(sp, st->cand[id].v))
        add(ga, id);
    }
    intptr_t first, count;
    if (ir_successor_operands(term, k, &first, &count))
      for (intptr_t i = 0; i < count; ++i)
        add_operand(ga, sp, mlirOperationGetOperand(term, first + i));
  }
  for (MlirOperation op = mlirOperationGetNextInBlock(sp->suspend);
       !mlirOperationEqual(op, term); op = mlirOperationGetNextInBlock(op))
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
      add_operand(ga, sp, mlirOperationGetOperand(op, i));
  if (!coro_op_named(term, "llvm.br") && mlirOperationGetNumOperands(term))
    add_operand(ga, sp, mlirOperationGetOperand(term, 0));
  for (size_t i = 0; i < ga->escaped.n; ++i)
    if (!dead_at(st, ga->escaped.d[i], sb, sp->suspend))
      add(ga, ga->escaped.d[i]);
}

static bool report(struct state *st, struct cand *c) {
  if (c->reported)
    return false;
  MlirType t = mlirValueGetType(c->v);
  const char *msg = NULL;
  if (c->alloca && c->dynamic && st->dynamic) {
    c->reported = c->deferred = true;
    ir_opvec_push(st->dynamic, owner(c->v));
    return false;
  }
  if (c->alloca && c->dynamic)
    msg = "an llvm.alloca of dynamic size is live across a suspension: "
          "--coro-split cannot keep it in the frame";
  else if (mlirTypeEqual(
               t, mlirTypeIsNull(st->token)
                      ? (st->token = ir_token_type(mlirTypeGetContext(t)))
                      : st->token))
    msg = "a token value is live across a suspension: a token cannot be "
          "kept in the frame";
  if (!msg)
    return true;
  c->reported = true;
  ir_emit_error_at_value(c->v, msg);
  return false;
}

bool suspend_crossing_compute(struct suspend_crossing *sc,
                              const struct coro_shape *s,
                              const struct ir_cfg *g, MlirSymbolTable table,
                              struct ir_opvec *dynamic) {
  *sc = (struct suspend_crossing){.nsusp = s->nsusp};
  struct state st = {
      .s = s, .g = g, .dynamic = dynamic, .table = table, .ok = true};
  st.livein = ir_xcalloc(g->n + 1, sizeof *st.livein);
  st.mark = ir_xcalloc(g->n + 1, sizeof *st.mark);
  st.susp_in = ir_xcalloc(g->n + 1, sizeof *st.susp_in);
  mark_resumed(&st);
  st.before_begin = ir_xcalloc(g->n + 1, sizeof *st.before_begin);
  if (!mlirOperationIsNull(s->begin))
    ir_cfg_reach_avoiding(g, ir_cfg_index(g, mlirOperationGetBlock(s->begin)),
                          st.before_begin);
  st.many.ptr = &st; /* no op */
  for (size_t i = 0; i < s->nsusp; ++i) {
    size_t b = ir_cfg_index(g, mlirOperationGetBlock(s->susp[i].suspend));
    if (b != IR_CFG_NONE)
      st.susp_in[b] =
          mlirOperationIsNull(st.susp_in[b]) ? s->susp[i].suspend : st.many;
  }
  st.landing = ir_xmalloc((2 * g->n + 1) * sizeof *st.landing);
  for (size_t b = 0; b < 2 * g->n; ++b)
    st.landing[b] = IR_CFG_NONE;
  for (size_t i = 0; i < s->nsusp; ++i) {
    const struct coro_suspend *sp = &s->susp[i];
    size_t b = ir_cfg_index(g, mlirOperationGetBlock(sp->suspend));
    intptr_t t0 = coro_suspend_target(sp, 0), t1 = coro_suspend_target(sp, 1);
    if (b == IR_CFG_NONE || t0 < 0 || t1 < 0)
      continue;
    MlirOperation term = mlirBlockGetTerminator(g->block[b]);
    st.landing[2 * b] = ir_cfg_index(g, mlirOperationGetSuccessor(term, t0));
    st.landing[2 * b + 1] =
        ir_cfg_index(g, mlirOperationGetSuccessor(term, t1));
  }
  for (size_t b = 0; b < g->n; ++b)
    walk_block(&st, b);
  free(st.landing);

  struct gather ga = {.st = &st};
  for (size_t id = 0; id < st.ncand; ++id)
    if (st.cand[id].escaped)
      vec_push(&ga.escaped, id);
  for (size_t i = 0; i < s->nsusp; ++i) {
    ga.susp = i;
    MlirOperation op = s->susp[i].suspend;
    ga.self = s->abi != CORO_SHAPE_SWITCH && mlirOperationGetNumResults(op)
                  ? mlirOperationGetResult(op, 0)
                  : (MlirValue){NULL};
    gather_suspend(&ga, &s->susp[i]);
  }
  /* Number the candidates that cross something in definition order (the
   * order walk_block met them: reverse post-order, so a value comes after
   * every value its definition uses). */
  bool ok = true;
  size_t npairs = 0;
  for (size_t i = 0; i < ga.out.n; i += 2) {
    struct cand *c = &st.cand[ga.out.d[i + 1]];
    if (!report(&st, c)) {
      ok &= c->deferred;
      continue;
    }
    c->item = 1; /* crosses; numbered below */
    ++npairs;
  }
  for (size_t id = 0; id < st.ncand; ++id)
    if (st.cand[id].item)
      st.cand[id].item = ++sc->nitem;
  free(ga.seen);
  ga.seen = NULL;
  /* Suspensions of each item (ascending: gather went in order), then items
   * of each suspension (ascending: filled item by item). */
  sc->istart = ir_xcalloc(sc->nitem + 1, sizeof *sc->istart);
  sc->ilist = ir_xmalloc((npairs + 1) * sizeof *sc->ilist);
  sc->start = ir_xcalloc(s->nsusp + 1, sizeof *sc->start);
  sc->list = ir_xmalloc((npairs + 1) * sizeof *sc->list);
  size_t *fill = ir_xcalloc(sc->nitem + s->nsusp + 1, sizeof *fill);
  for (size_t i = 0; i < ga.out.n; i += 2) {
    struct cand *c = &st.cand[ga.out.d[i + 1]];
    if (c->item && !c->reported) {
      ++sc->istart[c->item];
      ++sc->start[ga.out.d[i] + 1];
    }
  }
  for (size_t i = 0; i < sc->nitem; ++i)
    sc->istart[i + 1] += sc->istart[i];
  for (size_t i = 0; i < s->nsusp; ++i)
    sc->start[i + 1] += sc->start[i];
  for (size_t i = 0; i < ga.out.n; i += 2) {
    struct cand *c = &st.cand[ga.out.d[i + 1]];
    if (!c->item || c->reported)
      continue;
    size_t it = c->item - 1;
    sc->ilist[sc->istart[it] + fill[it]++] = ga.out.d[i];
  }
  size_t *sfill = fill + sc->nitem;
  for (size_t it = 0; it < sc->nitem; ++it)
    for (size_t q = sc->istart[it]; q < sc->istart[it + 1]; ++q) {
      size_t su = sc->ilist[q];
      sc->list[sc->start[su] + sfill[su]++] = it;
    }
  free(fill);
  /* The items, in the candidates' memory: a chain keeps a million values,
   * and a second array as large would be fresh pages the kernel zeroes.
   * Item k comes from a candidate at k or after it and is no larger, so
   * it overwrites none still to read (each copied out first, by memcpy:
   * the two types share the memory). */
  size_t *item_of = ir_xcalloc(st.ncand + 1, sizeof *item_of);
  for (size_t id = 0; id < st.ncand; ++id)
    item_of[id] = st.cand[id].item;
  char *items = (char *)st.cand;
  for (size_t id = 0; id < st.ncand; ++id) {
    struct cand c;
    memcpy(&c, &st.cand[id], sizeof c);
    if (!c.item)
      continue;
    size_t k = c.item - 1;
    struct sc_item it = {.value = c.v,
                         .first = sc->ilist[sc->istart[k]],
                         .type = c.type,
                         .block = c.block,
                         .cheap = c.cheap,
                         .alloca = c.alloca};
    memcpy(items + k * sizeof it, &it, sizeof it);
  }
  st.cand = NULL;
  sc->item = ir_xrealloc(items, (sc->nitem + 1) * sizeof *sc->item);
  /* the lifetimes of the allocas kept, for the layout */
  sc->g = g;
  sc->markers = ir_xcalloc(sc->nitem + 1, sizeof *sc->markers);
  sc->alive = ir_xcalloc(sc->nitem + 1, sizeof *sc->alive);
  sc->present = ir_xcalloc(sc->nitem + 1, sizeof *sc->present);
  for (size_t id = 0; id < st.ncand; ++id) {
    size_t k = item_of[id];
    if (!k || !st.alive[id])
      continue;
    sc->markers[k - 1] = st.markers[id];
    sc->alive[k - 1] = st.alive[id];
    st.markers[id] = (struct ir_opvec){0};
    st.alive[id] = NULL;
    uint8_t *p = ir_xmalloc(g->n / 8 + 1);
    memcpy(p, sc->alive[k - 1], g->n / 8 + 1);
    const struct ir_opvec *m = &sc->markers[k - 1];
    for (size_t q = 0; q < m->n; ++q) {
      size_t b = ir_cfg_index(g, mlirOperationGetBlock(m->v[q]));
      if (b != IR_CFG_NONE)
        p[b / 8] |= (uint8_t)(1u << (b % 8));
    }
    sc->present[k - 1] = p;
  }
  free(item_of);
  for (size_t b = 0; b < g->n; ++b)
    free(st.livein[b].d);
  free(st.livein);
  free(st.mark);
  free(st.susp_in);
  free(st.resumed);
  free(st.before_begin);
  free(st.stack.d);
  for (size_t id = 0; id < st.ncand; ++id)
    free(st.written[id]);
  free(st.written);
  for (size_t id = 0; id < st.ncand; ++id) {
    free(st.markers[id].v);
    free(st.alive[id]);
  }
  free(st.markers);
  free(st.alive);
  free(st.cand);
  free(ga.seen);
  free(ga.out.d);
  free(ga.escaped.d);
  ir_ptrmap_free(&st.id);
  return ok;
}

/* The stretches of block `b` where an alloca with markers `m` is alive,
 * alive on entry when `in`: pairs (from, to) in `out`, a null `from` the
 * block's start and a null `to` its end. Returns how many. */
static size_t stretches(const struct ir_opvec *m, MlirBlock b, bool in,
                        struct ir_opvec *out) {
  out->n = 0;
  struct ir_opvec here = {0};
  for (size_t q = 0; q < m->n; ++q)
    if (mlirBlockEqual(mlirOperationGetBlock(m->v[q]), b)) {
      /* in block order (a block has few markers of one alloca) */
      size_t at = here.n;
      ir_opvec_push(&here, m->v[q]);
      while (at > 0 &&
             mlirOperationIsBeforeInBlock(here.v[at], here.v[at - 1])) {
        MlirOperation t = here.v[at];
        here.v[at] = here.v[at - 1];
        here.v[at - 1] = t;
        --at;
      }
    }
  bool alive = in;
  MlirOperation from = {NULL};
  for (size_t q = 0; q < here.n; ++q) {
    bool start = is_start(here.v[q]);
    if (start && !alive) {
      alive = true;
      from = here.v[q];
    } else if (!start && alive) {
      alive = false;
      ir_opvec_push(out, from);
      ir_opvec_push(out, here.v[q]);
    }
  }
  if (alive) {
    ir_opvec_push(out, from);
    ir_opvec_push(out, (MlirOperation){NULL});
  }
  free(here.v);
  return out->n / 2;
}

/* Whether `x` comes before `y` in their block, a null `x` being the
 * block's start and a null `y` its end. */
static bool before(MlirOperation x, MlirOperation y) {
  if (mlirOperationIsNull(x) || mlirOperationIsNull(y))
    return true;
  return mlirOperationIsBeforeInBlock(x, y);
}

bool suspend_crossing_disjoint(const struct suspend_crossing *sc, size_t i,
                               size_t j) {
  if (!sc->present || !sc->present[i] || !sc->present[j])
    return false;
  const struct ir_cfg *g = sc->g;
  struct ir_opvec a = {0}, b = {0};
  bool disjoint = true;
  for (size_t k = 0; k < g->n && disjoint; ++k) {
    uint8_t both = sc->present[i][k / 8] & sc->present[j][k / 8];
    if (!both) { /* no block of these eight has both */
      k |= 7;
      continue;
    }
    uint8_t bit = (uint8_t)(1u << (k % 8));
    if (!(both & bit))
      continue;
    size_t na =
        stretches(&sc->markers[i], g->block[k], sc->alive[i][k / 8] & bit, &a);
    size_t nb =
        stretches(&sc->markers[j], g->block[k], sc->alive[j][k / 8] & bit, &b);
    for (size_t p = 0; p < na && disjoint; ++p)
      for (size_t q = 0; q < nb && disjoint; ++q)
        /* [from, to) of each: they meet when each starts before the
         * other ends */
        if (before(a.v[2 * p], b.v[2 * q + 1]) &&
            before(b.v[2 * q], a.v[2 * p + 1])) {
          disjoint = false;
        }
  }
  free(a.v);
  free(b.v);
  return disjoint;
}

void suspend_crossing_free(struct suspend_crossing *sc) {
  for (size_t i = 0; sc->alive && i < sc->nitem; ++i) {
    free(sc->markers[i].v);
    free(sc->alive[i]);
    free(sc->present[i]);
  }
  free(sc->markers);
  free(sc->alive);
  free(sc->present);
  free(sc->item);
  free(sc->start);
  free(sc->list);
  free(sc->istart);
  free(sc->ilist);
  *sc = (struct suspend_crossing){0};
}
