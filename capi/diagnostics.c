/* diagnostics.c - coro-c/Diagnostics.h: locations (dialect/support.c finds
 * the file:line:col) and severity names. */
#include "coro-c/Diagnostics.h"
#include "dialect/support.h"

#include <stdlib.h>

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
