/* alloc.h - the coro tools' one out-of-memory policy.
 *
 * Every allocation in tools/ goes through these functions, which never
 * return NULL: when memory runs out they print "<tool>: error: out of
 * memory" to stderr and end the process with status 1 (drv_out_of_memory).
 * No caller checks for NULL, and no allocation failure is silently dropped
 * or mistaken for a failure of the input.
 *
 * The tool's name is process state, set once at the start of main
 * (drv_set_tool_name; drv_install_fatal_error_handler sets it too) and
 * "coro" until then. Plain C and libc only, so that the tools that do not
 * use MLIR (coro-progen, coro-gpu-run) share the policy. Library code never
 * uses this: it reports and returns (see ../shared/STYLE.md). */
#ifndef CORO_TOOLS_ALLOC_H
#define CORO_TOOLS_ALLOC_H

#include <stddef.h>

/* Names the tool in the out-of-memory message (and LLVM's fatal errors).
 * `tool` must outlive the process (a string literal). */
void drv_set_tool_name(const char *tool);
/* The name set by drv_set_tool_name; "coro" before any. */
const char *drv_tool_name(void);

/* Prints "<tool>: error: out of memory" to stderr, flushes stdout and ends
 * the process with status 1 (_Exit: no atexit handler or static destructor
 * runs, as for LLVM's fatal errors, and it is safe in a forked child). */
_Noreturn void drv_out_of_memory(void);

/* malloc, calloc and realloc that never return NULL (a size of 0 still
 * gives a unique pointer, owned by the caller). */
void *drv_xmalloc(size_t size);
void *drv_xcalloc(size_t count, size_t size);
void *drv_xrealloc(void *p, size_t size);
/* A NUL-terminated copy of the `len` bytes at `data` (owned by the caller;
 * `data` need not be NUL-terminated, e.g. an MlirStringRef's). */
char *drv_xdup_n(const char *data, size_t len);

#endif /* CORO_TOOLS_ALLOC_H */
