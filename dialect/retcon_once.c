/* retcon_once.c - counting suspensions on every path (retcon.once).
 *
 * A forward dataflow over the function's CFG whose facts are sets of
 * suspension counts {0, 1, 2 or more}, as a 3-bit mask. A suspension
 * (coro.yield, coro.await) adds one to every count; branches join by union;
 * a cycle through a suspension reaches "2 or more". Structured ops are
 * entered: scf.if / scf.index_switch / scf.execute_region / affine.if join
 * the counts of their regions (an absent else region counts as a region with
 * no suspension); a suspension inside a loop op is an error by itself (it may
 * run zero or many times). A suspension reached by a path that has
 * suspended already is an error at that suspension; the fact at each
 * coro.end must not hold 0.
 * Masks only grow, so the fixpoint is reached in a few rounds. A nested
 * region's counts are a function of the fact it is entered with (one of
 * eight), kept once found: the rounds of a region would otherwise run its
 * nested regions again each round, exponential in the nesting. */
#include "dialect/retcon_once.h"
#include "dialect/suspend_points.h"
#include "ir/blocks.h"
#include "ir/support.h"

#include "mlir-c/Diagnostics.h"

#include <stdlib.h>

enum { ZERO = 1, ONE = 2, MANY = 4 };

struct once {
  bool report; /* emit errors (false while iterating to the fixpoint) */
  bool failed;
  /* region -> struct counts: what region_counts returned, quietly, for
   * each fact it was entered with */
  struct ir_ptrmap *memo;
};

struct counts {
  unsigned known; /* bit `in`: out[in] is known */
  unsigned char out[8];
};

/* The counts after adding `k` suspensions to every count of `m`. */
static unsigned add(unsigned m, unsigned k) {
  unsigned out = 0;
  for (unsigned c = 0; c < 3; ++c)
    if (m & (1u << c))
      out |= 1u << (c + k > 2 ? 2 : c + k);
  return out;
}

static void fail(struct once *o, MlirOperation op, const char *msg) {
  if (!o->report)
    return;
  mlirEmitError(mlirOperationGetLocation(op), msg);
  o->failed = true;
}

static unsigned region_counts(struct once *o, MlirRegion region, unsigned in);

static MlirWalkResult flag_suspension(MlirOperation op, void *user) {
  if (coro_op_named(op, "coro.yield"))
    fail(user, op,
         "'coro.yield' op suspends inside a loop, but a retcon.once "
         "coroutine suspends exactly once");
  else if (coro_op_named(op, "coro.await"))
    fail(user, op,
         "'coro.await' op suspends inside a loop, but a retcon.once "
         "coroutine suspends exactly once");
  return MlirWalkResultAdvance;
}

/* The counts after `op` (which holds regions), given those before it. */
static unsigned structured_counts(struct once *o, MlirOperation op,
                                  unsigned in) {
  if (sp_is_loop(op)) {
    mlirOperationWalk(op, flag_suspension, o, MlirWalkPreOrder);
    return in;
  }
  unsigned out = 0;
  for (intptr_t i = 0, n = mlirOperationGetNumRegions(op); i < n; ++i) {
    MlirRegion r = mlirOperationGetRegion(op, i);
    out |= mlirBlockIsNull(mlirRegionGetFirstBlock(r))
               ? in
               : region_counts(o, r, in);
  }
  return out ? out : in;
}

static unsigned op_counts(struct once *o, MlirOperation op, unsigned in) {
  if (sp_is_suspension(op)) {
    /* reported at the second suspension of a path, where the fix is (a
     * path with many has a second one; coro.end need not say it again) */
    if (in & (ONE | MANY))
      fail(o, op,
           coro_op_named(op, "coro.yield")
               ? "'coro.yield' op suspends a second time on some path, but "
                 "a retcon.once coroutine suspends exactly once"
               : "'coro.await' op suspends a second time on some path, but "
                 "a retcon.once coroutine suspends exactly once");
    return add(in, 1);
  }
  if (coro_op_named(op, "coro.end")) {
    if (in & ZERO)
      fail(o, op,
           "'coro.end' op in a retcon.once coroutine: a path reaches "
           "it without suspending; every path must suspend exactly "
           "once");
    return in;
  }
  if (mlirOperationGetNumRegions(op) > 0)
    return structured_counts(o, op, in);
  return in;
}

/* Runs block `i` of `blocks` from its current fact: joins what reaches each
 * successor into that block's fact (setting *changed when one grows), and
 * what reaches an exit (a terminator without successors) into *out. */
static void run_block(struct once *o, const MlirBlock *blocks, unsigned *facts,
                      const struct ir_ptrmap *index, size_t i, bool *changed,
                      unsigned *out) {
  unsigned f = facts[i];
  if (!f)
    return;
  MlirOperation op = mlirBlockGetFirstOperation(blocks[i]);
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    f = op_counts(o, op, f);
    intptr_t nsucc = mlirOperationGetNumSuccessors(op);
    for (intptr_t s = 0; s < nsucc; ++s) {
      uintptr_t k = (uintptr_t)ir_ptrmap_find(
          index, mlirOperationGetSuccessor(op, s).ptr);
      if (k && (facts[k - 1] | f) != facts[k - 1]) {
        facts[k - 1] |= f;
        *changed = true;
      }
    }
    if (mlirOperationIsNull(mlirOperationGetNextInBlock(op)) && nsucc == 0)
      *out |= f;
  }
}

/* Runs the dataflow over `region`'s blocks starting with `in` at its entry;
 * returns the join of the counts at its exits (terminators without
 * successors). coro.end checks happen once the facts are final. */
static unsigned region_counts(struct once *o, MlirRegion region, unsigned in) {
  size_t n = 0;
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    ++n;
  if (n == 0) /* a declaration: no path, nothing to count */
    return in;
  struct counts *memo = ir_ptrmap_find(o->memo, region.ptr);
  if (!o->report && memo && (memo->known & (1u << in)))
    return memo->out[in];
  MlirBlock *blocks = ir_xmalloc(n * sizeof(*blocks));
  unsigned *facts = ir_xcalloc(n, sizeof(*facts));
  size_t i = 0;
  struct ir_ptrmap index = {0};
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b)) {
    blocks[i++] = b;
    ir_ptrmap_put(&index, b.ptr, (void *)(uintptr_t)i); /* 1 + its number */
  }
  facts[0] = in;
  /* Iterate to a fixpoint without reporting, then once more to report. */
  struct once quiet = {false, false, o->memo};
  unsigned out = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    for (i = 0; i < n; ++i)
      run_block(&quiet, blocks, facts, &index, i, &changed, &out);
  }
  out = 0;
  for (i = 0; i < n; ++i)
    run_block(o, blocks, facts, &index, i, &changed, &out);
  free(blocks);
  free(facts);
  ir_ptrmap_free(&index);
  if (!o->report) {
    if (!memo) {
      memo = ir_xcalloc(1, sizeof *memo);
      ir_ptrmap_put(o->memo, region.ptr, memo);
    }
    memo->known |= 1u << in;
    memo->out[in] = (unsigned char)out;
  }
  return out;
}

MlirLogicalResult retcon_once_check(MlirOperation func) {
  struct ir_ptrmap memo = {0};
  struct once o = {true, false, &memo};
  region_counts(&o, mlirOperationGetRegion(func, 0), ZERO);
  for (size_t i = 0; i < memo.cap; ++i)
    if (memo.from[i])
      free(memo.to[i]);
  ir_ptrmap_free(&memo);
  return o.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}
