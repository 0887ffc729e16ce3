/* cfg.c - reachability, reverse post-order, dominators and frontiers of a
 * region, and branch operand editing (see cfg.h). Every walk is iterative:
 * a region of a million blocks needs no deep native stack. */
#include "ir/cfg.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static bool op_is(MlirOperation op, const char *name) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  return s.length == strlen(name) && !memcmp(s.data, name, s.length);
}

/* A block's successors through the block (its last op's), which asks no
 * trait of the op as mlirBlockGetTerminator does: a CFG is built many
 * times per coroutine. */
static intptr_t num_succ(MlirBlock b) { return mlirBlockGetNumSuccessors(b); }

size_t ir_cfg_index(const struct ir_cfg *g, MlirBlock b) {
  size_t v = (size_t)(uintptr_t)ir_ptrmap_find(&g->index, b.ptr);
  return v ? v - 1 : IR_CFG_NONE;
}

/* Post-order by an explicit stack of (block, next successor). */
void ir_cfg_build(struct ir_cfg *g, MlirRegion region) {
  *g = (struct ir_cfg){0};
  size_t cap = 64, n = 0, sp = 0;
  MlirBlock *post = ir_xmalloc(cap * sizeof *post);
  struct frame {
    MlirBlock b;
    intptr_t next;
  } *stack = ir_xmalloc(cap * sizeof *stack);
  size_t stack_cap = cap;
  struct ir_ptrmap seen = {0};
  MlirBlock entry = mlirRegionGetFirstBlock(region);
  assert(!mlirBlockIsNull(entry) && "a CFG needs an entry block");
  ir_ptrmap_put(&seen, entry.ptr, (void *)1);
  stack[sp++] = (struct frame){entry, 0};
  while (sp) {
    struct frame *f = &stack[sp - 1];
    if (f->next < num_succ(f->b)) {
      MlirBlock s = mlirBlockGetSuccessor(f->b, f->next++);
      if (ir_ptrmap_find(&seen, s.ptr))
        continue;
      ir_ptrmap_put(&seen, s.ptr, (void *)1);
      if (sp == stack_cap) {
        stack_cap *= 2;
        stack = ir_xrealloc(stack, stack_cap * sizeof *stack);
      }
      stack[sp++] = (struct frame){s, 0};
      continue;
    }
    if (n == cap) {
      cap *= 2;
      post = ir_xrealloc(post, cap * sizeof *post);
    }
    post[n++] = f->b;
    --sp;
  }
  free(stack);
  ir_ptrmap_free(&seen);
  g->n = n;
  g->block = ir_xmalloc(n * sizeof *g->block);
  for (size_t i = 0; i < n; ++i) {
    g->block[i] = post[n - 1 - i];
    ir_ptrmap_put(&g->index, g->block[i].ptr, (void *)(uintptr_t)(i + 1));
  }
  free(post);

  /* Successor lists (each block once), then predecessors by counting. */
  g->succ_start = ir_xmalloc((n + 1) * sizeof *g->succ_start);
  size_t total = 0;
  for (size_t i = 0; i < n; ++i)
    total += (size_t)num_succ(g->block[i]);
  g->succ = ir_xmalloc(total * sizeof *g->succ);
  size_t *count = ir_xcalloc(n + 1, sizeof *count);
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    g->succ_start[i] = k;
    intptr_t ns = num_succ(g->block[i]);
    for (intptr_t s = 0; s < ns; ++s) {
      size_t j = ir_cfg_index(g, mlirBlockGetSuccessor(g->block[i], s));
      bool dup = false;
      for (size_t q = g->succ_start[i]; q < k; ++q)
        dup |= g->succ[q] == j;
      if (!dup) {
        g->succ[k++] = j;
        ++count[j];
      }
    }
  }
  g->succ_start[n] = k;
  g->pred_start = ir_xmalloc((n + 1) * sizeof *g->pred_start);
  g->pred = ir_xmalloc(k * sizeof *g->pred);
  size_t acc = 0;
  for (size_t i = 0; i < n; ++i) {
    g->pred_start[i] = acc;
    acc += count[i];
    count[i] = g->pred_start[i];
  }
  g->pred_start[n] = acc;
  for (size_t i = 0; i < n; ++i)
    for (size_t q = g->succ_start[i]; q < g->succ_start[i + 1]; ++q)
      g->pred[count[g->succ[q]]++] = i;
  free(count);
}

void ir_cfg_free(struct ir_cfg *g) {
  free(g->block);
  ir_ptrmap_free(&g->index);
  free(g->pred_start);
  free(g->pred);
  free(g->succ_start);
  free(g->succ);
  free(g->idom);
  free(g->df_start);
  free(g->df);
  *g = (struct ir_cfg){0};
}

/* Blocks are numbered in reverse post-order, so a dominator has a smaller
 * number than the blocks it dominates. The nearest common dominator of `a`
 * and `b`, `b` being what the intersection of a join's predecessors so
 * far gave: every block these walks passed for that join (marked `stamp`)
 * has `b` above it, since the result only ever moves up. A walk from `a`
 * that meets one of them therefore ends at `b` at once: each block is
 * walked through once per join, where walking every predecessor up to the
 * result would be quadratic (a coroutine's last block, reached from every
 * suspension of a chain, whose result is near the entry). */
static size_t intersect(const size_t *idom, size_t *mark, size_t stamp,
                        size_t a, size_t b) {
  while (a != b) {
    while (a > b) {
      if (mark[a] == stamp)
        return b;
      mark[a] = stamp;
      a = idom[a];
    }
    while (b > a) {
      mark[b] = stamp;
      b = idom[b];
    }
  }
  return a;
}

void ir_cfg_dominators(struct ir_cfg *g) {
  if (g->idom)
    return;
  g->idom = ir_xmalloc((g->n ? g->n : 1) * sizeof *g->idom);
  for (size_t i = 0; i < g->n; ++i)
    g->idom[i] = IR_CFG_NONE;
  if (!g->n)
    return;
  g->idom[0] = 0;
  size_t *mark = ir_xcalloc(g->n, sizeof *mark), stamp = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 1; b < g->n; ++b) {
      /* Predecessors latest first: each intersection then walks up from
       * the one before, not from the entry's side. */
      size_t nd = IR_CFG_NONE;
      ++stamp;
      for (size_t q = g->pred_start[b + 1]; q-- > g->pred_start[b];) {
        size_t p = g->pred[q];
        if (g->idom[p] == IR_CFG_NONE)
          continue;
        nd = nd == IR_CFG_NONE ? p : intersect(g->idom, mark, stamp, p, nd);
      }
      if (nd != g->idom[b]) {
        g->idom[b] = nd;
        changed = true;
      }
    }
  }
  free(mark);
}

void ir_cfg_frontiers(struct ir_cfg *g) {
  if (g->df)
    return;
  ir_cfg_dominators(g);
  size_t n = g->n;
  size_t *count = ir_xcalloc(n + 1, sizeof *count);
  /* Two passes over the same walk: count, then fill. The walk from each
   * predecessor of a join up to the join's idom adds the join once per
   * block (a block is added twice only through two predecessors that share
   * a dominator path, which the last-added check filters). */
  size_t *last = ir_xmalloc((n ? n : 1) * sizeof *last);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < n; ++i)
      last[i] = IR_CFG_NONE;
    for (size_t b = 0; b < n; ++b) {
      if (g->pred_start[b + 1] - g->pred_start[b] < 2)
        continue;
      for (size_t q = g->pred_start[b]; q < g->pred_start[b + 1]; ++q) {
        for (size_t r = g->pred[q]; r != g->idom[b]; r = g->idom[r]) {
          if (last[r] == b)
            break;
          last[r] = b;
          if (pass == 0)
            ++count[r];
          else
            g->df[count[r]++] = b;
          if (r == 0)
            break;
        }
      }
    }
    if (pass == 0) {
      g->df_start = ir_xmalloc((n + 1) * sizeof *g->df_start);
      size_t acc = 0;
      for (size_t i = 0; i < n; ++i) {
        g->df_start[i] = acc;
        acc += count[i];
        count[i] = g->df_start[i];
      }
      g->df_start[n] = acc;
      g->df = ir_xmalloc(acc * sizeof *g->df);
    }
  }
  free(last);
  free(count);
}

size_t ir_erase_unreachable(MlirRegion region) {
  struct ir_cfg g;
  ir_cfg_build(&g, region);
  size_t n = ir_erase_unnumbered(region, &g);
  ir_cfg_free(&g);
  return n;
}

size_t ir_erase_unnumbered(MlirRegion region, const struct ir_cfg *g) {
  size_t cap = 16, n = 0;
  MlirBlock *dead = ir_xmalloc(cap * sizeof *dead);
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    if (ir_cfg_index(g, b) != IR_CFG_NONE)
      continue;
    if (n == cap) {
      cap *= 2;
      dead = ir_xrealloc(dead, cap * sizeof *dead);
    }
    dead[n++] = b;
  }
  /* Dead blocks may use each other's values and branch to each other: drop
   * every operand first (a terminator's result, an llvm.invoke's, may be
   * used in another dead block: destroyed before its users let go, its
   * uses would dangle), then the terminators that branch, then the
   * blocks. */
  for (size_t i = 0; i < n; ++i)
    for (MlirOperation op = mlirBlockGetFirstOperation(dead[i]);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      mlirOperationSetOperands(op, 0, NULL);
  for (size_t i = 0; i < n; ++i) {
    MlirOperation t = mlirBlockGetTerminator(dead[i]);
    if (!mlirOperationIsNull(t) && mlirOperationGetNumSuccessors(t) > 0)
      mlirOperationDestroy(t);
  }
  for (size_t i = 0; i < n; ++i) {
    mlirBlockDetach(dead[i]);
    mlirBlockDestroy(dead[i]);
  }
  free(dead);
  return n;
}

/*===--- successor operands -------------------------------------------------*/

static int32_t segment(MlirOperation op, const char *attr, intptr_t i) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(attr));
  assert(!mlirAttributeIsNull(a) && "branch without its segment sizes");
  return mlirDenseI32ArrayGetElement(a, i);
}

bool ir_successor_operands(MlirOperation term, intptr_t succ, intptr_t *first,
                           intptr_t *count) {
  if (op_is(term, "llvm.br")) {
    *first = 0;
    *count = mlirOperationGetNumOperands(term);
    return true;
  }
  if (op_is(term, "llvm.cond_br")) {
    int32_t nt = segment(term, "operandSegmentSizes", 1);
    int32_t nf = segment(term, "operandSegmentSizes", 2);
    *first = succ == 0 ? 1 : 1 + nt;
    *count = succ == 0 ? nt : nf;
    return true;
  }
  if (op_is(term, "llvm.invoke")) {
    int32_t callee = segment(term, "operandSegmentSizes", 0);
    int32_t normal = segment(term, "operandSegmentSizes", 1);
    *first = succ == 0 ? callee : callee + normal;
    *count = succ == 0 ? normal : segment(term, "operandSegmentSizes", 2);
    return true;
  }
  if (op_is(term, "llvm.switch")) {
    intptr_t at = 1 + segment(term, "operandSegmentSizes", 1);
    if (succ == 0) {
      *first = 1;
      *count = at - 1;
      return true;
    }
    for (intptr_t c = 0; c + 1 < succ; ++c)
      at += segment(term, "case_operand_segments", c);
    *first = at;
    *count = segment(term, "case_operand_segments", succ - 1);
    return true;
  }
  return false;
}

static void set_segments(MlirOperation op, const char *attr, intptr_t n,
                         const int32_t *v) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(attr),
                                  mlirDenseI32ArrayGet(ctx, n, v));
}

bool ir_append_successor_operand(MlirOperation term, MlirBlock dest,
                                 MlirValue v) {
  intptr_t first, count;
  intptr_t nsucc = mlirOperationGetNumSuccessors(term);
  if (!nsucc || !ir_successor_operands(term, 0, &first, &count))
    return false;
  intptr_t nops = mlirOperationGetNumOperands(term);
  MlirValue *ops = ir_xmalloc((size_t)(nops + nsucc) * sizeof *ops);
  int32_t *sizes = ir_xmalloc((size_t)nsucc * sizeof *sizes);
  bool invoke = op_is(term, "llvm.invoke");
  /* the operands before the successors' (an invoke's callee operands) */
  intptr_t n = 0, prefix = op_is(term, "llvm.br") ? 0 : 1;
  if (invoke)
    prefix = first;
  for (intptr_t i = 0; i < prefix; ++i)
    ops[n++] = mlirOperationGetOperand(term, i);
  for (intptr_t s = 0; s < nsucc; ++s) {
    ir_successor_operands(term, s, &first, &count);
    for (intptr_t i = 0; i < count; ++i)
      ops[n++] = mlirOperationGetOperand(term, first + i);
    bool to_dest = mlirBlockEqual(mlirOperationGetSuccessor(term, s), dest);
    if (to_dest)
      ops[n++] = v;
    sizes[s] = (int32_t)(count + to_dest);
  }
  /* an invoke's operand bundles come after its successors' operands */
  intptr_t tail = invoke ? first + count : nops;
  for (intptr_t i = tail; i < nops; ++i)
    ops[n++] = mlirOperationGetOperand(term, i);
  mlirOperationSetOperands(term, n, ops);
  if (invoke) {
    int32_t seg[4] = {(int32_t)prefix, sizes[0], sizes[1],
                      segment(term, "operandSegmentSizes", 3)};
    set_segments(term, "operandSegmentSizes", 4, seg);
  }
  if (op_is(term, "llvm.cond_br")) {
    int32_t seg[3] = {1, sizes[0], sizes[1]};
    set_segments(term, "operandSegmentSizes", 3, seg);
  } else if (op_is(term, "llvm.switch")) {
    int32_t total = 0;
    for (intptr_t s = 1; s < nsucc; ++s)
      total += sizes[s];
    int32_t seg[3] = {1, sizes[0], total};
    set_segments(term, "operandSegmentSizes", 3, seg);
    set_segments(term, "case_operand_segments", nsucc - 1, sizes + 1);
  }
  free(ops);
  free(sizes);
  return true;
}

bool ir_cfg_dominates(const struct ir_cfg *g, size_t a, size_t b) {
  for (;; b = g->idom[b]) {
    if (a == b)
      return true;
    if (b == 0)
      return false;
  }
}

void ir_cfg_reach_avoiding(const struct ir_cfg *g, size_t avoid, bool *out) {
  size_t *stack = ir_xmalloc((g->n + 1) * sizeof *stack), n = 0;
  if (g->n && avoid != 0) {
    out[0] = true;
    stack[n++] = 0;
  }
  while (n) {
    size_t x = stack[--n];
    for (size_t q = g->succ_start[x]; q < g->succ_start[x + 1]; ++q) {
      size_t y = g->succ[q];
      if (y == avoid || out[y])
        continue;
      out[y] = true;
      stack[n++] = y;
    }
  }
  free(stack);
}

bool ir_cfg_runs_before(const struct ir_cfg *g, const bool *before,
                        MlirOperation anchor, MlirOperation op) {
  MlirBlock b = mlirOperationGetBlock(op);
  size_t x = ir_cfg_index(g, b);
  return (x != IR_CFG_NONE && before[x]) ||
         (mlirBlockEqual(b, mlirOperationGetBlock(anchor)) &&
          mlirOperationIsBeforeInBlock(op, anchor));
}
