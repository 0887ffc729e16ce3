/* presplit.h - LLVM's function simplification before coro's own split
 * (capi/presplit.c). Private to the library. */
#ifndef CORO_CAPI_PRESPLIT_H
#define CORO_CAPI_PRESPLIT_H

#include "mlir-c/IR.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Types.h"

#include <stdbool.h>

/* Runs LLVM's pre-split simplification (with `tm`'s costs) over `module`,
 * a module of the LLVM dialect whose coroutines are not split yet (the
 * conversions' output), and puts the result back in `module`, with what
 * LLVM IR cannot carry (the module's and the functions' attributes,
 * coro's marks on calls) restored. A module that LLVM IR cannot express
 * before the split, or that MLIR's importer cannot read back, is left as
 * it was, quietly: the split takes it unoptimised. False after an error,
 * a diagnostic on the module (a symbol named like a marker). */
bool coro_presplit_optimize(MlirModule module, LLVMTargetMachineRef tm);

/* LLVM's pre-split simplification, as a pass pipeline: the passes
 * LLVM's default<O2> runs on a function before its CoroSplit (module
 * passes first, then the inliner and each function's simplification).
 * Also run once more after the split on the device (coroTranslateForDevice
 * at -O2 and -O3), as LLVM's CGSCC pipeline revisits a coroutine's callers
 * after splitting it: with the parts inlined, indvars and the loop
 * passes see the consumer's loop whole (a generator's sum gets its closed
 * form). */
extern const char coro_presplit_pipeline[];

/* Gives `m` the triple and data layout of `tm` and runs the LLVM pass
 * pipeline `passes` on it (none when null); false after an error at the
 * module (capi/translate.c). */
bool coro_target_and_run(MlirModule module, LLVMModuleRef m,
                         LLVMTargetMachineRef tm, const char *passes);

/* mlirTranslateModuleToLLVMIR of `op` into `llctx` under `tm`'s data
 * layout (capi/translate.c). The translation gives a load or store without
 * an alignment its type's ABI alignment in the module's data layout, and
 * LLVM's default one aligns i64 and f64 at 4 bytes: on NVPTX every such
 * access became two 32-bit ones. `op` keeps its own `llvm.data_layout` or
 * `dlti.dl_spec` when it has one, and is left as it was. NULL after an
 * error, which the translation reported. */
LLVMModuleRef coro_translate_for_target(MlirOperation op, LLVMContextRef llctx,
                                        LLVMTargetMachineRef tm);

/* The host's target machine at `opt_level` (PIC), or NULL after an error
 * at the module (capi/translate.c). */
LLVMTargetMachineRef coro_host_machine(MlirModule module, int opt_level);

/* The NVPTX target machine for `cpu` at `opt_level` (capi/translate.c), or
 * NULL after an error at the module. */
LLVMTargetMachineRef coro_nvptx_machine(MlirModule module, int opt_level,
                                        const char *cpu);

#endif /* CORO_CAPI_PRESPLIT_H */
