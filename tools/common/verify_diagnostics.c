/* verify_diagnostics.c - mlir-opt's --verify-diagnostics for one chunk.
 *
 * The chunk's `expected-<severity>[@<where>] {{text}}` annotations (the
 * first on a line) are matched against the diagnostics collected for it:
 * same severity, same line (none for @unknown), message containing the
 * text; an annotation matches one diagnostic. MLIR's "see current
 * operation" note of an expected diagnostic needs no annotation. Every
 * diagnostic not expected, annotation not produced and malformed annotation
 * is printed to stderr as an error, with its source line and a caret. Only
 * borrows the chunk and the diagnostics (the annotations point into the
 * chunk's text). See driver.h for the contract. */
#include "tools/common/alloc.h"
#include "tools/common/driver_internal.h"

#include "coro-c/Diagnostics.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expectation {
  MlirDiagnosticSeverity severity;
  unsigned line;    /* 0 for @unknown */
  unsigned at_line; /* where the annotation is written */
  unsigned at_col;
  const char *text;
  size_t len;
  bool matched;
};

static bool parse_severity(const char **p, MlirDiagnosticSeverity *sev) {
  static const struct {
    const char *word;
    MlirDiagnosticSeverity sev;
  } kinds[] = {{"error", MlirDiagnosticError},
               {"warning", MlirDiagnosticWarning},
               {"note", MlirDiagnosticNote},
               {"remark", MlirDiagnosticRemark}};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    size_t n = strlen(kinds[i].word);
    if (strncmp(*p, kinds[i].word, n) == 0) {
      *p += n;
      *sev = kinds[i].sev;
      return true;
    }
  }
  return false;
}

/* Parses the annotation starting right after "expected-" on line `line`
 * (which ends at `eol`). Returns false if it is not well-formed. */
static bool parse_expectation(const char *p, const char *eol, unsigned line,
                              struct expectation *e) {
  if (!parse_severity(&p, &e->severity))
    return false;
  e->line = line;
  /* Like mlir-opt: blanks may stand between the severity and its '@'. */
  while (p < eol && (*p == ' ' || *p == '\t'))
    ++p;
  if (p < eol && *p == '@') {
    ++p;
    if (strncmp(p, "above", 5) == 0) {
      e->line = line - 1;
      p += 5;
    } else if (strncmp(p, "below", 5) == 0) {
      e->line = line + 1;
      p += 5;
    } else if (strncmp(p, "unknown", 7) == 0) {
      e->line = 0;
      p += 7;
    } else if (*p == '+' || *p == '-') {
      char sign = *p++;
      if (p >= eol || !isdigit((unsigned char)*p))
        return false;
      long off = strtol(p, (char **)&p, 10);
      e->line = sign == '+' ? line + (unsigned)off : line - (unsigned)off;
    } else {
      return false;
    }
  }
  while (p < eol && (*p == ' ' || *p == '\t'))
    ++p;
  if (eol - p < 4 || p[0] != '{' || p[1] != '{')
    return false;
  p += 2;
  const char *close = p;
  while (close + 1 < eol && !(close[0] == '}' && close[1] == '}'))
    ++close;
  if (close + 1 >= eol)
    return false;
  e->text = p;
  e->len = (size_t)(close - p);
  return true;
}

static bool contains(const char *hay, const char *needle, size_t len) {
  if (len == 0)
    return true;
  for (const char *p = hay; *p; ++p)
    if (strncmp(p, needle, len) == 0)
      return true;
  return false;
}

bool drv_verify_expected(const char *name, const struct drv_chunk *chunk,
                         const struct drv_diags *diags) {
  size_t cap = 16, n = 0;
  struct expectation *expected = drv_xmalloc(cap * sizeof(*expected));
  bool ok = true;
  const char *p = chunk->text, *end = p + chunk->len;
  for (unsigned line = chunk->first_line; p < end; ++line) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    for (const char *q = p; q + 9 <= eol; ++q) {
      if (memcmp(q, "expected-", 9) != 0)
        continue;
      struct expectation e = {0};
      e.at_line = line;
      e.at_col = (unsigned)(q - p) + 1;
      if (!parse_expectation(q + 9, eol, line, &e)) {
        fprintf(stderr,
                "%s:%u:%u: error: malformed expected-* annotation (want "
                "'expected-error[@+N|@-N|@above|@below|@unknown] {{text}}')\n",
                name, line, e.at_col);
        drv_diags_print_source_line(diags, name, line, e.at_col);
        ok = false;
        break;
      }
      if (n == cap)
        expected = drv_xrealloc(expected, (cap *= 2) * sizeof(*expected));
      expected[n++] = e;
      break;
    }
    p = eol + 1;
  }

  /* found[i]: whether diagnostic i matched an annotation. */
  bool *found = drv_xcalloc(diags->count, sizeof(*found));
  for (size_t i = 0; i < diags->count; ++i) {
    const struct drv_diag *d = &diags->items[i];
    unsigned want_line = d->file ? d->line : 0;
    bool hit = false;
    for (size_t j = 0; j < n && !hit; ++j) {
      struct expectation *e = &expected[j];
      if (!e->matched && e->severity == d->severity && e->line == want_line &&
          contains(d->message, e->text, e->len))
        hit = e->matched = true;
    }
    found[i] = hit;
    /* The op note and call sites of an expected diagnostic need no
     * annotation (mlir-opt prints call sites, it does not verify them). */
    if (hit ||
        ((d->op_note || d->call_note) && d->parent >= 0 && found[d->parent]))
      continue;
    ok = false;
    const char *sev = coroDiagnosticSeverityName(d->severity);
    if (d->file) {
      const char *file = drv_input_file(d->file, name);
      fprintf(stderr, "%s:%u:%u: error: unexpected %s: %s\n", file, d->line,
              d->col, sev, d->message);
      drv_diags_print_source_line(diags, file, d->line, d->col);
    } else {
      fprintf(stderr, "%s: error: unexpected %s: %s\n", name, sev, d->message);
    }
  }
  free(found);
  for (size_t j = 0; j < n; ++j) {
    if (expected[j].matched)
      continue;
    ok = false;
    fprintf(stderr, "%s:%u:%u: error: expected %s \"%.*s\" was not produced\n",
            name, expected[j].at_line, expected[j].at_col,
            coroDiagnosticSeverityName(expected[j].severity),
            (int)expected[j].len, expected[j].text);
    drv_diags_print_source_line(diags, name, expected[j].at_line,
                                expected[j].at_col);
  }
  free(expected);
  return ok;
}
