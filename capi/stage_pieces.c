/* stage_pieces.c - a stage's passes on pieces of a large module at once.
 *
 * Upstream's arith, cf and func conversions are module passes: on a
 * module of thousands of functions they run on one thread, a quarter of
 * the coro-lower pipeline's time. Each of them converts one function's
 * ops without looking at another function, so the stage can cut the
 * module into pieces (runs of its top-level ops, each moved into a
 * builtin.module of its own nested in it), run the passes on every piece
 * at once on the context's threads, and put the ops back where they were,
 * in order. A top-level op of the LLVM dialect's ops alone (a function the
 * coroutine conversions made, a declaration, a global), in which the
 * passes have nothing to convert, stays out of the pieces (a third of the
 * ops of a module of coroutines of every ABI): a piece's ops are then
 * runs that such ops keep apart, each put back before an empty
 * builtin.module that marks where it was. Data layouts are read through
 * the enclosing module (a DataLayout collects its parents' specs), so the
 * pieces convert types as the whole module would.
 *
 * The pass managers of the pieces run without verification: a piece does
 * not hold the functions its calls name. The pipeline the stage runs in
 * verifies the whole module after the stage when it verifies at all.
 * Diagnostics come out in the pieces' order (ir/parallel.h), as the ops'
 * order would give them. capi/pipeline.c decides when a module may be cut
 * (coro_stage_info's choose); this file does the cutting. */
#include "capi/stage_pieces.h"

#include "ir/blocks.h"
#include "ir/func.h"
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
  struct ir_opvec marks; /* where its later runs of ops were (cut_piece) */
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

/* Whether `op` is not the LLVM dialect's: interrupts the walk. */
static MlirWalkResult find_other(MlirOperation op, void *user) {
  if (coro_ref_starts_with(coro_op_name(op), "llvm."))
    return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

struct tops {
  struct ir_pieces pieces; /* the module's top-level ops */
  bool *stays;             /* per op: LLVM's alone, it stays out */
};

/* Notes which top-level ops of piece `k` hold the LLVM dialect's ops
 * alone: the stage's passes (arith, cf and func to LLVM,
 * reconcile-unrealized-casts) have nothing to convert in them. */
static void note_stays(size_t k, void *user) {
  struct tops *t = user;
  size_t begin, end;
  ir_piece(&t->pieces, k, &begin, &end);
  for (size_t i = begin; i < end; ++i) {
    bool other = false;
    mlirOperationWalk(t->pieces.op[i], find_other, &other, MlirWalkPreOrder);
    t->stays[i] = !other;
  }
}

/* An empty builtin.module: where a run of ops of a piece was in the
 * module, and, in the piece, where the next run begins. */
static MlirOperation mark(MlirLocation loc) {
  return mlirModuleGetOperation(mlirModuleCreateEmpty(loc));
}

/* Moves the ops moved[0..n) of `body` into a new builtin.module placed
 * where the first was, in order; each later run of them (run_start: an op
 * that stays was right before it) gets a mark where it was (`*marks`, in
 * order) and one before it in the piece. Returns the new module. */
static MlirOperation cut_piece(MlirBlock body, const MlirOperation *moved,
                               const bool *run_start, size_t n,
                               struct ir_opvec *marks) {
  MlirOperation piece =
      mark(mlirOperationGetLocation(moved[0])); /* the first run's place */
  mlirBlockInsertOwnedOperationBefore(body, moved[0], piece);
  MlirBlock inner = mlirRegionGetFirstBlock(mlirOperationGetRegion(piece, 0));
  for (size_t k = 0; k < n; ++k) {
    MlirOperation op = moved[k];
    if (k > 0 && run_start[k]) {
      MlirLocation loc = mlirOperationGetLocation(op);
      MlirOperation here = mark(loc);
      mlirBlockInsertOwnedOperationBefore(body, op, here);
      ir_opvec_push(marks, here);
      mlirBlockAppendOwnedOperation(inner, mark(loc));
    }
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(inner, op);
  }
  return piece;
}

/* Moves the ops of `piece` back, each run before its mark (the first
 * before the piece), in order, and erases the piece and the marks. */
static void mend_piece(MlirOperation piece, const struct ir_opvec *marks) {
  MlirBlock inner = mlirRegionGetFirstBlock(mlirOperationGetRegion(piece, 0));
  MlirOperation to = piece;
  size_t next = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(inner);
       !mlirOperationIsNull(op); op = mlirBlockGetFirstOperation(inner)) {
    /* the piece's marks are its only builtin.module ops: the stage's
     * passes leave them, and a module with nested modules is not cut */
    if (next < marks->n && coro_op_named(op, "builtin.module")) {
      mlirOperationDestroy(op);
      to = marks->v[next++];
      continue;
    }
    mlirOperationMoveBefore(op, to);
  }
  mlirOperationDestroy(piece);
  for (size_t i = 0; i < marks->n; ++i)
    mlirOperationDestroy(marks->v[i]);
}

MlirLogicalResult coro_stage_run_in_pieces(MlirOperation module,
                                           const char *pipeline) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  /* the ops that move into pieces: those with something to convert */
  struct tops t = {{0}, NULL};
  ir_top_pieces_init(&t.pieces, module);
  ir_pieces_cut(&t.pieces);
  t.stays = ir_xcalloc(t.pieces.nop + 1, sizeof *t.stays);
  ir_parallel_for(ctx, t.pieces.n, note_stays, &t);
  struct ir_opvec moved = {0};
  bool *run_start = ir_xcalloc(t.pieces.nop + 1, sizeof *run_start);
  for (size_t i = 0; i < t.pieces.nop; ++i)
    if (!t.stays[i]) {
      run_start[moved.n] = i > 0 && t.stays[i - 1];
      ir_opvec_push(&moved, t.pieces.op[i]);
    }
  free(t.stays);
  free(t.pieces.op);
  /* at least one piece when anything moves, none when nothing does */
  size_t total = moved.n;
  size_t n = total / PIECE_MIN_OPS;
  if (n > PIECES_MAX)
    n = PIECES_MAX;
  if (n < 1 && total > 0)
    n = 1;
  struct piece *pieces = ir_xcalloc(n + 1, sizeof *pieces);
  for (size_t i = 0; i < n; ++i) {
    /* piece i takes ops [total*i/n, total*(i+1)/n) */
    size_t begin = total * i / n, end = total * (i + 1) / n;
    pieces[i].module = cut_piece(body, moved.v + begin, run_start + begin,
                                 end - begin, &pieces[i].marks);
  }
  free(moved.v);
  free(run_start);
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
    mend_piece(pieces[i].module, &pieces[i].marks);
    free(pieces[i].marks.v);
  }
  free(pieces);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
