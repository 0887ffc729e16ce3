/* source.c - the input's text: reading a file or stdin, splitting it on a
 * marker line, and showing one of its lines with a caret under a column.
 *
 * A drv_source owns its text, always NUL-terminated (bytecode included: the
 * NUL is past `len`); chunks and printed lines only borrow it. Line and
 * column numbers are 1-based, and a chunk keeps the line numbers of the
 * whole file (first_line). See driver.h for the contract. */
#include "tools/common/alloc.h"
#include "tools/common/driver_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- Reading and splitting ---------------------------------------------===*/

bool drv_read_source(const char *tool, const char *path,
                     struct drv_source *out) {
  bool is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: error: could not open input file '%s': %s\n", tool,
            path, strerror(errno));
    return false;
  }
  size_t cap = 1 << 16, len = 0;
  char *data = drv_xmalloc(cap);
  for (;;) {
    if (len + 1 >= cap)
      data = drv_xrealloc(data, cap *= 2);
    size_t got = fread(data + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0)
      break;
  }
  bool failed = ferror(f);
  if (!is_stdin)
    fclose(f);
  if (failed) {
    fprintf(stderr, "%s: error: could not read input file '%s'\n", tool, path);
    free(data);
    return false;
  }
  data[len] = '\0';
  out->name = is_stdin ? "<stdin>" : path;
  out->data = data;
  out->len = len;
  return true;
}

void drv_source_free(struct drv_source *src) {
  free(src->data);
  src->data = NULL;
}

size_t drv_split(const struct drv_source *src, const char *marker,
                 struct drv_chunk **out) {
  size_t cap = 8, n = 0;
  struct drv_chunk *chunks = drv_xmalloc(cap * sizeof(*chunks));
  const char *p = src->data, *end = src->data + src->len, *start = p;
  unsigned line = 1, start_line = 1;
  size_t mlen = marker ? strlen(marker) : 0;
  while (marker && p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *next = eol ? eol + 1 : end;
    if ((size_t)(end - p) >= mlen && memcmp(p, marker, mlen) == 0) {
      if (n == cap)
        chunks = drv_xrealloc(chunks, (cap *= 2) * sizeof(*chunks));
      chunks[n++] = (struct drv_chunk){start, (size_t)(p - start), start_line};
      start = next;
      start_line = line + 1;
    }
    p = next;
    ++line;
  }
  if (n == cap)
    chunks = drv_xrealloc(chunks, (cap + 1) * sizeof(*chunks));
  chunks[n++] = (struct drv_chunk){start, (size_t)(end - start), start_line};
  *out = chunks;
  return n;
}

/*===-- A line and a caret ------------------------------------------------===*/

void drv_print_caret_line(const char *text, size_t text_len, unsigned line,
                          unsigned col) {
  if (!text || !line || !col)
    return;
  const char *p = text, *end = p + text_len;
  for (unsigned l = 1; l < line && p < end; ++l) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    p = eol ? eol + 1 : end;
  }
  if (p >= end)
    return;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  size_t len = (size_t)((eol ? eol : end) - p);
  if (len && p[len - 1] == '\r')
    --len;
  unsigned width = 0, caret = 0;
  for (size_t i = 0; i < len; ++i) {
    if (i + 1 == col)
      caret = width;
    unsigned char c = (unsigned char)p[i];
    unsigned n = c == '\t' ? 8 - width % 8 : 1;
    for (unsigned k = 0; k < n; ++k)
      fputc(c == '\t' || c < 0x20 || c == 0x7f ? ' ' : c, stderr);
    width += n;
  }
  if (col > len)
    caret = width + (unsigned)(col - 1 - len);
  fputc('\n', stderr);
  fprintf(stderr, "%*s^\n", (int)caret, "");
}
