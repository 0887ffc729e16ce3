/* alloc.c - allocation for the coro tools: report and stop when memory runs
 * out. See alloc.h for the contract. */
#include "tools/common/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tools are single programs: the name they report under is process state,
 * set once before any work starts. */
static const char *tool_name = "coro";

void drv_set_tool_name(const char *tool) { tool_name = tool; }

const char *drv_tool_name(void) { return tool_name; }

_Noreturn void drv_out_of_memory(void) {
  /* No formatting: fputs on unbuffered stderr allocates nothing. */
  fputs(tool_name, stderr);
  fputs(": error: out of memory\n", stderr);
  fflush(stderr);
  fflush(stdout);
  _Exit(1);
}

void *drv_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    drv_out_of_memory();
  return p;
}

void *drv_xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    drv_out_of_memory();
  return p;
}

void *drv_xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q)
    drv_out_of_memory();
  return q;
}

char *drv_xdup_n(const char *data, size_t len) {
  if (len == (size_t)-1)
    drv_out_of_memory();
  char *s = drv_xmalloc(len + 1);
  if (len) /* `data` may be null for no bytes, undefined for memcpy */
    memcpy(s, data, len);
  s[len] = '\0';
  return s;
}
