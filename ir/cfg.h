/* cfg.h - the control-flow graph of one region: reachability, reverse
 * post-order, predecessors, dominators and dominance frontiers, and the
 * successor operands of the LLVM dialect's branches.
 *
 * A struct ir_cfg is a snapshot of the region when it was built: blocks are
 * numbered 0..n-1 in reverse post-order from the region's first block
 * (block 0, the entry); blocks unreachable from it get no number and no
 * edge. Rebuild it after changing edges. Owned by its builder; free with
 * ir_cfg_free. */
#ifndef CORO_IR_CFG_H
#define CORO_IR_CFG_H

#include "ir/blocks.h"
#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

#define IR_CFG_NONE ((size_t)-1)

struct ir_cfg {
  size_t n;                  /* reachable blocks */
  MlirBlock *block;          /* [n] in reverse post-order */
  struct ir_ptrmap index;    /* block -> 1 + its number */
  size_t *pred_start, *pred; /* predecessors of b: pred[pred_start[b] ..
                                pred_start[b+1]), each block once */
  size_t *succ_start, *succ; /* successors, likewise */
  size_t *idom;              /* [n] after ir_cfg_dominators; idom[0] == 0 */
  size_t *df_start, *df;     /* dominance frontiers, after ir_cfg_frontiers */
};

/* Marks in `out` ([g->n], zeroed) the blocks reachable from the entry
 * without passing through block number `avoid` (the entry itself unless
 * it is `avoid`): the blocks that run before `avoid` is first entered. */
void ir_cfg_reach_avoiding(const struct ir_cfg *g, size_t avoid, bool *out);
/* Whether `op` runs before `anchor`: in a block of `before` (from
 * ir_cfg_reach_avoiding of anchor's block), or before `anchor` in its
 * block. */
bool ir_cfg_runs_before(const struct ir_cfg *g, const bool *before,
                        MlirOperation anchor, MlirOperation op);

/* Builds the graph of `region` (which must have a first block). */
void ir_cfg_build(struct ir_cfg *g, MlirRegion region);
void ir_cfg_free(struct ir_cfg *g);
/* The number of `b`, or IR_CFG_NONE when it is unreachable. */
size_t ir_cfg_index(const struct ir_cfg *g, MlirBlock b);
/* Immediate dominators (Cooper, Harvey and Kennedy's iteration). */
void ir_cfg_dominators(struct ir_cfg *g);
/* Dominance frontiers; computes the dominators first if needed. */
void ir_cfg_frontiers(struct ir_cfg *g);
/* Erases every block of `region` unreachable from its first block. Their
 * values must have no use left in reachable blocks. Returns how many. */
size_t ir_erase_unreachable(MlirRegion region);
/* The same with `g`, a graph of `region` whose edges have not changed
 * since it was built: erases every block `g` does not number. */
size_t ir_erase_unnumbered(MlirRegion region, const struct ir_cfg *g);

/* The operands `term` (llvm.br, llvm.cond_br, llvm.switch or llvm.invoke)
 * passes to its
 * successor number `succ`: [*first, *first + *count). False for another
 * terminator. */
bool ir_successor_operands(MlirOperation term, intptr_t succ, intptr_t *first,
                           intptr_t *count);
/* Appends `v` to the operands `term` passes on every edge to `dest`. False
 * (and nothing changed) for a terminator other than llvm.br, llvm.cond_br,
 * llvm.switch or llvm.invoke. */
bool ir_append_successor_operand(MlirOperation term, MlirBlock dest,
                                 MlirValue v);

/* Whether block `a` dominates block `b` (numbers of `g`, whose dominators
 * ir_cfg_dominators has computed). */
bool ir_cfg_dominates(const struct ir_cfg *g, size_t a, size_t b);

#endif /* CORO_IR_CFG_H */
