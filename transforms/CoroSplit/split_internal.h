/* split_internal.h - what the files of --coro-split share: the coroutine
 * being split, the variant being rewritten, and the ABI table.
 *
 * coro_split.c holds the pass driver; coroutine.c, variant.c,
 * frame_access.c, reach.c, sweep.c and elided_calls.c the machinery every
 * ABI uses (one coroutine, one part, frame accesses and landings, what a
 * part reaches, SSA repair and sweeping, calls with the frame in the
 * caller); split_switch.c the switched-resume ABI's entry, split_retcon.c
 * the returned-continuation ABIs' (retcon and retcon.once), split_async.c
 * the async ABI's. An ABI's entry
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

#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/cfg.h"
#include "ir/support.h"
#include "transforms/CoroSplit/coro_shape.h"
#include "transforms/CoroSplit/frame_layout.h"
#include "transforms/CoroSplit/remat.h"
#include "transforms/CoroSplit/suspend_crossing.h"

#include <threads.h>

struct ir_op_cache;

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

/* The suffix of each variant's function: NAME, NAME.resume, ... (V_CONT's
 * is followed by the suspension's number). */
extern const char *const split_suffix[V_COUNT];

/* Whether `v` is a clone of the coroutine entered from its frame (not the
 * ramp or the elided ramp). */
static inline bool split_is_clone(enum variant v) {
  return v != V_RAMP && v != V_ELIDED;
}

struct split_abi;

/* What sp->keep maps an op to. */
enum split_keep {
  SPLIT_KEEP_OP = 1,       /* the op is copied by every variant */
  SPLIT_KEEP_WITH_TAIL = 2 /* a suspension: the rest of its block too */
};

struct split {
  MlirContext ctx;
  MlirOperation module, func;
  MlirSymbolTable table; /* the module's */
  MlirLocation loc;
  struct coro_str name;
  struct coro_shape shape;
  struct ir_cfg cfg;
  struct suspend_crossing crossing; /* what each suspension keeps */
  struct frame_layout layout;       /* where the frame keeps it */
  struct remat remat; /* what is recomputed after a suspension instead */
  MlirType ptr, i1, i8, idx;
  const struct split_abi *abi;
  /* the module is compiled for the device (coro.device): no transfer to
   * an awaiter, which convert-coro-to-nvvm made sure there is none of */
  bool device;
  /* with debug info: the coroutine's subprogram and, for the switch ABI,
   * its frame type (frame_debug.h); null otherwise */
  MlirAttribute subprogram, frame_ty;
  /* what one ABI alone keeps (the member of sp->abi) */
  union {
    struct {
      /* NAME.resume, made empty with the other parts and given the
       * coroutine's own ops last (split_resume_in_place) */
      MlirOperation resume_fn;
      /* NAME.destroy is being made for NAME.cleanup to be copied from
       * (split_switch.c: copy_cleanup): its dispatch block takes what
       * llvm.coro.free gives as a second argument */
      bool freed_arg;
      /* NAME.elided, made empty with the parts when it is to be a copy of
       * the finished ramp (split_switch.c: copy_elided); null otherwise */
      MlirOperation elided_fn;
    } sw;
    /* retcon and retcon.once: the prototype, the continuations' type (the
     * prototype's), the ramp's result type, the allocator's parameter (an
     * integer type), and whether the frame fits the buffer */
    struct {
      MlirOperation proto;
      MlirType cont_type, ramp_result;
      MlirType alloc_size;
      bool inline_frame;
    } retcon;
    /* async: where the frame starts in the context (the header's size
     * aligned to the frame's alignment) */
    struct {
      uint64_t frame_offset;
    } async;
  };
  /* ops every variant copies (split_collect_keep in reach.c, once the
   * analyses are done): op -> enum split_keep */
  struct ir_ptrmap keep;
  /* what a variant copies of block b (a number of sp->cfg) when it does
   * not reach it: pick[pick_start[b] .. pick_start[b+1]), in block order
   * (the ops of keep, the rest of a suspension's block, terminators and
   * constants) */
  size_t *pick_start;
  struct ir_opvec pick;
  struct ir_opvec flags; /* the allocas marked CORO_DESTROY_FLAG_ATTR */
  /* the constants (ir_op_is_constant) of the blocks the graph numbers
   * but the entry, in the graph's order (collect_keep) */
  struct ir_opvec consts;
  /* where each item (of sc) is used, found once for every variant
   * (split_note_item_uses in reach.c): the numbers of the blocks of its
   * uses, use_block[use_start[it] .. use_start[it+1]) (each once), and
   * the flags ITEM_USE_* */
  size_t *use_start, *use_block;
  unsigned char *use_flags;
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
  /* what llvm.coro.free gives, when not the variant's own (the frame, or
   * null in NAME.cleanup and NAME.elided): the argument of sw.freed_arg */
  MlirValue freed;
  /* a ramp that NAME.elided is copied from: what llvm.coro.alloc gives (i1)
   * and NAME.elided's frame, arguments of its entry block meanwhile; the
   * values the two differ in are llvm.select ops on `alloc` */
  MlirValue alloc, elided_frame;
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
  /* copies of coroutine intrinsics a landing made of a suspension's tail
   * (an is_in_ramp after a suspend whose result nothing reads): not in
   * the shape's list, rewritten with it */
  struct ir_opvec tail_intr;
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
  bool frame_header;
  /* a clone is entered through a dispatch on the frame's index, so an
   * index store of the suspension a landing continues from is dead
   * (split_repair_ssa drops it) */
  bool dispatch_by_index;
  /* the parts' names are known before the shape (check_names runs
   * first); otherwise the shape is normalized first and the names checked
   * once the number of suspensions is known */
  bool names_before_shape;
  /* NAME.elided, the ramp on a frame its caller gives, for elided calls */
  bool elided_ramp;
  /* with debug info, the frame gets a type of its own (frame_debug.h) */
  bool frame_debug_type;
  /* on the device, NAME_frame_size is the frame's size (retcon frames
   * live in a control block the retcon conversion sizes) */
  bool device_frame_size;
  /* make_parts leaves sp->sw.resume_fn empty: it takes the coroutine's
   * own ops once the ramp is copied back (split_resume_in_place) */
  bool resume_in_place;
  /* a suspension returns from the variant (no code runs after it on the
   * suspended path) */
  bool suspend_returns;
  /* after the layout: checks the rest and decides where the frame lives */
  bool (*prepare)(struct split *sp, MlirSymbolTable table);
  /* errors at the coroutine when a name of a part is taken (false) */
  bool (*check_names)(struct split *sp, MlirSymbolTable table, bool elide);
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

extern const struct split_abi split_abi_switch;
extern const struct split_abi split_abi_retcon;
extern const struct split_abi split_abi_async;

/* What the continuation ABIs (retcon, retcon.once, async) share
 * (split_retcon.c): a continuation's name NAME.resume.N (owned by the
 * caller), the check that all are free, and the end of a continuation's
 * entry block (a branch to its landing). */
struct coro_str split_cont_name(const struct split *sp, size_t i);
bool split_conts_check_names(struct split *sp, MlirSymbolTable table,
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

/* Blocks that run before coro.begin's block (`before`, [sp->cfg.n]):
 * reachable from the entry without passing through it. */
void split_mark_before_begin(const struct split *sp, bool *before);
/* Whether `op` runs before llvm.coro.begin (`before`, from
 * split_mark_before_begin: the blocks that do). */
bool split_runs_before_begin(const struct split *sp, const bool *before,
                             MlirOperation op);

/* Gives each alloca of `allocas` (of dynamic size, live across a
 * suspension) heap memory the frame owns, freed at every llvm.coro.end
 * (split_dynamic.c); false after located errors. The analyses must be
 * computed again. */
bool split_heap_allocas(struct split *sp, MlirSymbolTable table,
                        const struct ir_opvec *allocas);

/* Lowers the returned-continuation ABIs' llvm.coro.alloca.alloc/get/free
 * as LLVM's CoroFrame does (split_dynamic.c): an allocation no suspension
 * can follow before its free becomes a dynamic llvm.alloca between a
 * stacksave and a stackrestore at each free; any other one calls the
 * coroutine id's allocator, and its frees the deallocator, the pointer an
 * ordinary value the frame keeps where it crosses a suspension.
 * `*changed` when anything was lowered (the analyses must be computed
 * again). False after located errors. */
bool split_coro_allocas(struct split *sp, MlirSymbolTable table,
                        bool *changed);

/* Moves the uses before llvm.coro.begin of each frame alloca to an alloca
 * of the ramp copied into it after llvm.coro.begin, and gives each byval
 * argument used from llvm.coro.begin on a copy made there
 * (split_copy_in.c); `*changed` when anything moved (the analyses must be
 * computed again). False after located errors. */
bool split_copy_in(struct split *sp, bool *changed);

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
  /* lifetime markers on what is no alloca any more (a frame field, or a
   * block argument MLIR's block merging made of two frame allocas), and
   * the coro.outside.frame marks (CORO_OUTSIDE_FRAME_MARKER) */
  struct ir_opvec stray_markers;
  /* (in) the module declares CORO_OUTSIDE_FRAME_MARKER: its calls are
   * looked for */
  bool outside_marks;
};

/* Lowers every llvm.coro.async.size.replace of `left` (after the split:
 * the records hold their context sizes); false after located errors
 * (split_async.c). */
bool split_async_size_replace(MlirSymbolTable table,
                              const struct split_leftovers *left);

/* Op caches (ir/op_cache.h) for work on MLIR's threads: each piece of
 * work takes one and gives it back, so that one cache serves one thread at
 * a time and keeps its templates from one piece to the next
 * (coro_split.c). `n` bounds how many are taken at once. */
struct split_cache_pool {
  MlirContext ctx;
  mtx_t lock;
  struct ir_op_cache **idle, **caches;
  size_t nidle, ncaches;
};
void split_cache_pool_init(struct split_cache_pool *p, MlirContext ctx,
                           size_t n);
struct ir_op_cache *split_cache_take(struct split_cache_pool *p);
void split_cache_give(struct split_cache_pool *p, struct ir_op_cache *c);
void split_cache_pool_free(struct split_cache_pool *p);

/* Calls the continuations of split retcon and async coroutines directly
 * at the marked calls of `left`, noting the functions it changes in
 * left->changed. A retcon or retcon.once coroutine of `retcon` (split
 * here, marked CORO_CONTINUATION_STATE_ATTR) whose marked calls all
 * became direct gets state numbers in place of its continuations'
 * addresses (split_retcon.c). */
void split_direct_continuation_calls(MlirOperation module,
                                     MlirSymbolTable table,
                                     struct split_leftovers *left,
                                     const struct ir_ptrmap *retcon);

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
/* Gives the new part `part` the coroutine's function attributes that say
 * how code is compiled and unwinds (personality, target, frame pointer,
 * passthrough but presplitcoroutine, ...), as LLVM's clones keep them. */
void split_inherit_attributes(const struct split *sp, MlirOperation part);
/* The name of variant `v` of the coroutine `coro` (split_suffix), owned by
 * the caller. */
struct coro_str split_part_name_of(MlirStringRef coro, enum variant v);
/* Whether `name` (freed here) is not a symbol of the module yet; an error
 * at the coroutine when it is. */
bool split_name_free(const struct split *sp, MlirSymbolTable table,
                     struct coro_str *name);

/*===--- coroutine.c, elided_calls.c ----------------------------------------*/

/* Splits the presplit coroutine `func` (an llvm.func of the module
 * `table` holds), making NAME.elided too when `elide` (switch); its frame
 * size and alignment go to `*size` and `*align`, its ABI's split to
 * `*abi`. False after located errors. */
bool split_coroutine(MlirOperation func, MlirSymbolTable table, bool elide,
                     uint64_t *size, uint64_t *align,
                     const struct split_abi **abi);

/* The elided calls of the module: function caller[i] calls coroutine
 * number callee[i] (of the coroutines being split) with its frame in the
 * caller. */
/* The elided calls of a module's coroutines, indexed both ways so that
 * each question costs what it answers: call k is in caller.v[k] and calls
 * coroutine call[k].callee; the calls of coroutine i are
 * first_of_callee[i], then call[k].next_of_callee (each 1 + k, 0 ends);
 * those a function makes, by_caller (function -> 1 + k), then
 * call[k].next_of_caller. */
struct elided_calls {
  struct ir_opvec caller;
  struct elided_call {
    size_t callee, next_of_callee, next_of_caller;
  } *call;
  size_t cap;
  size_t *first_of_callee; /* per coroutine */
  struct ir_ptrmap by_caller;
};

/* Fills `e` from every llvm.func of `module`, in one pass, for the
 * coroutines coros[0..n). */
void split_find_elided_calls(MlirOperation module, MlirOperation *coros,
                             size_t n, struct elided_calls *e);
void split_elided_calls_free(struct elided_calls *e);
/* Whether coroutine number `i` (the function `self`) makes an elided call
 * of a coroutine still pending in coros[] (not null) other than itself. */
bool split_waits_for_elided(const struct elided_calls *e, MlirOperation self,
                            size_t i, const MlirOperation *coros);
/* Gives every elided call of the split coroutine number `i` (`coro`) in a
 * function not in `done` a frame of `size` and `align` in its caller. */
void split_elide_calls(const struct elided_calls *e, size_t i,
                       MlirOperation coro, const struct ir_ptrmap *done,
                       uint64_t size, uint64_t align);

/*===--- reach.c
 * --------------------------------------------------------------*/

/* Which suspensions variant `v` (continuation `cont`) reaches once
 * rewritten (`live`, [nsusp]) and which blocks of the original's graph
 * (`seen`, [cfg.n]). */
void split_variant_reach(const struct split *sp, enum variant v, size_t cont,
                         bool *live, bool *seen);
/* Fills sp->use_start, use_block and use_flags (once per coroutine). */
void split_note_item_uses(struct split *sp);
/* Which items a variant reloads (`need`, [nitem]), from what it reaches. */
void split_variant_needs(const struct split *sp, const bool *live,
                         const bool *seen, bool clone, bool *need);
/* Fills sp->keep, sp->flags, sp->pick and sp->consts (once per
 * coroutine, after the analyses). */
void split_collect_keep(struct split *sp);
/* Copies into `fn` what variant `v` (`cont`) reaches of the coroutine,
 * from `body` (the region holding its ops), mapping in `map`; returns the
 * copy of the entry block. split_clone_reached copies from the
 * coroutine's own region. */
MlirBlock split_clone_reached_from(struct split *sp, MlirRegion body,
                                   MlirOperation fn, enum variant v,
                                   size_t cont, struct ir_map *map);
MlirBlock split_clone_reached(struct split *sp, MlirOperation fn,
                              enum variant v, size_t cont, struct ir_map *map);

/*===--- frame_access.c
 * -------------------------------------------------------*/

/* The ramp's addresses of the alloca fields and the promise, at `b`. */
void split_make_field_ptrs(struct variant_state *vs, struct ir_builder *b);
/* Destroys the templates of `m` (detached ops) and frees the map. */
void split_free_templates(struct ir_ptrmap *m);
/* Forgets the merged landings' addresses (the rewrite of the suspensions
 * is over). */
void split_forget_fronts(struct variant_state *vs);
/* A store of `v` into the field at `offset`, aligned to `align`. */
MlirOperation split_store_field(struct variant_state *vs, struct ir_builder *b,
                                MlirValue v, uint64_t offset, unsigned align);
/* Clears the resume pointer of the frame: the coroutine is done. */
void split_mark_done(struct variant_state *vs, struct ir_builder *b);
/* The landing of suspension `i` in a clone, its suspend returning `c`. */
MlirBlock split_make_landing(struct variant_state *vs, size_t i, int64_t c);

/*===--- sweep.c
 * --------------------------------------------------------------*/

/* Whether `op` is a constant or an address that nothing uses. */
bool split_dead_value(MlirOperation op);
/* Whether `op` is a constant, conversion or comparison nothing uses. */
bool split_dead_pure(MlirOperation op);
/* Replaces the result of `op`, if it is used, by the constant `v`. */
void split_replace_by_const(struct ir_builder *b, MlirOperation op, int64_t v);
/* Replaces the terminator of `block` by a plain branch when the ops from
 * `from` on decide it; true when it did. split_fold_branch also erases
 * what only decided it. */
bool split_fold_terminator(MlirBlock block, MlirOperation from);
void split_fold_branch(MlirBlock block, MlirOperation from);
/* split_fold_branch on every block of `region` that ends in llvm.cond_br,
 * from its first op; true when a branch was folded (the blocks it no
 * longer reaches are left to the caller). */
bool split_fold_cond_branches(MlirRegion region);
/* Erases what computes a value nothing in `region` uses and does nothing
 * else (a constant, an address, a comparison or conversion, a load that is
 * not volatile), and then what only it used. */
void split_sweep_region(MlirRegion region);
/* Rebuilds SSA form in a clone over its reloads, on the clone's graph `g`
 * (dominators added); false after a located error. */
bool split_repair_ssa(struct variant_state *vs, struct ir_cfg *g);
/* Erases what a variant's rewrite left unused. */
void split_sweep(struct variant_state *vs);

/*===--- variant.c, split_switch.c
 * --------------------------------------------*/

/* Calls the await wrapper of `s` in place of its await intrinsic; returns
 * its result (null for .void). */
MlirValue split_call_wrapper(const struct coro_suspend *s, MlirType ptr,
                             MlirType i1);
/* Resumes the coroutine `next` points to (musttail and return when
 * `tail`; on the device, returns it or runs the resume loop). */
void split_resume_next(struct ir_builder *b, MlirValue next, bool tail,
                       bool device);
/* Whether every suspension suspends once its state is stored. */
bool split_suspends_once_stored(const struct coro_shape *shape);
/* NAME.elided, the ramp on a frame its caller provides (switch). */
bool split_make_elided(struct split *sp, MlirSymbolTable table);
/* In a ramp NAME.elided is copied from (variant_state.alloc): `ramp` in the
 * ramp, `elided` in NAME.elided (an llvm.select on what llvm.coro.alloc
 * gives, which each copy decides); `ramp` elsewhere. */
MlirValue split_ramp_or_elided(struct variant_state *vs, struct ir_builder *b,
                               MlirValue ramp, MlirValue elided);
/* NAME.resume takes the coroutine's own ops; the ramp is copied back and
 * rewritten first (switch). */
bool split_resume_in_place(struct split *sp);

#endif /* CORO_TRANSFORMS_SPLIT_INTERNAL_H */
