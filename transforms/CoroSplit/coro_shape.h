/* coro_shape.h - a coroutine as --coro-split finds it: its ABI, its
 * intrinsics, its suspension points and what each suspension continues
 * with, checked.
 *
 * Invariants after coro_shape_collect succeeds: exactly one llvm.coro.id
 * and one llvm.coro.begin (on that id); every llvm.coro.suspend takes the
 * token of an llvm.coro.save (or none) and a constant final flag, and its
 * result is used only by the ops after it in its block (its "tail"), whose
 * own results stay in that block; `await` is the await.suspend intrinsic
 * between a suspension's save and itself when both are in one block (other
 * await intrinsics are lowered where they are); at most one
 * llvm.coro.end is a fall-through one and every unwind flag is a constant;
 * no intrinsic of another ABI appears. Violations are located errors. The
 * order of `intr` and `susp` is the function's block order, so a clone
 * collects the same lists in the same order.
 *
 * A returned-continuation coroutine (llvm.coro.id.retcon or .retcon.once)
 * has instead: one id, with a constant buffer size and alignment, and one
 * llvm.coro.begin on it; no intrinsic of the switch ABI; every
 * llvm.coro.suspend.retcon has at most one result and is the last op of
 * its block before an llvm.br without operands (coro_shape_normalize makes
 * it so); every llvm.coro.end has a constant unwind flag. What needs the
 * module (the prototype, the types of what suspensions and ends pass) is
 * checked by the split's retcon entry (split_retcon.c).
 *
 * An async coroutine (llvm.coro.id.async) has the same, with
 * llvm.coro.suspend.async and llvm.coro.end.async: constant header size,
 * power-of-two alignment and context argument index (a ptr argument, the
 * storage). What needs the module is checked by split_async.c. */
#ifndef CORO_TRANSFORMS_CORO_SHAPE_H
#define CORO_TRANSFORMS_CORO_SHAPE_H

#include "ir/blocks.h"
#include "ir/fold.h"
#include "ir/support.h"
#include "transforms/CoroSplit/intrinsics.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct coro_intr_op {
  MlirOperation op;
  enum coro_intr kind;
};

struct coro_suspend {
  MlirOperation save;  /* null when the suspend takes `none` */
  MlirOperation await; /* the await.suspend.* between save and suspend */
  enum coro_intr await_kind;
  MlirOperation suspend;
  bool final;
};

enum coro_shape_abi {
  CORO_SHAPE_SWITCH,
  CORO_SHAPE_RETCON,
  CORO_SHAPE_ONCE,
  CORO_SHAPE_ASYNC
};

struct coro_shape {
  MlirOperation func;
  enum coro_shape_abi abi;
  /* retcon and retcon.once: the storage (the id's buffer pointer) and the
   * buffer's size and alignment; async: the storage is the context
   * argument, and the sizes are the context header's size and the
   * context's alignment */
  MlirValue storage;
  int64_t buffer_size, buffer_align;
  MlirOperation id, begin;
  MlirValue promise; /* coro.id's promise alloca, or null */
  struct coro_intr_op *intr;
  size_t nintr;
  struct coro_suspend *susp;
  size_t nsusp;
  struct ir_ptrmap ramp_only; /* ops after a fall-through coro.end */
  struct ir_opvec allocas;    /* every llvm.alloca, in block order */
};

/* Collects and checks the coroutine `func`. False after located errors. */
bool coro_shape_collect(struct coro_shape *s, MlirOperation func);
/* Splits the block of every llvm.coro.suspend.retcon and
 * llvm.coro.suspend.async of `func` right after
 * it, joined by an llvm.br, unless one follows already. */
void coro_shape_normalize(MlirOperation func);
void coro_shape_free(struct coro_shape *s);

/* Where the tail of suspension `s` goes when the suspend returns `c` (-1
 * suspended, 0 resumed, 1 destroyed): the terminator's successor index, or
 * -1 when the tail does not decide it from `c` alone. */
intptr_t coro_suspend_target(const struct coro_suspend *s, int64_t c);

#endif /* CORO_TRANSFORMS_CORO_SHAPE_H */
