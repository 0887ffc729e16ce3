/* ssa.h - restore SSA form after giving a value more definitions.
 *
 * A rewrite that copies a value (a reload after a suspension, a value
 * rebuilt on another path) gives it several definitions; ir_ssa_add_defs
 * makes every use see the nearest one, adding block arguments only where
 * definitions meet and the value is live (pruned SSA: iterated dominance
 * frontiers of the definitions, filtered by liveness). Cost per value: its
 * live range, its uses and the frontiers of its definitions; the scratch
 * arrays are reused across values with a stamp, never cleared.
 *
 * Invariant the caller keeps: each extra definition is available at the
 * top of its block (before any use of the value in that block), and no
 * two definitions share a block. Uses in blocks unreachable from the entry
 * are left alone (erase those blocks afterwards). */
#ifndef CORO_IR_SSA_H
#define CORO_IR_SSA_H

#include "ir/cfg.h"

struct ir_ssa {
  struct ir_cfg *g; /* borrowed; frontiers computed by ir_ssa_init */
  unsigned stamp;
  unsigned *def_at, *live_at, *idf_at, *phi_at, *memo_at; /* [g->n] */
  MlirValue *def, *phi, *memo;                            /* [g->n] */
  size_t *work, *path;                                    /* [g->n] */
};

void ir_ssa_init(struct ir_ssa *s, struct ir_cfg *g);
void ir_ssa_free(struct ir_ssa *s);
/* Rewrites the uses of `v` in reachable blocks; defs[i] is defined in
 * blocks[i]. False (with some uses rewritten) when a block argument had to
 * be added behind a terminator other than llvm.br/cond_br/switch. A path
 * from the entry on which no definition reaches a use gets poison. */
bool ir_ssa_add_defs(struct ir_ssa *s, MlirValue v, size_t n,
                     const MlirBlock *blocks, const MlirValue *defs);

#endif /* CORO_IR_SSA_H */
