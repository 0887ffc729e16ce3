/* contract.h - the names coro's passes agree on, in one place.
 *
 * Every discardable attribute a pass writes for another to read, and every
 * symbol name or suffix a pass generates that another pass, the runtime or
 * a host looks up, is defined here once, with the pass that writes it and
 * the passes that read it. No other file spells these strings. This header
 * sits below conversion/ and transforms/ (DESIGN.md section 2), so that
 * neither includes the other to learn a name.
 *
 * The attributes a frontend writes on a coroutine (coro.abi, coro.alloc,
 * ...) are the dialect's contract (docs/dialect.md); they are here too so
 * that the passes reading them share one spelling. Also here: the few
 * predicates that read these attributes, implemented in contract.c. */
#ifndef CORO_DIALECT_CONTRACT_H
#define CORO_DIALECT_CONTRACT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

/*===--- attributes a frontend writes on a coroutine (docs/dialect.md) ----===*/

/* Written by the frontend; read by --coro-verify, the conversions,
 * --coro-elide, --convert-coro-to-nvvm and --coro-split (elided calls). */
#define CORO_ABI_ATTR "coro.abi"           /* "switch" | "retcon" | ... */
#define CORO_ALLOC_ATTR "coro.alloc"       /* "heap" | "elide" | "arena" */
#define CORO_ALLOC_FN_ATTR "coro.alloc_fn" /* symbol ref: the allocator */
#define CORO_FREE_FN_ATTR "coro.free_fn"   /* symbol ref: the deallocator */
#define CORO_BUFFER_ATTR "coro.buffer"     /* retcon: array<i64: SIZE, ALIGN> */

/*===--- attributes one pass writes for another ---------------------------===*/

/* A unit attribute on the builtin.unrealized_conversion_cast of a handle
 * to !llvm.ptr that the checked mode makes to look the handle's address up
 * in its table of destroyed handles (transforms/misuse_checks.c): the
 * address is compared and stored as an integer, never dereferenced, so
 * --coro-elide's escape analysis (handle_escape.c) does not count it. */
#define CORO_CHECKED_ADDRESS_ATTR "coro.checked_address"

/* A BoolAttr on a func.call of a switch coroutine, kept on the llvm.call it
 * lowers to: whether the call's frame lives in its caller. Written by
 * --coro-elide; read by the conversions (common/driver.c),
 * --convert-coro-to-nvvm, --coro-split (elided_calls.c) and the -O2
 * pre-split trip (capi/presplit.c). */
#define CORO_ELIDED_ATTR "coro.elided"

/* A unit attribute on an i1 llvm.alloca of a coroutine: the switch
 * conversion's destroy flag. It is stored true only on a destroy path,
 * which never suspends again, so --coro-split reads it as false in the
 * ramp and in NAME.resume, where no destroy path runs. That leaves no
 * free(frame) in NAME.resume behind a flag LLVM cannot see through, which
 * would keep an elided frame from being promoted to registers. Written by
 * --convert-coro-to-llvm-switch; read by --coro-split. */
#define CORO_DESTROY_FLAG_ATTR "coro.destroy_flag"

/* A flat symbol reference on an indirect llvm.call: the callee is one of
 * the continuations of that retcon, retcon.once or async ramp. Once
 * --coro-split has made the continuations, such a call tests the callee
 * against each (up to CORO_DIRECT_CONTINUATIONS of them; the last needs no
 * test) and calls the one it is directly, which LLVM can inline, with its
 * own copy of what follows the call. A coroutine with more continuations
 * keeps the indirect call. Written by --convert-coro-to-llvm-retcon,
 * --convert-coro-to-llvm-async and the -O2 pre-split trip (which keeps the
 * marks across LLVM's passes); read by --coro-split (split_retcon.c). */
#define CORO_CONTINUATION_OF_ATTR "coro.continuation_of"

/* The same mark on a direct llvm.call of a function that runs, from a
 * resume entry, its second operand (a continuation of that async ramp) on
 * its first (the task): route B's async resume entry calls
 * __coro_async_run_parked(h, h.parked) so. --coro-split tests the second
 * operand against each continuation and tail-calls the one it is in its
 * entered form instead: NAME.entered, a fastcc void(ptr) copy of the
 * continuation in which the tail call of each dispatch function D calls
 * the function D's CORO_ENTERED_ATTR names (tail-called when it has the
 * copy's prototype; when it returns a handle, that handle's resume entry
 * is tail-called unless it is null). The entered forms give the task the
 * handoff slot the resume entry no longer gives. A continuation that
 * tail-calls a function with no entered form, or calls one otherwise,
 * keeps the call as it is (split_retcon.c). Written by
 * --convert-coro-to-llvm-async in a module route B splits; the -O2
 * pre-split trip keeps both marks. */
#define CORO_ENTERED_ATTR "coro.entered"
#define CORO_DIRECT_CONTINUATIONS 4

/* A unit attribute on a retcon or retcon.once ramp: the addresses of its
 * continuations reach nothing but calls marked CORO_CONTINUATION_OF_ATTR
 * and tests against null and each other (the retcon conversion's control
 * block keeps them; nothing else reads it). When every such call of the
 * ramp has become direct, --coro-split returns and tests a state number
 * (inttoptr of 1, 2, ...) in place of each continuation's address, so
 * that no address of a continuation is taken. Written by
 * --convert-coro-to-llvm-retcon(-once); read and dropped by --coro-split
 * (split_retcon.c). */
#define CORO_CONTINUATION_STATE_ATTR "coro.continuation_state"

/* A consumer op's original handle type, recorded by the conversions'
 * driver (common/driver.c) and read by the ABI hooks (common/handle.c);
 * erased with the op in the same pass. */
#define CORO_HANDLE_TYPE_ATTR "coro.handle_type"

/* A unit attribute on a lowered retcon, retcon.once or async body whose
 * passthrough "noinline" the conversion added, not its producer: LLVM's
 * CoroSplit leaves coro.id.retcon and coro.begin in a split ramp until
 * CoroCleanup, so route A must not inline a split ramp into a coroutine
 * not split yet. Route B splits every coroutine at once and leaves no
 * intrinsic behind, so --coro-split drops the mark and that "noinline"
 * with "presplitcoroutine": LLVM may then inline the ramp into its
 * callers (at -O2, a driver of a retcon.once coroutine folds to its
 * result). Written by the conversions (coro_mark_lowered_body); read and
 * dropped by --coro-split. */
#define CORO_NOINLINE_UNTIL_SPLIT_ATTR "coro.noinline_until_split"

/* A string attribute on a coro.await whose awaited handle visibly comes
 * from a coroutine of a known ABI (the value is that coro.abi). Written by
 * the conversions' driver before any coroutine is lowered; read by
 * --convert-coro-to-llvm-async. */
#define CORO_AWAITED_ABI_ATTR "coro.awaited_abi"

/* A module attribute: the module is compiled for the device. Written by
 * --convert-coro-to-nvvm (coro-lower-nvvm); read by --coro-split (parts
 * return the handle to run next, frame size globals), the retcon
 * conversion and --coro-check-device. */
#define CORO_DEVICE_ATTR "coro.device"

/* A module attribute that says which route lowers a module's coroutines:
 * "mlir-split" for route B (coro's own --coro-split). Written by the tools
 * and coroLowerToLLVMDialectWithOptions under route B (capi/lowering.c);
 * read by --coro-verify (which accepts what only route B lowers: dynamic
 * allocas across suspensions), and the retcon and async conversions. */
#define CORO_ROUTE_ATTR "coro.route"
#define CORO_ROUTE_B "mlir-split"

/*===--- symbols the passes generate --------------------------------------===*/

/* --coro-split's parts of a switch coroutine NAME: NAME.resume,
 * NAME.destroy, NAME.cleanup (NAME.destroy that frees nothing), and
 * NAME.elided(args..., ptr frame), the ramp on a frame its caller gives;
 * a retcon or async coroutine's continuations are NAME.resume.N. Written by
 * --coro-split; read by --coro-split's consumer lowering (direct calls of
 * a part). NAME.elided is also the retcon conversion's name for the ramp
 * of a control block in the caller's memory. */
#define CORO_PART_RESUME ".resume"
#define CORO_PART_DESTROY ".destroy"
#define CORO_PART_CLEANUP ".cleanup"
#define CORO_PART_ELIDED ".elided"
#define CORO_PART_CONTINUATION ".resume."

/* What the retcon conversion names after a retcon or retcon.once coroutine
 * NAME: the body that is split (NAME.coro.ramp), the control block's
 * resume and destroy entries (NAME.coro.resume, NAME.coro.destroy;
 * NAME.coro.cleanup for a block in its caller's memory, which frees
 * nothing), what a resume runs after the continuation returns
 * (NAME.coro.settle), the continuation prototype (NAME.coro.proto) and the
 * frame's allocator pair (NAME.coro.alloc, NAME.coro.free). Written by
 * --convert-coro-to-llvm-retcon; the ramp, resume, destroy, cleanup and
 * settle names are read by --coro-split. */
#define CORO_RETCON_RAMP ".coro.ramp"
#define CORO_RETCON_RESUME ".coro.resume"
#define CORO_RETCON_DESTROY ".coro.destroy"
#define CORO_RETCON_CLEANUP ".coro.cleanup"
#define CORO_RETCON_SETTLE ".coro.settle"
#define CORO_RETCON_PROTO ".coro.proto"
#define CORO_RETCON_ALLOC ".coro.alloc"
#define CORO_RETCON_FREE ".coro.free"

/* What the async conversion names after an async coroutine NAME: the body
 * that is split (NAME.coro.async) and its async function pointer record
 * (NAME.coro.fp, which the split enlarges to the context's size); its
 * resume and destroy entries are NAME.coro.resume and NAME.coro.destroy as
 * for retcon. Written by --convert-coro-to-llvm-async; read by it (names
 * free) and, through the record, by --coro-split. */
#define CORO_ASYNC_BODY ".coro.async"
#define CORO_ASYNC_RECORD ".coro.fp"

/* The await.suspend wrappers the switch conversion adds to a module (one
 * each, shared by every coroutine): they record the continuation and
 * return the handle to run. Written and read by
 * --convert-coro-to-llvm-switch; called by LLVM's CoroSplit or
 * --coro-split. */
#define CORO_SWITCH_AWAIT_WRAPPER "__coro_switch_await"
#define CORO_SWITCH_FINAL_WRAPPER "__coro_switch_final"

/* On the device the resume, destroy and cleanup parts return the handle to
 * run next (null for none) instead of tail-calling it, and this function,
 * made by --coro-split, runs them in a loop: `void __coro_device_run(ptr
 * h)` resumes h, then what its resume returned, until null, each by a
 * direct call (split_consumers.c). */
#define CORO_DEVICE_RUN "__coro_device_run"

/* On the device, each coroutine NAME has the constant global
 * NAME_frame_size (i64; no dot, which PTX names cannot hold): the bytes
 * one of its frames takes, which a host needs to size an arena. Written by
 * --coro-split for a switch coroutine (its frame) and the retcon
 * conversion for a retcon or retcon.once one (its control block, which
 * holds the frame in its buffer); read by --coro-check-device,
 * coroFrameSize (capi/lowering.c) and coro-gpu-run. */
#define CORO_FRAME_SIZE_SUFFIX "_frame_size"

/* coro.alloc = "arena" on the device (conversion/CoroToNVVM/arena.h has
 * the layout): the globals a host sets (the buffer's address; bytes per
 * thread) and the allocator pair. Written by --convert-coro-to-nvvm; the
 * allocator's name and CORO_ARENA_RECORD are read by --coro-split (a
 * retcon frame in an arena is sized to its record), the globals by
 * coro-gpu-run and --coro-check-device. */
#define CORO_ARENA_GLOBAL "__coro_arena"
#define CORO_ARENA_SIZE_GLOBAL "__coro_arena_size"
#define CORO_ARENA_ALLOC "__coro_arena_alloc"
#define CORO_ARENA_FREE "__coro_arena_free"
/* the slice's own header: {i64 top, i64 last} */
#define CORO_ARENA_HEADER 16
/* the record before each frame, {previous top, previous last}, and the
 * alignment of every frame */
#define CORO_ARENA_RECORD 16

/* `call void @__coro_outside_frame(ptr %a)` after an alloca: the alloca
 * carried LLVM's `!coro.outside.frame` (clang's: the ramp's return slot
 * and what it reads after the coroutine may have ended), which MLIR's
 * importer drops. Written by the LLVM IR import (coroImportLLVMIR);
 * read by --coro-split (such an alloca stays in the ramp, never in the
 * frame), which erases the calls; the translation to LLVM IR turns them
 * back into the metadata for LLVM's CoroSplit, and the JIT drops them. */
#define CORO_OUTSIDE_FRAME_MARKER "__coro_outside_frame"

/*===--- predicates on the attributes above (contract.c) ------------------===*/

/* Whether `module` is marked CORO_DEVICE_ATTR. */
bool coro_module_is_device(MlirOperation module);

/* Whether `op` or a module around it says coro.route = "mlir-split". */
bool coro_route_b(MlirOperation op);

/* Adds NAME_frame_size = `size` for the coroutine `coro` at the end of
 * `module` (through `table` when it is not null); false, with an error at
 * `loc`, when that name is taken. */
bool coro_frame_size_global(MlirOperation module, MlirSymbolTable table,
                            MlirStringRef coro, uint64_t size,
                            MlirLocation loc);

#endif /* CORO_DIALECT_CONTRACT_H */
