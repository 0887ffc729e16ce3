/* driver_internal.h - what the files of tools/common share and the tools do
 * not see (the tools include driver.h).
 *
 * source.c prints a line of the input with a caret; diagnostics.c decides
 * which file a diagnostic's location names and whether that file is the
 * input whose line is shown. verify_diagnostics.c reports mismatches with
 * both. Nothing here allocates or keeps a pointer it is given. */
#ifndef CORO_TOOLS_DRIVER_INTERNAL_H
#define CORO_TOOLS_DRIVER_INTERNAL_H

#include "tools/common/driver.h"

/* Prints to stderr, as LLVM's SourceMgr does, line `line` of `text` (`text_len`
 * bytes) and a caret under column `col` (both 1-based); nothing when either
 * is 0 or the line does not exist. Tabs expand to the next multiple of 8 in
 * both lines; other control bytes print as blanks. (source.c) */
void drv_print_caret_line(const char *text, size_t text_len, unsigned line,
                          unsigned col);

/* The file a location names: `file`, or `input` when `file` is NULL, empty
 * or "-" (locations parsed from a nameless buffer carry an empty name, and
 * MLIR's implicit-module parser "-"). Borrowed. (diagnostics.c) */
const char *drv_input_file(const char *file, const char *input);

/* drv_print_caret_line on the input's text that `diags` holds, when `file`
 * is the input's name (diags->file_name) and the text is known (not for
 * bytecode). (diagnostics.c) */
void drv_diags_print_source_line(const struct drv_diags *diags,
                                 const char *file, unsigned line, unsigned col);

/* Appends a diagnostic to `diags`: `d`'s strings are copied, its parent
 * index taken as it is. (diagnostics.c) */
void drv_diags_push(struct drv_diags *diags, const struct drv_diag *d);

#endif /* CORO_TOOLS_DRIVER_INTERNAL_H */
