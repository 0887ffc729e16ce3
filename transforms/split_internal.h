/* split_internal.h - what the files of --coro-split share: the coroutine
 * being split, the variant being rewritten, and the ABI table.
 *
 * coro_split.c holds the driver and the machinery every ABI uses (the
 * analyses' results, cloning, reloads, SSA repair, sweeping) and the
 * switched-resume ABI's entry; split_retcon.c holds the
 * returned-continuation ABIs' (retcon and retcon.once), split_async.c the
 * async ABI's. An ABI's entry
 * (struct split_abi) says what its frame starts with, which parts it makes
 * and how a variant enters, suspends, begins and ends, as LLVM's
 * SwitchABI, AnyRetconABI and AsyncABI do for its CoroSplit.
 *
 * Invariant of a variant: `frame` dominates every block the variant keeps;
 * `landing[i]` (clones only) reloads what suspension i keeps and continues
 * where the suspension resumes; `map` takes the original's values to the
 * variant's (null for the ramp, which is the original). */
#ifndef CORO_TRANSFORMS_SPLIT_INTERNAL_H
#define CORO_TRANSFORMS_SPLIT_INTERNAL_H

#include "dialect/support.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/cfg.h"
#include "transforms/coro_shape.h"
#include "transforms/frame_layout.h"
#include "transforms/remat.h"
#include "transforms/suspend_crossing.h"

/* V_ELIDED is the ramp of a coro.alloc = "elide" coroutine for callers
 * that give it the frame: NAME.elided(args..., ptr frame). V_CONT is a
 * returned-continuation coroutine's continuation after one suspension
 * (variant_state.cont): NAME.resume.N. */
enum variant {
  V_RAMP,
  V_RESUME,
  V_DESTROY,
  V_CLEANUP,
  V_ELIDED,
  V_CONT,
  V_COUNT
};

struct split_abi;

struct split {
  MlirContext ctx;
  MlirOperation module, func;
  MlirSymbolTable table; /* the module's */
  MlirLocation loc;
  struct coro_str name;
  struct coro_shape shape;
  struct ir_cfg cfg;
  struct suspend_crossing sc;
  struct frame_layout fl;
  struct remat rm;
  MlirType ptr, i1, i8, idx;
  const struct split_abi *abi;
  /* the module is compiled for the device (coro.device): no transfer to
   * an awaiter, which convert-coro-to-nvvm made sure there is none of */
  bool device;
  /* with debug info: the coroutine's subprogram and, for the switch ABI,
   * its frame type (frame_debug.h); null otherwise */
  MlirAttribute dsp, frame_ty;
  /* retcon and retcon.once: the prototype, the continuations' type (the
   * prototype's), the ramp's result type, and whether the frame fits the
   * buffer */
  MlirOperation proto;
  MlirType cont_type, ramp_result;
  MlirType alloc_size; /* the allocator's parameter (an integer type) */
  bool inline_frame;
  /* async: where the frame starts in the context (the header's size
   * aligned to the frame's alignment) */
  uint64_t frame_offset;
  /* ops every variant copies (collect_keep in coro_split.c, once the
   * analyses are done): 1, or 2 for a suspension, whose block's rest is
   * copied too */
  struct ir_ptrmap keep;
  /* what a variant copies of block b (a number of sp->cfg) when it does
   * not reach it: pick[pick_start[b] .. pick_start[b+1]), in block order
   * (the ops of keep, the rest of a suspension's block, terminators and
   * constants) */
  size_t *pick_start;
  struct ir_opvec pick;
  struct ir_opvec flags; /* the allocas marked CORO_DESTROY_FLAG_ATTR */
  /* the constants (coro_op_is_constant) of the blocks the graph numbers
   * but the entry, in the graph's order (collect_keep) */
  struct ir_opvec consts;
  /* where each item (of sc) is used, found once for every variant
   * (note_item_uses in coro_split.c): the numbers of the blocks of its
   * uses, use_block[use_start[it] .. use_start[it+1]) (each once), and
   * the flags ITEM_USE_* */
  size_t *use_start, *use_block;
  unsigned char *use_flags;
  /* switch: NAME.resume, made empty with the other parts and given the
   * coroutine's own ops last (resume_in_place in coro_split.c) */
  MlirOperation resume_fn;
};

enum { SPLIT_FRONTS = 4 };

/* One variant being rewritten: its function, the map from the original's
 * values and blocks, its own shape (same order as the original's). */
struct variant_state {
  struct split *sp;
  enum variant v;
  size_t cont; /* V_CONT: the suspension it continues after */
  MlirOperation fn;
  struct ir_map *map;
  struct coro_shape shape;
  MlirValue frame;
  MlirBlock dispatch; /* a clone's entry block */
  MlirBlock *landing; /* [nsusp], null where the variant has none */
  MlirValue *reload;  /* [list size]: reload of list[q] at its suspension */
  bool *live;         /* [nsusp]: the suspension is reachable in the variant */
  bool *need;         /* [nitem]: the variant may use the item's reloads */
  /* [nsusp] in a switch clone: the store of suspension i's index */
  MlirOperation *index_store;
  /* values of a suspension's tail (the ops after it in its block) used in
   * other blocks, each with its copy in a landing: the SSA repair gives
   * those uses the copy (LLVM's pre-split passes may hoist a load both
   * successors make into the suspension's block, after the suspend) */
  MlirValue *tail_v, *tail_copy;
  MlirBlock *tail_at;
  size_t ntail, captail;
  struct ir_ptrmap fptr; /* field offset -> its address (field_ptr) */
  /* [nsusp]: the landing is the front of the block its suspension
   * continues with rather than a block of its own (make_landing) */
  bool *merged;
  /* the field addresses the last SPLIT_FRONTS merged landings made, each
   * at the front of its block, before every op of the block's own: every
   * access the rewrite adds to that block later may share them
   * (split_field_at), as the stores of the suspension a chain's next
   * block ends with do with the reloads at its front */
  struct {
    MlirBlock block;
    struct ir_ptrmap at; /* field offset -> its address */
  } front[SPLIT_FRONTS];
  size_t nfront;   /* fronts made so far (the next goes to nfront % N) */
  size_t building; /* 1 + the front a landing is being made in, or 0 */
  /* templates of frame accesses (split_field_at): field offset -> its
   * address, type and alignment -> load, alignment -> store */
  struct ir_ptrmap tpl_gep, tpl_load, tpl_store;
};

struct split_abi {
  const char *name;
  /* the frame starts with LLVM's switch header, the promise and the
   * suspension index (frame_layout_compute) */
  bool header;
  /* a suspension returns from the variant (no code runs after it on the
   * suspended path) */
  bool suspend_returns;
  /* after the layout: checks the rest and decides where the frame lives */
  bool (*prepare)(struct split *sp, MlirSymbolTable table);
  /* errors at the coroutine when a name of a part is taken */
  bool (*names_free)(struct split *sp, MlirSymbolTable table, bool elide);
  /* makes and rewrites the clones (not the ramp) */
  bool (*make_parts)(struct split *sp, MlirSymbolTable table);
  /* the ramp's frame (at coro.begin), or a clone's entry block and frame */
  void (*ramp_frame)(struct variant_state *vs);
  void (*clone_entry)(struct variant_state *vs);
  /* ends a clone's entry block once the landings exist */
  void (*finish_entry)(struct variant_state *vs);
  void (*suspend)(struct variant_state *vs, size_t i);
  void (*begin)(struct variant_state *vs, MlirOperation op);
  void (*end)(struct variant_state *vs, MlirOperation op);
};

extern const struct split_abi split_abi_retcon;
extern const struct split_abi split_abi_async;

/* What the continuation ABIs (retcon, retcon.once, async) share
 * (split_retcon.c): a continuation's name NAME.resume.N (owned by the
 * caller), the check that all are free, and the end of a continuation's
 * entry block (a branch to its landing). */
struct coro_str split_cont_name(const struct split *sp, size_t i);
bool split_conts_names_free(struct split *sp, MlirSymbolTable table,
                            bool elide);
void split_cont_finish_entry(struct variant_state *vs);
/* Makes continuation `i` (internal, returning `result` or nothing when
 * null, taking args[0..nargs), in calling convention `cconv` when not
 * null) and fills it (split_clone_part). */
bool split_make_cont(struct split *sp, MlirSymbolTable table, size_t i,
                     MlirType result, intptr_t nargs, const MlirType *args,
                     MlirAttribute cconv);
/* Replaces `from` and the rest of its block by a return of `v` (none when
 * null). */
void split_return_at(MlirOperation from, MlirValue v);
/* When the part `fn` returns an LLVM struct from more than one place, its
 * returns branch to one return block that takes the struct's fields as
 * arguments and builds it there. LLVM folds each field where the value was
 * built field by field, and the merged return carries one phi per field
 * rather than a phi of the struct, which InstCombine does not take apart
 * (it folds an extractvalue into a phi only when the phi has one use): a
 * caller that inlines the part then sees per path what the part returned,
 * e.g. a retcon resume entry that a yield's path needs no test of the
 * continuation against null. */
void split_unify_returns(MlirOperation fn);

/* Blocks that run before coro.begin's block (`before`, [sp->cfg.n]):
 * reachable from the entry without passing through it. */
void split_mark_before_begin(const struct split *sp, bool *before);

/* Gives each alloca of `allocas` (of dynamic size, live across a
 * suspension) heap memory the frame owns, freed at every llvm.coro.end
 * (split_dynamic.c); false after located errors. The analyses must be
 * computed again. */
bool split_heap_allocas(struct split *sp, MlirSymbolTable table,
                        const struct ir_opvec *allocas);

/* Copies, into each block using it, the chain of cheap ops making a value
 * kept across a suspension whose inputs take fewer bytes than it
 * (split_sink.c); true when anything moved (the analyses must be computed
 * again). */
bool split_sink_chains(struct split *sp);

/* What is left to do across the module once every coroutine is split,
 * found in one pass over the ops of its functions (split_scan_module in
 * coro_split.c): a pass over a module of millions of ops costs about as
 * much as the work it finds, so the steps below share one. */
struct split_leftovers {
  struct ir_opvec size_replace; /* llvm.coro.async.size.replace */
  struct ir_opvec marked;       /* llvm.call marked CORO_CONTINUATION_OF_ATTR */
  struct ir_opvec intr;         /* every other coroutine intrinsic */
  struct ir_opvec intr_fn;      /* the function of each, in module order */
  struct ir_ptrmap changed;     /* functions changed since the scan */
};

/* Lowers every llvm.coro.async.size.replace of `left` (after the split:
 * the records hold their context sizes); false after located errors
 * (split_async.c). */
bool split_async_size_replace(MlirSymbolTable table,
                              const struct split_leftovers *left);

/* Calls the continuations of split retcon and async coroutines directly
 * at the marked calls of `left`, noting the functions it changes in
 * left->changed (split_retcon.c). */
void split_direct_continuation_calls(MlirOperation module,
                                     MlirSymbolTable table,
                                     struct split_leftovers *left);

/* Puts the name `op` calls, when it is an llvm.call of a symbol, into
 * `called` (as an identifier): an intrinsic the split keeps, whose
 * declaration stays (split_consumers.c). */
void split_note_callee(struct ir_ptrmap *called, MlirOperation op);

/* Lowers llvm.coro.resume, destroy, done, promise and noop in every
 * llvm.func of `module` to accesses of the frame header (HandleLayout.h),
 * or, for the resume or destroy of a handle straight from a call of a
 * coroutine in `split` (the ones split, with their parts), to a direct
 * call of its part; any other coroutine intrinsic left is an error, except
 * in a coroutine of another ABI left presplit for LLVM's CoroSplit, which
 * keeps its own: the names those call (llvm.call @llvm.coro.*) go into
 * `called` (as identifiers). The intrinsics are those of `left`, and of a
 * function in left->changed those found again (split_consumers.c). */
bool coro_split_lower_consumers(MlirOperation module, MlirSymbolTable table,
                                const struct ir_ptrmap *split,
                                const struct split_leftovers *left,
                                struct ir_ptrmap *called);
/* Appends to `out` the continuations NAME.resume.0, 1, ... of the split
 * retcon or async coroutine `coro` (none for another). */
void split_continuations(MlirSymbolTable table, MlirStringRef coro,
                         struct ir_opvec *out);

/* Fills `fn` (a new function, inserted into `table`) with a copy of what
 * variant `v` (continuation `cont` for V_CONT) of the coroutine reaches
 * (clone_reached), rewritten, with its own subprogram under debug info. */
bool split_clone_part(struct split *sp, MlirSymbolTable table, MlirOperation fn,
                      enum variant v, size_t cont);

/* A clone's entry block, first in its region, taking args[0..n) (located
 * at the coroutine): vs->dispatch. */
void split_entry_block(struct variant_state *vs, intptr_t n,
                       const MlirType *types);

/* Rewrites one variant (its suspensions, intrinsics, frame accesses). */
bool split_rewrite_variant(struct variant_state *vs);

/* The llvm.func of the module `v` is the address of, or null; the type
 * of an llvm.func (split_retcon.c). */
MlirOperation split_fn_of(MlirSymbolTable table, MlirValue v);
/* The llvm.func of the module the symbol reference `sym` names, or null. */
MlirOperation split_func_named(MlirSymbolTable table, MlirAttribute sym);
MlirType split_fn_type(MlirOperation fn);
/* Whether `t` is !llvm.void. */
bool split_is_void(MlirType t);
/* Walks the llvm.insertvalue chain that builds the struct `v`: returns
 * the insertvalue that sets member `k` (null when none does) and, in
 * `*root` (when not null), the value the chain starts from (`v` itself
 * when no insertvalue makes it) (split_retcon.c). */
MlirOperation split_insert_of(MlirValue v, int64_t k, MlirValue *root);
/* The symbol `v` is the address of (llvm.mlir.addressof), or null. */
MlirAttribute split_named(MlirValue v);
/* A call of the function `fn` points to: direct when it is named. */
MlirValue split_call(struct ir_builder *b, MlirValue fn, intptr_t n,
                     const MlirValue *args, MlirType result);

/* Through `b` (left at the block where none matched): compares `fn` with
 * the address of each function of `fns` and calls the one it is directly
 * (calling convention `cconv`, on args[0..n), returning `result` or
 * nothing when null), then branches to `join`, passing the result when
 * `join` takes an argument (split_consumers.c). */
void split_compare_chain(struct ir_builder *b, MlirValue fn,
                         const struct ir_opvec *fns, int cconv, intptr_t n,
                         const MlirValue *args, MlirType result,
                         MlirBlock join);

/* Destroys `op`, whose results must be unused by now. */
void split_erase(MlirOperation op);
/* Erases `from` and everything after it in its block (uses left of their
 * results get poison). */
void split_erase_from(MlirOperation from);
void split_replace_result(MlirOperation op, MlirValue with);
/* The address of the frame field at `offset`, for an access at `b`. */
MlirValue split_field_at(struct variant_state *vs, struct ir_builder *b,
                         uint64_t offset);
/* `p` rounded up to a multiple of `align` (a power of two), at `b`. */
MlirValue split_aligned(struct ir_builder *b, MlirValue p, uint64_t align);
/* Stores what suspension `i` keeps before `at`. */
void split_store_kept(struct variant_state *vs, size_t i, MlirOperation at);
/* Appends (at `b`, the end of a landing block) the reloads of what
 * suspension `i` keeps and the values it recomputes. */
void split_reload_kept(struct variant_state *vs, size_t i,
                       struct ir_builder *b);
/* The original's value `v` in the variant. */
MlirValue split_mapv(const struct variant_state *vs, MlirValue v);
/* "NAME" followed by `suffix`, owned by the caller. */
struct coro_str split_part_name(const struct split *sp, const char *suffix);
/* Whether `name` (freed here) is not a symbol of the module yet; an error
 * at the coroutine when it is. */
bool split_name_free(const struct split *sp, MlirSymbolTable table,
                     struct coro_str *name);

#endif /* CORO_TRANSFORMS_SPLIT_INTERNAL_H */
