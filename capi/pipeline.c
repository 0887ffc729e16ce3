/* pipeline.c - the lowering order of every route, in one place.
 *
 * Route A (CoroRouteLLVM), straight down:
 *   coro-verify                   the dialect's rules, before anything else
 *   [coro-misuse-checks]          the checked mode, when asked for
 *   lower-affine, convert-scf-to-cf  suspensions must sit in a CFG to be
 *                                 split (affine.for/if and scf regions)
 *   coro-elide                    which calls' frames live in their
 *                                 caller (unless no_elide); route B acts on
 *                                 it, route A leaves it to LLVM
 *   convert-vector-to-llvm        before the next: it merges blocks
 *   convert-coro-to-llvm-<abi>    one conversion per ABI (coro_abi_rows):
 *                                 coroutines get LLVM's coroutine intrinsics
 *   finalize-memref-to-llvm, convert-index-to-llvm,
 *   convert-arith-to-llvm, convert-cf-to-llvm, convert-func-to-llvm,
 *   reconcile-unrealized-casts    everything else to the LLVM dialect
 *   coro-check-lowered            a coroutine of an ABI left out is an error
 * then, outside MLIR, LLVM's CoroEarly/CoroSplit/CoroElide/CoroCleanup
 * (coroTranslateToLLVMIR, the JIT).
 *
 * Route B (CoroRouteMLIRSplit) is route A followed by coro's own
 *   coro-split                    ramp/resume/destroy/cleanup and an
 *                                 explicit frame, in MLIR (transforms/)
 * so LLVM's coroutine passes find nothing left to do.
 * Options (CoroLowerOptions): coro-misuse-checks after coro-verify (the
 * checked mode); coro-debug-info before any split (-g).
 * Adding an ABI is one row of coro_abi_rows (and its pass row in
 * passes.c). */
#include "capi/pipeline.h"

#include <stddef.h>

const struct coro_abi_row coro_abi_rows[] = {
    {"switch", "convert-coro-to-llvm-switch", "coro-lower-switch"},
    {"retcon", "convert-coro-to-llvm-retcon", "coro-lower-retcon"},
    {"retcon.once", "convert-coro-to-llvm-retcon-once",
     "coro-lower-retcon-once"},
    {"async", "convert-coro-to-llvm-async", "coro-lower-async"},
    {NULL, NULL, NULL}};

const struct coro_abi_row *coro_abi_row_find(MlirStringRef abi) {
  for (const struct coro_abi_row *r = coro_abi_rows; r->abi; ++r)
    if (coro_ref_eq(abi, r->abi))
      return r;
  return NULL;
}

static void add(struct coro_str *out, const char *pass) {
  if (out->len)
    coro_str_appendz(out, ",");
  coro_str_appendz(out, pass);
}

bool coro_pipeline_route(struct coro_str *out, const CoroLowerOptions *opts,
                         const struct coro_abi_row *only) {
  CoroRoute route = opts->route;
  if (route != CoroRouteLLVM && route != CoroRouteMLIRSplit)
    return false;
  add(out, "coro-verify");
  if (opts->checked)
    add(out, "coro-misuse-checks");
  /* A suspension may sit in affine.for/if (coro-verify allows it): affine
   * to scf, then scf to cf, so that it sits in a CFG. */
  add(out, "lower-affine");
  add(out, "convert-scf-to-cf");
  /* on the coro dialect, where handles are typed, and after scf-to-cf so
   * that "destroyed on every path" sees every path as a CFG edge */
  if (!opts->no_elide)
    add(out, "coro-elide");
  /* Before the coroutine conversions: its greedy driver merges identical
   * blocks, and two resume blocks that differ only in a memref they use
   * would become one block with a memref argument on the llvm.switch the
   * conversions emit, which no later conversion retypes. */
  add(out, "convert-vector-to-llvm");
  for (const struct coro_abi_row *r = coro_abi_rows; r->abi; ++r)
    if (!only || only == r)
      add(out, r->conversion);
  add(out, "finalize-memref-to-llvm");
  add(out, "convert-index-to-llvm");
  add(out, "convert-arith-to-llvm");
  add(out, "convert-cf-to-llvm");
  add(out, "convert-func-to-llvm");
  add(out, "reconcile-unrealized-casts");
  add(out, "coro-check-lowered");
  /* before the split: coro-split derives its clones' subprograms and
   * describes the frame, as LLVM's CoroSplit does under route A */
  if (opts->debug_info)
    add(out, "coro-debug-info");
  if (route == CoroRouteMLIRSplit)
    add(out, "coro-split");
  return true;
}

void coro_pipeline_nvvm(struct coro_str *out) {
  static const char *const passes[] = {
      "coro-verify", "lower-affine", "convert-scf-to-cf",
      /* frames in their callers, checked for the device before lowering */
      "coro-elide", "convert-coro-to-nvvm", "convert-vector-to-llvm",
      "convert-coro-to-llvm-switch", "finalize-memref-to-llvm",
      "convert-index-to-llvm", "convert-arith-to-llvm", "convert-cf-to-llvm",
      "convert-func-to-llvm", "reconcile-unrealized-casts",
      "coro-check-lowered",
      /* route B: the split knows every frame size and calls parts directly */
      "coro-split",
      /* what no kernel reaches goes; what is left is checked */
      "coro-check-device"};
  for (size_t i = 0; i < sizeof passes / sizeof passes[0]; ++i)
    add(out, passes[i]);
}
