/* ssa.c - pruned SSA reconstruction for one value at a time (see ssa.h). */
#include "ir/ssa.h"
#include "ir/builder.h"
#include "ir/support.h"

#include <assert.h>
#include <stdlib.h>

static void *zalloc(size_t n, size_t size) {
  void *p = ir_xcalloc(n ? n : 1, size);
  return p;
}

void ir_ssa_init(struct ir_ssa *s, struct ir_cfg *g) {
  ir_cfg_frontiers(g);
  size_t n = g->n;
  *s = (struct ir_ssa){.g = g};
  s->def_at = zalloc(n, sizeof(unsigned));
  s->live_at = zalloc(n, sizeof(unsigned));
  s->idf_at = zalloc(n, sizeof(unsigned));
  s->phi_at = zalloc(n, sizeof(unsigned));
  s->memo_at = zalloc(n, sizeof(unsigned));
  s->def = zalloc(n, sizeof(MlirValue));
  s->phi = zalloc(n, sizeof(MlirValue));
  s->memo = zalloc(n, sizeof(MlirValue));
  s->work = zalloc(n, sizeof(size_t));
  s->path = zalloc(n, sizeof(size_t));
}

void ir_ssa_free(struct ir_ssa *s) {
  free(s->def_at);
  free(s->live_at);
  free(s->idf_at);
  free(s->phi_at);
  free(s->memo_at);
  free(s->def);
  free(s->phi);
  free(s->memo);
  free(s->work);
  free(s->path);
  *s = (struct ir_ssa){0};
}

static MlirBlock def_block(MlirValue v) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockArgumentGetOwner(v);
  return mlirOperationGetBlock(mlirOpResultGetOwner(v));
}

struct use {
  MlirOperation op;
  intptr_t index;
  size_t block;
};

struct rewrite {
  struct ir_ssa *s;
  MlirValue v, poison;
};

static bool has(const unsigned *at, const struct ir_ssa *s, size_t b) {
  return at[b] == s->stamp;
}

static MlirValue poison(struct rewrite *r) {
  if (mlirValueIsNull(r->poison)) {
    MlirBlock entry = r->s->g->block[0];
    MlirOperation first = mlirBlockGetFirstOperation(entry);
    struct ir_builder b = mlirOperationIsNull(first)
                              ? ir_at_end(entry, mlirValueGetLocation(r->v))
                              : ir_before(first);
    r->poison = ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(r->v));
  }
  return r->poison;
}

/* The value of r->v on entry to block x: a block argument added there, or
 * the value at the end of the nearest dominator that defines it. */
static MlirValue entry_value(struct rewrite *r, size_t x) {
  struct ir_ssa *s = r->s;
  size_t depth = 0;
  MlirValue found;
  for (;;) {
    if (has(s->memo_at, s, x)) {
      found = s->memo[x];
      break;
    }
    if (has(s->phi_at, s, x)) {
      found = s->phi[x];
      break;
    }
    if (x == 0) {
      found = poison(r);
      break;
    }
    s->path[depth++] = x;
    size_t p = s->g->idom[x];
    if (has(s->def_at, s, p)) {
      found = s->def[p];
      break;
    }
    x = p;
  }
  for (size_t i = 0; i < depth; ++i) {
    s->memo_at[s->path[i]] = s->stamp;
    s->memo[s->path[i]] = found;
  }
  return found;
}

static MlirValue end_value(struct rewrite *r, size_t x) {
  return has(r->s->def_at, r->s, x) ? r->s->def[x] : entry_value(r, x);
}

static size_t collect_uses(struct ir_ssa *s, MlirValue v, struct use **out) {
  size_t n = 0, cap = 8;
  struct use *u = ir_xmalloc(cap * sizeof *u);
  for (MlirOpOperand o = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(o);
       o = mlirOpOperandGetNextUse(o)) {
    MlirOperation op = mlirOpOperandGetOwner(o);
    size_t b = ir_cfg_index(s->g, mlirOperationGetBlock(op));
    if (b == IR_CFG_NONE)
      continue;
    if (n == cap) {
      cap *= 2;
      u = ir_xrealloc(u, cap * sizeof *u);
    }
    u[n++] = (struct use){op, mlirOpOperandGetOperandNumber(o), b};
  }
  *out = u;
  return n;
}

/* Marks the blocks `v` is live into, walking back from each use to the
 * blocks that define it. */
static void mark_live(struct ir_ssa *s, const struct use *u, size_t nuses) {
  size_t sp = 0;
  for (size_t i = 0; i < nuses; ++i) {
    size_t b = u[i].block;
    if (has(s->def_at, s, b) || has(s->live_at, s, b))
      continue;
    s->live_at[b] = s->stamp;
    s->work[sp++] = b;
  }
  while (sp) {
    size_t x = s->work[--sp];
    for (size_t q = s->g->pred_start[x]; q < s->g->pred_start[x + 1]; ++q) {
      size_t p = s->g->pred[q];
      if (has(s->def_at, s, p) || has(s->live_at, s, p))
        continue;
      s->live_at[p] = s->stamp;
      s->work[sp++] = p;
    }
  }
}

/* Adds a block argument at every live block of the iterated dominance
 * frontier of the definitions; returns how many, their blocks in work[]. */
static size_t place_phis(struct ir_ssa *s, MlirValue v, const size_t *seeds,
                         size_t nseeds, size_t *phis) {
  size_t sp = 0, nphi = 0;
  size_t *stack = s->path; /* free until entry_value runs */
  for (size_t i = 0; i < nseeds; ++i)
    stack[sp++] = seeds[i];
  while (sp) {
    size_t x = stack[--sp];
    for (size_t q = s->g->df_start[x]; q < s->g->df_start[x + 1]; ++q) {
      size_t y = s->g->df[q];
      if (has(s->idf_at, s, y))
        continue;
      s->idf_at[y] = s->stamp;
      if (has(s->live_at, s, y)) {
        s->phi_at[y] = s->stamp;
        s->phi[y] = mlirBlockAddArgument(s->g->block[y], mlirValueGetType(v),
                                         mlirValueGetLocation(v));
        phis[nphi++] = y;
      }
      if (!has(s->def_at, s, y))
        stack[sp++] = y;
    }
  }
  return nphi;
}

bool ir_ssa_add_defs(struct ir_ssa *s, MlirValue v, size_t n,
                     const MlirBlock *blocks, const MlirValue *defs) {
  if (++s->stamp == 0) { /* wrapped: every stamp array is stale */
    size_t m = s->g->n;
    for (size_t i = 0; i < m; ++i)
      s->def_at[i] = s->live_at[i] = s->idf_at[i] = s->phi_at[i] =
          s->memo_at[i] = 0;
    s->stamp = 1;
  }
  struct rewrite r = {.s = s, .v = v};
  size_t *seeds = ir_xmalloc((n + 1) * sizeof *seeds), nseeds = 0;
  size_t own = ir_cfg_index(s->g, def_block(v));
  if (own != IR_CFG_NONE) {
    s->def_at[own] = s->stamp;
    s->def[own] = v;
    seeds[nseeds++] = own;
  }
  for (size_t i = 0; i < n; ++i) {
    size_t b = ir_cfg_index(s->g, blocks[i]);
    if (b == IR_CFG_NONE || has(s->def_at, s, b))
      continue;
    s->def_at[b] = s->stamp;
    s->def[b] = defs[i];
    seeds[nseeds++] = b;
  }
  struct use *u;
  size_t nuses = collect_uses(s, v, &u);
  mark_live(s, u, nuses);
  size_t *phis = s->work; /* free once the liveness is marked */
  size_t nphi = place_phis(s, v, seeds, nseeds, phis);
  free(seeds);
  bool ok = true;
  for (size_t i = 0; i < nphi; ++i) {
    size_t y = phis[i];
    for (size_t q = s->g->pred_start[y]; q < s->g->pred_start[y + 1]; ++q) {
      size_t p = s->g->pred[q];
      MlirValue in = end_value(&r, p);
      ok &= ir_append_successor_operand(mlirBlockGetTerminator(s->g->block[p]),
                                        s->g->block[y], in);
    }
  }
  /* Appending a successor operand shifts the operands after it (a
   * cond_br's false operands follow its true ones): the uses recorded
   * before are found again, each where it is now. The operands just
   * appended are among them, and get what they already hold. */
  if (nphi) {
    free(u);
    nuses = collect_uses(s, v, &u);
  }
  for (size_t i = 0; i < nuses; ++i) {
    MlirValue to = end_value(&r, u[i].block);
    if (!mlirValueEqual(to, v))
      mlirOperationSetOperand(u[i].op, u[i].index, to);
  }
  free(u);
  return ok;
}
