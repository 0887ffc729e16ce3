/* convert_coro_to_nvvm.h - the GPU path's rules (see convert_coro_to_nvvm.c).
 *
 * Invariant: after convert-coro-to-nvvm succeeds, every coroutine of the
 * module is a switch coroutine whose every call is elided (its frame lives
 * in its caller, so no frame needs device malloc), no call is indirect, and the
 * module is marked coro.device (coro-split then dispatches every resume and
 * destroy by direct calls). */
#ifndef CORO_CONVERSION_CORO_TO_NVVM_H
#define CORO_CONVERSION_CORO_TO_NVVM_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* The pass: checks the device's rules on the coro dialect (after
 * coro-elide), marks the kernels and the module. Located errors for
 * everything the device path cannot run. */
MlirLogicalResult coro_convert_to_nvvm_run(MlirOperation module);

/* The last step of coro-lower-nvvm: no call of an allocator and no
 * indirect call is left in a module marked coro.device (a located error at
 * each); the kernels (llvm.funcs with gpu.kernel) get nvvm.kernel and the
 * module the NVPTX target triple. */
MlirLogicalResult coro_check_device_run(MlirOperation module);

#endif /* CORO_CONVERSION_CORO_TO_NVVM_H */
