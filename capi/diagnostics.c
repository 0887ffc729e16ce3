/* diagnostics.c - coro-c/Diagnostics.h: locations (dialect/support.c finds
 * the file:line:col) and severity names. */
#include "coro-c/Diagnostics.h"
#include "ir/support.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool coroLocationGetFileLineCol(MlirLocation loc, MlirStringRef *file,
                                unsigned *line, unsigned *col) {
  return coro_location_file_line_col(loc, file, line, col);
}

const char *coroDiagnosticSeverityName(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "error";
}

static bool ident_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* Whether text[i] starts an op name: first on its line or after `=`. */
static bool op_position(const char *text, size_t i) {
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t'))
    --i;
  return i == 0 || text[i - 1] == '\n' || text[i - 1] == '=';
}

void coroEmitSilentParseFailure(MlirContext ctx, MlirStringRef source,
                                MlirStringRef sourceName) {
  MlirStringRef file = sourceName;
  const char *text = source.data;
  size_t len = source.length;
  unsigned line = 1, col = 1;
  bool in_string = false;
  for (size_t i = 0; i < len; ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line, col = 1, in_string = false;
      continue;
    }
    if (in_string) {
      if (c == '\\' && i + 1 < len)
        ++i, ++col;
      else if (c == '"')
        in_string = false;
      ++col;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
      while (i + 1 < len && text[i + 1] != '\n')
        ++i;
      continue;
    } else if (strncmp(text + i, "coro.", 5) == 0 && op_position(text, i)) {
      size_t n = 5;
      while (i + n < len && ident_char(text[i + n]))
        ++n;
      size_t k = i + n;
      while (k < len && (text[k] == ' ' || text[k] == '\t'))
        ++k;
      if (k < len && text[k] == '=') { /* an attribute name */
        ++col;
        continue;
      }
      char msg[256];
      snprintf(msg, sizeof(msg),
               "custom assembly form of '%.*s' is not supported: coro ops "
               "are written in the generic form, \"%.*s\"(operands) : "
               "(types) -> results",
               (int)n, text + i, (int)n, text + i);
      mlirEmitError(mlirLocationFileLineColGet(ctx, file, line, col), msg);
      return;
    }
    ++col;
  }
  mlirEmitError(mlirLocationFileLineColGet(ctx, file, 1, 1),
                "the input could not be parsed");
}
