/* abi.h - what every coro-to-LLVM conversion shares.
 *
 * A conversion is a `struct coro_abi`: a name ("switch", "retcon", ...) and
 * one hook per coroutine-side op. `coro_abi_convert` is the driver every ABI
 * uses: it collects the coroutines of that ABI and the consumer ops, checks
 * that every suspension sits directly in the coroutine's body (CFG form),
 * rewrites handle types to `!llvm.ptr`, and calls the hooks. Hooks emit a
 * located error and return failure on input they cannot lower.
 *
 * Implemented by concern: driver.c (the driver), handle.c (storage types,
 * the promise, consumer ops), suspend.c (await, yield and end pieces),
 * symbols.c (declarations, allocators, entry functions). IR is built with
 * ir/ (builder.h, blocks.h). Nothing here keeps global state. */
#ifndef CORO_CONVERSION_COMMON_ABI_H
#define CORO_CONVERSION_COMMON_ABI_H

#include "coro-runtime/HandleLayout.h"
#include "dialect/value_types.h"
#include "ir/blocks.h"
#include "ir/builder.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stddef.h>

/* coro_storage_type: dialect/value_types.h. */
/* Converts `v` to/from its storage type with ops at `b`. */
MlirValue coro_to_storage(struct ir_builder *b, MlirValue v);
MlirValue coro_from_storage(struct ir_builder *b, MlirValue v, MlirType type);
/* A natural alignment in bytes for a storage type (at least 1). */
unsigned coro_storage_align(MlirType storage);

/* Declares the llvm.func named by the flat symbol ref `sym` (result null:
 * void) at the start of `module` unless a symbol of that name exists;
 * returns false (with an error at the symbol) when an existing symbol is
 * not a function. */
bool coro_declare_llvm_func(MlirOperation module, MlirAttribute sym,
                            MlirType result, intptr_t nargs,
                            const MlirType *args, MlirLocation loc);

/* The flat symbol ref attribute `attr` of `op` (null when absent). */
MlirAttribute coro_sym_attr(MlirOperation op, const char *attr);

/* The allocator pair of a coroutine: coro.alloc_fn/coro.free_fn, or the
 * ABI's defaults `dflt_alloc`/`dflt_free` (e.g. malloc/free; declared as
 * llvm.func when absent from the module). */
struct coro_allocator {
  MlirAttribute alloc_fn, free_fn;  /* flat symbol refs */
  bool alloc_is_func, free_is_func; /* func.func (func.call) or llvm.func */
  bool is_default; /* no coro.alloc_fn: the ABI's defaults (malloc/free) */
};
MlirLogicalResult coro_allocator_get(MlirOperation module, MlirOperation func,
                                     const char *dflt_alloc,
                                     const char *dflt_free,
                                     struct coro_allocator *out);

/* Lowers a consumer op (coro.resume/destroy/done/promise/noop) on a handle
 * with the common header layout (coro-runtime/HandleLayout.h), whichever
 * conversion runs it. A value passed on resume is stored in the control
 * block's resume slot, which only the retcon ABIs have: `origin` is the
 * coro.abi of the coroutine the handle comes from (handle_origin.h, empty
 * when unknown); a value passed to a switch or async handle is an error
 * naming that ABI. coro.failed and the group ops become calls of the
 * runtime, declared in `module` (the op's nearest module). */
MlirLogicalResult coro_lower_consumer(MlirOperation op, MlirStringRef origin,
                                      MlirOperation module);

/* Publishes `self` as the continuation of the awaited handle `aw` (any
 * ABI), as an awaiter does before it calls `aw`'s resume entry:
 *
 *   %r = llvm.cmpxchg promise(aw).continuation, null, %self
 *   success -> ^go
 *   %r's old value with a CORO_HANDLE_CONTINUATION_TAGS bit -> ^ended  (a
 *     scheduled task that has ended: its entry must not be called)
 *   else (another awaiter): llvm.store %self there -> ^go
 *
 * (coro-runtime/HandleLayout.h). On the `device` (no runtime, no pool,
 * frames in local memory, where PTX has no atomics) it is a store and a
 * branch to ^go. `*b`'s block ends with the branches. */
void coro_publish_awaiter(struct ir_builder *b, bool device, MlirValue aw,
                          MlirValue self, MlirBlock go, MlirBlock ended);

/* The promise of every handle: `{ptr continuation; S value}` at offset
 * CORO_PROMISE_OFFSET (coro-runtime/HandleLayout.h), where S is the
 * storage type of the handle's T (i8 for none). */
enum { CORO_PROMISE_OFFSET = CORO_HANDLE_PROMISE_OFFSET };
MlirType coro_promise_type(MlirContext ctx, MlirType value_storage);
/* The storage type of a published value type T (i8 for none); emits an
 * error at `func` naming `abi` and returns null when T cannot be stored. */
MlirType coro_value_storage(MlirOperation func, MlirType t, const char *abi);
/* The alignment a value of `storage` has in a promise (at most 16). */
unsigned coro_value_align(MlirType storage);

/* Field `field` (0: continuation, 1: value) of the promise of handle `h`
 * whose value is stored as `storage`, for the code that builds the handle.
 * The promise is at CORO_PROMISE_OFFSET in every handle, where consumers
 * read it, even when {ptr, S} is aligned above that (a struct holding the
 * handle's fields would place it further): it is reached by byte offset.
 * Accesses to the value use coro_value_align(storage). */
MlirValue coro_promise_field(struct ir_builder *b, MlirValue h,
                             MlirType storage, int field);

/* Loads the value (of type `t`, stored as its storage type) from the
 * promise of handle `h`. */
MlirValue coro_load_promise_value(struct ir_builder *b, MlirValue h,
                                  MlirType t);

/* The value `v` that the coroutine-side `op` publishes, converted to its
 * storage type; null after an error at `op` when that is not `storage`,
 * the storage type of the coroutine's handle. */
MlirValue coro_published(struct ir_builder *b, MlirOperation op, MlirValue v,
                         MlirType storage);

/* Emits `msg` as an error at `op`; returns failure. */
MlirLogicalResult coro_error_at(MlirOperation op, const char *msg);

/* The func.return right after the coro.end `op`, or null after an error at
 * `op` when something else follows it. */
MlirOperation coro_end_return(MlirOperation op);

/* Splits the block at the coro.await `op` on `aw`: the ops after `op` move
 * to `*next`; control goes to `*check`, which goes on to `*next` once `aw`
 * has ended (llvm.coro.done) and else to the returned block, where the ABI
 * suspends. Resuming the awaiter must branch back to `*check`: a resume
 * while `aw` has not ended drives `aw` again (it may have only yielded),
 * and the awaiter continues only once `aw` has reached its end. */
MlirBlock coro_await_split(struct ir_builder *b, MlirOperation op, MlirValue aw,
                           MlirBlock *next, MlirBlock *check);

/* Replaces the result of the coro.await `op` (if any) by the awaited
 * handle `aw`'s promise value, loaded at the start of `next`, where the
 * coroutine continues after the await. */
MlirLogicalResult coro_await_result(MlirOperation op, MlirValue aw,
                                    MlirBlock next);

/* After a suspension: the coro.yield `op`'s flag result becomes `flag`,
 * and the coroutine goes on with the ops after `op` (moved to a new block,
 * which is returned); when nothing uses the flag, a true `flag` goes to
 * `end` instead, passing `end_arg` (none when null). The branch is added at
 * `b`; `op` is erased. */
MlirBlock coro_yield_continue(struct ir_builder *b, MlirOperation op,
                              MlirValue flag, MlirBlock end, MlirValue end_arg);

/* The first fields of a retcon control block (see the retcon conversion):
 * {ptr resume, ptr destroy, promise, ptr continuation, R slot}.
 * The resume slot's offset depends only on S and R, so coro.resume can
 * store a value through any handle of that type. */
MlirType coro_control_prefix_type(MlirContext ctx, MlirType value_storage,
                                  MlirType resume_storage);

struct coro_later;

/* One coroutine being lowered, as the driver hands it to the hooks. */
struct coro_fn {
  MlirOperation func;  /* the func.func */
  MlirOperation begin; /* its coro.begin */
  MlirType value_type; /* T of !coro.handle<T>; none type when it is none */
  MlirOperation module;
  void *abi_state; /* the ABI's per-coroutine data, set by `prepare` */
  /* the calls of this coroutine --coro-elide marked coro.elided = true
   * (the retcon ABIs place their control blocks in the caller; coro-split
   * places a switch frame itself) */
  struct ir_opvec elided_calls;
  struct coro_later *later; /* the run's deferred work (coro_defer_body) */
};

/* Defers the body of a function the lowering of `fn` made (the function
 * itself in the module already, so that the module's order and symbols
 * are as if it were whole): once every coroutine of the run is lowered,
 * the driver calls fill(job) for every deferred body, at once on the
 * context's threads, each with an op cache of its thread's (ir/op_cache.h),
 * and then free(job); then each coroutine's `finish`, so that a fill may
 * read its coroutine's abi_state. A fill builds inside its own function
 * only, reads nothing another one or the rest of the run changes, and
 * reports nothing. */
void coro_defer_body(struct coro_fn *fn, void (*fill)(void *job), void *job);

struct coro_abi {
  const char *name; /* the value of `coro.abi` this conversion handles */
  /* Called once per coroutine before its ops, with `begin` still present. */
  MlirLogicalResult (*prepare)(struct coro_fn *fn);
  /* Coroutine-side ops; each erases the op it lowers. */
  MlirLogicalResult (*lower_yield)(struct coro_fn *fn, MlirOperation op);
  MlirLogicalResult (*lower_await)(struct coro_fn *fn, MlirOperation op);
  MlirLogicalResult (*lower_end)(struct coro_fn *fn, MlirOperation op);
  MlirLogicalResult (*lower_self)(struct coro_fn *fn, MlirOperation op);
  /* coro.group_await (async only: null for the ABIs that cannot suspend
   * on a group; the verifier rejects it in their coroutines) */
  MlirLogicalResult (*lower_group_await)(struct coro_fn *fn, MlirOperation op);
  /* Called once per coroutine after its ops, or after `prepare` failed,
   * once the run's deferred bodies are made (coro_defer_body); frees
   * abi_state. */
  void (*finish)(struct coro_fn *fn);
};

/* Lowers every coroutine of `abi` in `module` and every consumer op but
 * those inside another ABI's coroutines on that ABI's handles. */
MlirLogicalResult coro_abi_convert(MlirOperation module,
                                   const struct coro_abi *abi);

/* The entry function the retcon and async lowerings give a coroutine's
 * name: the func.func `name` : (inputs of `fty`) -> !llvm.ptr with
 * visibility `visibility` (none when empty), appended to `module` at `loc`;
 * returns its entry block. */
struct coro_str;
/* Moves the argument and result attributes of the coroutine `coro`
 * (arg_attrs, res_attrs: llvm.noundef and the like) to the function
 * `entry` that takes its place for callers, with the same arguments and
 * the handle as result; `coro`, whose signature its conversion changes,
 * keeps none. */
void coro_move_signature_attrs(MlirOperation coro, MlirOperation entry);
MlirBlock coro_entry_func(MlirOperation module, const struct coro_str *name,
                          MlirType fty, const struct coro_str *visibility,
                          MlirLocation loc);

#endif /* CORO_CONVERSION_COMMON_ABI_H */
