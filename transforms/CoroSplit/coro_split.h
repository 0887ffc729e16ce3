/* coro_split.h - --coro-split, coro's own coroutine split (route B).
 *
 * coro_split_run splits every presplit coroutine of the module, of any
 * ABI (coro_split.c and the rest of transforms/CoroSplit/), and then lowers the consumer intrinsics of every function
 * (split_consumers.c). Errors are located diagnostics; the module may be
 * partly rewritten after a failure. */
#ifndef CORO_TRANSFORMS_CORO_SPLIT_H
#define CORO_TRANSFORMS_CORO_SPLIT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

/* A unit attribute on an i1 llvm.alloca of a coroutine (the switch
 * conversion's destroy flag): the flag is stored true only on a destroy
 * path, which never suspends again, so the split reads it as false in the
 * ramp and in NAME.resume, where no destroy path runs. That leaves no
 * free(frame) in NAME.resume behind a flag LLVM cannot see through, which
 * would keep an elided frame from being promoted to registers. */
#define CORO_DESTROY_FLAG_ATTR "coro.destroy_flag"

/* A flat symbol reference on an indirect llvm.call: the callee is one of
 * the continuations of that retcon or retcon.once ramp (the retcon
 * conversion marks the calls of its resume and destroy entries). Once
 * --coro-split has made the continuations, such a call tests the callee
 * against each (up to CORO_DIRECT_CONTINUATIONS of them; the last needs no
 * test) and calls the one it is directly, which LLVM can inline, with its
 * own copy of what follows the call. A coroutine with more continuations
 * keeps the indirect call. */
#define CORO_CONTINUATION_OF_ATTR "coro.continuation_of"
#define CORO_DIRECT_CONTINUATIONS 4

/* What the retcon conversion names after a retcon or retcon.once coroutine
 * NAME, which the split reads: the body it splits (NAME.coro.ramp), and the
 * control block's resume and destroy entries (NAME.coro.resume,
 * NAME.coro.destroy; NAME.coro.cleanup for a block in its caller's memory,
 * which frees nothing). */
#define CORO_RETCON_RAMP ".coro.ramp"
#define CORO_RETCON_RESUME ".coro.resume"
#define CORO_RETCON_DESTROY ".coro.destroy"
#define CORO_RETCON_CLEANUP ".coro.cleanup"

/* The body NAME.coro.ramp of the retcon or retcon.once coroutine `name`
 * in `table` (split or not yet), or null. */
MlirOperation coro_retcon_body(MlirSymbolTable table, MlirStringRef name);
/* When `callee` is a function that makes a retcon coroutine's handle,
 * NAME or NAME.elided (the control block in its caller's memory): that
 * coroutine's body (coro_retcon_body of NAME), with NAME in `*name` and
 * whether it was NAME.elided in `*elided`; null otherwise. */
MlirOperation coro_retcon_maker(MlirSymbolTable table, MlirStringRef callee,
                                MlirStringRef *name, bool *elided);

/* On the device (a module marked coro.device) the resume, destroy and
 * cleanup parts return the handle to run next (null for none) instead of
 * tail-calling it, and this function, made by the split, runs them in a
 * loop: `void __coro_device_run(ptr h)` resumes h, then what its resume
 * returned, until null, each by a direct call (split_consumers.c). */
#define CORO_DEVICE_RUN "__coro_device_run"

/* On the device, each coroutine NAME has the constant global
 * NAME_frame_size (i64; no dot, which PTX names cannot hold): the bytes
 * one of its frames takes (coroFrameSize), which a host needs to size an
 * arena. The split adds it for a switch coroutine (its frame), the retcon
 * conversion for a retcon or retcon.once one (its control block, which
 * holds the frame in its buffer). */
#define CORO_FRAME_SIZE_SUFFIX "_frame_size"

/* Adds NAME_frame_size = `size` for the coroutine `coro` at the end of
 * `module` (through `table` when it is not null); false, with an error at
 * `loc`, when that name is taken. */
bool coro_frame_size_global(MlirOperation module, MlirSymbolTable table,
                            MlirStringRef coro, uint64_t size,
                            MlirLocation loc);

/* The pass, run on a builtin.module. */
MlirLogicalResult coro_split_run(MlirOperation module);

/* Whether the llvm.func `fn` has `what` in its passthrough attribute. */
bool coro_split_passthrough_has(MlirOperation fn, const char *what);

#endif /* CORO_TRANSFORMS_CORO_SPLIT_H */
