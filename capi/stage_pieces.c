/* stage_pieces.c - a stage's passes on pieces of a large module at once.
 *
 * Upstream's arith, cf and func conversions are module passes: on a
 * module of thousands of functions they run on one thread, a quarter of
 * the coro-lower pipeline's time. Each of them converts one function's
 * ops without looking at another function, so the stage can cut the
 * module into pieces (contiguous runs of its top-level ops, each moved
 * into a builtin.module of its own nested in it), run the passes on every
 * piece at once on the context's threads, and put the ops back where they
 * were, in order. Data layouts are read through the enclosing module (a
 * DataLayout collects its parents' specs), so the pieces convert types as
 * the whole module would.
 *
 * The pass managers of the pieces run without verification: a piece does
 * not hold the functions its calls name. The pipeline the stage runs in
 * verifies the whole module after the stage when it verifies at all.
 * Diagnostics come out in the pieces' order (ir/parallel.h), as the ops'
 * order would give them. capi/pipeline.c decides when a module may be cut
 * (coro_stage_info's choose); this file does the cutting. */
#include "capi/stage_pieces.h"

#include "ir/parallel.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Pass.h"

#include <stdlib.h>

/* Top-level ops per piece, at least: below it the passes' own set-up
 * (type converter, patterns) weighs more than what threads save. */
enum { PIECE_MIN_OPS = 256, PIECES_MAX = 16 };

struct piece {
  MlirOperation module;  /* the nested builtin.module holding the ops */
  MlirPassManager pm;    /* its passes, made before any runs */
  bool ok;
};

static void run_piece(size_t i, void *user) {
  struct piece *p = (struct piece *)user + i;
  p->ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(p->pm, p->module));
}

/* The number of ops in `block`. */
static size_t count_ops(MlirBlock block) {
  size_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++n;
  return n;
}

bool coro_stage_pieces_worthwhile(MlirOperation module) {
  if (!ir_parallel_enabled(mlirOperationGetContext(module)))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  return count_ops(body) >= 2 * PIECE_MIN_OPS;
}

/* Moves the ops of `body` from `first` on (`n` of them) into a new
 * builtin.module placed where `first` was; returns the new module. */
static MlirOperation cut_piece(MlirBlock body, MlirOperation first, size_t n) {
  MlirLocation loc = mlirOperationGetLocation(first);
  MlirOperation piece = mlirModuleGetOperation(mlirModuleCreateEmpty(loc));
  mlirBlockInsertOwnedOperationBefore(body, first, piece);
  MlirBlock inner = mlirRegionGetFirstBlock(mlirOperationGetRegion(piece, 0));
  MlirOperation op = first;
  for (size_t k = 0; k < n; ++k) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(inner, op);
    op = next;
  }
  return piece;
}

/* Moves the ops of `piece` back before it, in order, and erases it. */
static void mend_piece(MlirOperation piece) {
  MlirBlock inner = mlirRegionGetFirstBlock(mlirOperationGetRegion(piece, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(inner);
       !mlirOperationIsNull(op); op = mlirBlockGetFirstOperation(inner))
    mlirOperationMoveBefore(op, piece);
  mlirOperationDestroy(piece);
}

MlirLogicalResult coro_stage_run_in_pieces(MlirOperation module,
                                           const char *pipeline) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t total = count_ops(body);
  size_t n = total / PIECE_MIN_OPS;
  if (n > PIECES_MAX)
    n = PIECES_MAX;
  if (n < 1)
    n = 1;
  struct piece *pieces = ir_xcalloc(n, sizeof *pieces);
  MlirOperation op = mlirBlockGetFirstOperation(body);
  for (size_t i = 0; i < n; ++i) {
    /* piece i takes ops [total*i/n, total*(i+1)/n) */
    size_t size = total * (i + 1) / n - total * i / n;
    MlirOperation next = op;
    for (size_t k = 0; k < size; ++k)
      next = mlirOperationGetNextInBlock(next);
    pieces[i].module = cut_piece(body, op, size);
    op = next;
  }
  bool ok = true;
  for (size_t i = 0; i < n && ok; ++i) {
    pieces[i].pm = mlirPassManagerCreateOnOperation(
        ctx, mlirStringRefCreateFromCString("builtin.module"));
    mlirPassManagerEnableVerifier(pieces[i].pm, false);
    ok = mlirLogicalResultIsSuccess(mlirOpPassManagerAddPipeline(
        mlirPassManagerGetAsOpPassManager(pieces[i].pm),
        mlirStringRefCreateFromCString(pipeline), NULL, NULL));
  }
  if (ok)
    ir_parallel_for(ctx, n, run_piece, pieces);
  for (size_t i = 0; i < n; ++i) {
    ok &= pieces[i].ok;
    if (!mlirPassManagerIsNull(pieces[i].pm))
      mlirPassManagerDestroy(pieces[i].pm);
    mend_piece(pieces[i].module);
  }
  free(pieces);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
