/* pipelines.h - the parts every whole-chain lowering shares (the named
 * pipelines coro-lower-<abi> in passes.c, and coroLowerToLLVMDialect in
 * lowering.c): what runs before the ABI conversions, and the upstream
 * conversions to the LLVM dialect after them. Private to the library. */
#ifndef CORO_CAPI_PIPELINES_H
#define CORO_CAPI_PIPELINES_H

/* Verify, then put scf in CFG form so that suspensions can be split. */
#define CORO_PIPELINE_HEAD "coro-verify,convert-scf-to-cf,"

/* Everything else to the LLVM dialect. */
#define CORO_PIPELINE_TAIL                                                     \
  "convert-vector-to-llvm,finalize-memref-to-llvm,convert-index-to-llvm,"      \
  "convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"             \
  "reconcile-unrealized-casts"

#endif /* CORO_CAPI_PIPELINES_H */
