/* driver.c - input, splitting, parsing and diagnostics for the coro tools.
 * See driver.h for the contract. */
#include "tools/common/driver.h"

#include "coro-c/Diagnostics.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_n(const char *data, size_t len) {
  char *s = malloc(len + 1);
  if (!s)
    return NULL;
  memcpy(s, data, len);
  s[len] = '\0';
  return s;
}

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
  char *data = malloc(cap);
  while (data) {
    if (len + 1 >= cap) {
      char *grown = realloc(data, cap * 2);
      if (!grown) {
        free(data);
        data = NULL;
        break;
      }
      data = grown;
      cap *= 2;
    }
    size_t got = fread(data + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0)
      break;
  }
  bool failed = !data || ferror(f);
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
  struct drv_chunk *chunks = malloc(cap * sizeof(*chunks));
  const char *p = src->data, *end = src->data + src->len, *start = p;
  unsigned line = 1, start_line = 1;
  size_t mlen = marker ? strlen(marker) : 0;
  while (marker && p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *next = eol ? eol + 1 : end;
    if ((size_t)(end - p) >= mlen && memcmp(p, marker, mlen) == 0) {
      if (n == cap)
        chunks = realloc(chunks, (cap *= 2) * sizeof(*chunks));
      chunks[n++] = (struct drv_chunk){start, (size_t)(p - start), start_line};
      start = next;
      start_line = line + 1;
    }
    p = next;
    ++line;
  }
  if (n == cap)
    chunks = realloc(chunks, (cap + 1) * sizeof(*chunks));
  chunks[n++] = (struct drv_chunk){start, (size_t)(end - start), start_line};
  *out = chunks;
  return n;
}

/*===-- Diagnostics -------------------------------------------------------===*/

static void collect(MlirStringRef ref, void *user) {
  struct {
    char *data;
    size_t len;
  } *s = user;
  char *grown = realloc(s->data, s->len + ref.length + 1);
  if (!grown)
    return;
  s->data = grown;
  memcpy(s->data + s->len, ref.data, ref.length);
  s->len += ref.length;
  s->data[s->len] = '\0';
}

static void record(struct drv_diags *diags, MlirDiagnostic diag) {
  if (diags->count == diags->cap) {
    size_t cap = diags->cap ? diags->cap * 2 : 16;
    struct drv_diag *grown = realloc(diags->items, cap * sizeof(*grown));
    if (!grown)
      return;
    diags->items = grown;
    diags->cap = cap;
  }
  struct drv_diag *d = &diags->items[diags->count++];
  memset(d, 0, sizeof(*d));
  d->severity = mlirDiagnosticGetSeverity(diag);
  MlirStringRef file;
  if (coroLocationGetFileLineCol(mlirDiagnosticGetLocation(diag), &file,
                                 &d->line, &d->col))
    d->file = dup_n(file.data, file.length);
  struct {
    char *data;
    size_t len;
  } msg = {NULL, 0};
  mlirDiagnosticPrint(diag, collect, &msg);
  d->message = msg.data ? msg.data : dup_n("", 0);
  intptr_t notes = mlirDiagnosticGetNumNotes(diag);
  for (intptr_t i = 0; i < notes; ++i)
    record(diags, mlirDiagnosticGetNote(diag, i));
}

static MlirLogicalResult handle(MlirDiagnostic diag, void *user) {
  record(user, diag);
  return mlirLogicalResultSuccess();
}

MlirDiagnosticHandlerID drv_diags_attach(MlirContext ctx,
                                         struct drv_diags *diags) {
  return mlirContextAttachDiagnosticHandler(ctx, handle, diags, NULL);
}

/* Locations parsed from a nameless buffer carry an empty file name: they are
 * the input's. */
static const char *file_of(const struct drv_diags *diags,
                           const struct drv_diag *d) {
  return d->file && d->file[0] ? d->file : diags->file_name;
}

void drv_diags_print(struct drv_diags *diags) {
  for (size_t i = 0; i < diags->count; ++i) {
    const struct drv_diag *d = &diags->items[i];
    const char *sev = coroDiagnosticSeverityName(d->severity);
    if (d->file)
      fprintf(stderr, "%s:%u:%u: %s: %s\n", file_of(diags, d), d->line, d->col,
              sev, d->message);
    else
      fprintf(stderr, "%s: %s: %s\n", diags->file_name, sev, d->message);
  }
  fflush(stderr);
  drv_diags_clear(diags);
}

void drv_diags_clear(struct drv_diags *diags) {
  for (size_t i = 0; i < diags->count; ++i) {
    free(diags->items[i].file);
    free(diags->items[i].message);
  }
  diags->count = 0;
}

bool drv_diags_has_errors(const struct drv_diags *diags) {
  for (size_t i = 0; i < diags->count; ++i)
    if (diags->items[i].severity == MlirDiagnosticError)
      return true;
  return false;
}

/*===-- Parsing -----------------------------------------------------------===*/

/* Finds the first bracket nested deeper than DRV_MAX_NESTING, skipping
 * string literals and comments. Returns false and sets line/col if found. */
static bool nesting_ok(const struct drv_chunk *chunk, unsigned *line,
                       unsigned *col) {
  const char *p = chunk->text, *end = p + chunk->len;
  unsigned depth = 0, ln = chunk->first_line, cl = 1;
  for (; p < end; ++p, ++cl) {
    char c = *p;
    if (c == '\n') {
      ++ln;
      cl = 0;
    } else if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p + 1 < end && p[1] != '\n')
        ++p;
    } else if (c == '"') {
      while (p + 1 < end && p[1] != '"' && p[1] != '\n') {
        if (p[1] == '\\' && p + 2 < end)
          ++p, ++cl;
        ++p, ++cl;
      }
      if (p + 1 < end && p[1] == '"')
        ++p, ++cl;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > DRV_MAX_NESTING) {
        *line = ln;
        *col = cl;
        return false;
      }
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && !(p > chunk->text && p[-1] == '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return true;
}

/* The chunk as its own buffer, preceded by newlines so that its lines keep
 * their numbers in the whole file. Owned by the caller. */
static char *padded_text(const struct drv_chunk *chunk, size_t *len) {
  size_t pad = chunk->first_line - 1;
  char *text = malloc(pad + chunk->len + 1);
  memset(text, '\n', pad);
  memcpy(text + pad, chunk->text, chunk->len);
  text[pad + chunk->len] = '\0';
  *len = pad + chunk->len;
  return text;
}

static bool is_module(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length == 14 && memcmp(name.data, "builtin.module", 14) == 0;
}

MlirModule drv_parse(MlirContext ctx, const char *name,
                     const struct drv_chunk *chunk, struct drv_diags *diags) {
  unsigned line, col;
  if (!nesting_ok(chunk, &line, &col)) {
    MlirLocation loc = mlirLocationFileLineColGet(
        ctx, mlirStringRefCreateFromCString(name), line, col);
    char msg[128];
    snprintf(msg, sizeof(msg), "nesting deeper than %d levels is not supported",
             DRV_MAX_NESTING);
    mlirEmitError(loc, msg);
    return (MlirModule){NULL};
  }
  size_t len;
  char *text = padded_text(chunk, &len);
  MlirStringRef source = mlirStringRefCreate(text, len);

  /* A single top-level module parses with the file's name in its
   * locations; anything else goes through the implicit-module parser. */
  size_t before = diags->count;
  MlirOperation op = mlirOperationCreateParse(
      ctx, source, mlirStringRefCreateFromCString(name));
  if (!mlirOperationIsNull(op) && is_module(op)) {
    free(text);
    return mlirModuleFromOperation(op);
  }
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  bool single_op_rule = false;
  for (size_t i = before; i < diags->count; ++i)
    single_op_rule |= strstr(diags->items[i].message,
                             "source must contain a single top-level "
                             "operation") != NULL;
  if (!mlirOperationIsNull(op) || single_op_rule) {
    /* Drop the first attempt's diagnostics: the second parse is the one. */
    while (diags->count > before) {
      struct drv_diag *d = &diags->items[--diags->count];
      free(d->file);
      free(d->message);
    }
    MlirModule module = mlirModuleCreateParse(ctx, source);
    free(text);
    return module;
  }
  free(text);
  return (MlirModule){NULL};
}

/*===-- --verify-diagnostics ----------------------------------------------===*/

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
  struct expectation *expected = malloc(cap * sizeof(*expected));
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
        ok = false;
        break;
      }
      if (n == cap)
        expected = realloc(expected, (cap *= 2) * sizeof(*expected));
      expected[n++] = e;
      break;
    }
    p = eol + 1;
  }

  for (size_t i = 0; i < diags->count; ++i) {
    const struct drv_diag *d = &diags->items[i];
    unsigned want_line = d->file ? d->line : 0;
    bool found = false;
    for (size_t j = 0; j < n && !found; ++j) {
      struct expectation *e = &expected[j];
      if (!e->matched && e->severity == d->severity && e->line == want_line &&
          contains(d->message, e->text, e->len))
        found = e->matched = true;
    }
    if (!found) {
      ok = false;
      const char *sev = coroDiagnosticSeverityName(d->severity);
      if (d->file)
        fprintf(stderr, "%s:%u:%u: error: unexpected %s: %s\n",
                d->file[0] ? d->file : name, d->line, d->col, sev,
                d->message);
      else
        fprintf(stderr, "%s: error: unexpected %s: %s\n", name, sev,
                d->message);
    }
  }
  for (size_t j = 0; j < n; ++j) {
    if (expected[j].matched)
      continue;
    ok = false;
    fprintf(stderr, "%s:%u:%u: error: expected %s \"%.*s\" was not produced\n",
            name, expected[j].at_line, expected[j].at_col,
            coroDiagnosticSeverityName(expected[j].severity),
            (int)expected[j].len, expected[j].text);
  }
  free(expected);
  return ok;
}
