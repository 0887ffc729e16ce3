/* split_sink.c - recomputing a large value after a suspension from the
 * smaller values it is made of, rather than keeping it in the frame.
 *
 * A value kept across a suspension that is a short chain of cheap, pure ops
 * over fewer bytes than itself (a vector broadcast from one float: 32 bytes
 * made of 4) is better kept as those bytes. Before the analyses run again,
 * every use of such a value outside its own block gets a copy of the
 * chain in its block, right before the first use there: the chain's
 * inputs then live across the suspension instead of the value, and the
 * original chain serves only its own block. LLVM's pre-split passes at -O2
 * sink such computations the same way; remat.c recomputes single cheap ops
 * whose operands are kept anyway, this handles the chains whose inputs
 * were not kept. Several values made over one input they share are kept as
 * that input too, when that keeps no suspension more bytes (sink_groups). */
#include "transforms/CoroSplit/split_internal.h"

#include "ir/types.h"

#include <assert.h>
#include <stdlib.h>

enum { MAX_DEPTH = 4, MAX_OPS = 16 };

static bool sinkable(MlirOperation op) {
  static const char *const more[] = {
      "llvm.insertelement", "llvm.extractelement", "llvm.shufflevector",
      "llvm.extractvalue", "llvm.insertvalue"};
  if (remat_op_is_cheap(op))
    return true;
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumRegions(op))
    return false;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof more / sizeof *more; ++i)
    if (coro_ref_eq(name, more[i]))
      return true;
  return false;
}

struct chain {
  MlirOperation ops[MAX_OPS]; /* operands before users */
  size_t n;
  uint64_t leaf_bytes; /* of the inputs that would live across instead */
  MlirValue leaf;      /* the first of them */
  size_t nleaf;
  struct ir_ptrmap seen;
  bool ok;
};

static uint64_t size_of(MlirValue v) {
  uint64_t size = 0, align = 0;
  return ir_type_layout(mlirValueGetType(v), &size, &align) ? size : UINT64_MAX;
}

/* Adds the chain making `v` (an input when `v` is not a cheap op's result
 * within the depth) to `c`. */
static void collect(const struct split *sp, MlirValue v, int depth,
                    struct chain *c) {
  if (!c->ok || ir_ptrmap_find(&c->seen, v.ptr))
    return;
  ir_ptrmap_put(&c->seen, v.ptr, (void *)1);
  MlirOperation def =
      mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
  if (!mlirOperationIsNull(def) && ir_op_is_constant(def))
    return; /* constants dominate every use already */
  if (!mlirOperationIsNull(def) && depth < MAX_DEPTH && sinkable(def) &&
      c->n < MAX_OPS) {
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(def); ++k)
      collect(sp, mlirOperationGetOperand(def, k), depth + 1, c);
    c->ops[c->n++] = def;
    return;
  }
  /* an input: the frame, the storage and allocas are there anyway */
  if ((!mlirOperationIsNull(def) && (mlirOperationEqual(def, sp->shape.begin) ||
                                     coro_op_named(def, "llvm.alloca"))) ||
      (!mlirValueIsNull(sp->shape.storage) &&
       mlirValueEqual(v, sp->shape.storage)))
    return;
  uint64_t s = size_of(v);
  if (s == UINT64_MAX)
    c->ok = false;
  else
    c->leaf_bytes += s;
  if (!c->nleaf++)
    c->leaf = v;
}

/* Copies the chain `c` (whose last op makes `v`) into every block that
 * uses `v` other than its own; true when any use moved. */
static bool sink(MlirValue v, const struct chain *c) {
  MlirBlock home = mlirOperationGetBlock(mlirOpResultGetOwner(v));
  bool moved = false;
  for (;;) {
    /* the first use outside `home`; all uses of its block go together */
    MlirOpOperand u = mlirValueGetFirstUse(v);
    while (
        !mlirOpOperandIsNull(u) &&
        mlirBlockEqual(mlirOperationGetBlock(mlirOpOperandGetOwner(u)), home))
      u = mlirOpOperandGetNextUse(u);
    if (mlirOpOperandIsNull(u))
      return moved;
    MlirBlock b = mlirOperationGetBlock(mlirOpOperandGetOwner(u));
    MlirOperation first = mlirBlockGetFirstOperation(b);
    for (;; first = mlirOperationGetNextInBlock(first)) {
      bool uses = false;
      for (intptr_t k = 0; !uses && k < mlirOperationGetNumOperands(first); ++k)
        uses = mlirValueEqual(mlirOperationGetOperand(first, k), v);
      if (uses)
        break;
    }
    struct ir_map m = {0};
    for (size_t i = 0; i < c->n; ++i)
      ir_clone_op(c->ops[i], &m, b, first);
    MlirValue copy = ir_map_lookup(&m, v);
    ir_map_free(&m);
    for (MlirOperation op = first; !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); ++k)
        if (mlirValueEqual(mlirOperationGetOperand(op, k), v))
          mlirOperationSetOperand(op, k, copy);
    moved = true;
  }
}

/* The values kept across a suspension that are each made by a chain over
 * one input they share (`this`, and the addresses of two of its fields
 * that LLVM's LICM hoisted out of a loop: two pointers made of one). */
struct group {
  MlirValue leaf;
  size_t *items;
  size_t n, cap;
};

/* Whether keeping `g`'s input instead of its values keeps no suspension
 * more bytes and one fewer: at every suspension one of them crosses, they
 * take at least the input's bytes, and more at one. Where the input is
 * kept anyway (`leaf_at`, 1 + its item or 0), remat.c recomputes them
 * after the suspension already; a group kept everywhere it crosses is left
 * to it. `bytes` and `kept` ([nsusp], zero) are scratch, zero again on
 * return: the work is the group's crossings, not the suspensions. */
static bool group_pays(const struct split *sp, const struct group *g,
                       size_t leaf_at, uint64_t *bytes, bool *kept) {
  const struct suspend_crossing *sc = &sp->crossing;
  uint64_t leaf = size_of(g->leaf);
  if (leaf == UINT64_MAX)
    return false;
  for (size_t q = leaf_at ? sc->istart[leaf_at - 1] : 0;
       leaf_at && q < sc->istart[leaf_at]; ++q)
    kept[sc->ilist[q]] = true;
  for (size_t i = 0; i < g->n; ++i) {
    uint64_t b = size_of(sc->item[g->items[i]].value);
    for (size_t q = sc->istart[g->items[i]]; q < sc->istart[g->items[i] + 1];
         ++q)
      bytes[sc->ilist[q]] += b;
  }
  bool fits = true, better = false;
  for (size_t i = 0; i < g->n; ++i)
    for (size_t q = sc->istart[g->items[i]]; q < sc->istart[g->items[i] + 1];
         ++q) {
      size_t s = sc->ilist[q];
      if (!kept[s] && bytes[s]) { /* not kept there anyway */
        fits &= bytes[s] >= leaf;
        better |= bytes[s] > leaf;
      }
      bytes[s] = 0;
    }
  for (size_t q = leaf_at ? sc->istart[leaf_at - 1] : 0;
       leaf_at && q < sc->istart[leaf_at]; ++q)
    kept[sc->ilist[q]] = false;
  return fits && better;
}

/* Sinks the groups of values made over one shared input (struct group)
 * that group_pays; true when any use moved. */
static bool sink_groups(struct split *sp) {
  const struct suspend_crossing *sc = &sp->crossing;
  struct ir_ptrmap index = {0};   /* leaf -> 1 + group */
  struct ir_ptrmap item_of = {0}; /* value -> 1 + item */
  struct group *groups = NULL;
  size_t ngroups = 0, cap = 0;
  for (size_t it = 0; it < sc->nitem; ++it) {
    MlirValue v = sc->item[it].value;
    if (!sc->item[it].alloca)
      ir_ptrmap_put(&item_of, v.ptr, (void *)(uintptr_t)(it + 1));
    if (sc->item[it].alloca || !mlirValueIsAOpResult(v) ||
        !sinkable(mlirOpResultGetOwner(v)))
      continue;
    struct chain c = {.ok = true};
    collect(sp, v, 0, &c);
    ir_ptrmap_free(&c.seen);
    if (!c.ok || !c.n || c.nleaf != 1)
      continue;
    size_t gi = (size_t)(uintptr_t)ir_ptrmap_find(&index, c.leaf.ptr);
    if (!gi) {
      groups = ir_grow(groups, &cap, ngroups, sizeof *groups);
      groups[ngroups] = (struct group){.leaf = c.leaf};
      ir_ptrmap_put(&index, c.leaf.ptr, (void *)(uintptr_t)++ngroups);
      gi = ngroups;
    }
    struct group *g = &groups[gi - 1];
    g->items = ir_grow(g->items, &g->cap, g->n, sizeof *g->items);
    g->items[g->n++] = it;
  }
  bool changed = false;
  uint64_t *bytes = ir_xcalloc(sc->nsusp + 1, sizeof *bytes);
  bool *kept = ir_xcalloc(sc->nsusp + 1, sizeof *kept);
  for (size_t gi = 0; gi < ngroups; ++gi) {
    struct group *g = &groups[gi];
    size_t leaf_at = (size_t)(uintptr_t)ir_ptrmap_find(&item_of, g->leaf.ptr);
    if (g->n > 1 && group_pays(sp, g, leaf_at, bytes, kept))
      for (size_t i = 0; i < g->n; ++i) {
        /* its chain walked again (the grouping kept only the input) */
        MlirValue v = sc->item[g->items[i]].value;
        struct chain c = {.ok = true};
        collect(sp, v, 0, &c);
        ir_ptrmap_free(&c.seen);
        changed |= sink(v, &c);
      }
    free(g->items);
  }
  free(bytes);
  free(kept);
  free(groups);
  ir_ptrmap_free(&index);
  ir_ptrmap_free(&item_of);
  return changed;
}

bool split_sink_chains(struct split *sp) {
  bool changed = false;
  for (size_t it = 0; it < sp->crossing.nitem; ++it) {
    MlirValue v = sp->crossing.item[it].value;
    if (sp->crossing.item[it].alloca || !mlirValueIsAOpResult(v) ||
        !sinkable(mlirOpResultGetOwner(v)))
      continue;
    struct chain c = {.ok = true};
    collect(sp, v, 0, &c);
    uint64_t s = size_of(v);
    if (c.ok && c.n && s != UINT64_MAX && c.leaf_bytes < s)
      changed |= sink(v, &c);
    ir_ptrmap_free(&c.seen);
  }
  /* the groups, on the crossing sets those were found on */
  return changed || sink_groups(sp);
}
