/* diagnostics.c - finding a file:line:col in any MLIR location. */
#include "coro-c/Diagnostics.h"

#include <stdlib.h>

bool coroLocationGetFileLineCol(MlirLocation loc, MlirStringRef *file,
                                unsigned *line, unsigned *col) {
  if (mlirLocationIsNull(loc))
    return false;
  if (mlirLocationIsAFileLineColRange(loc)) {
    *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    *line = (unsigned)mlirLocationFileLineColRangeGetStartLine(loc);
    *col = (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return coroLocationGetFileLineCol(mlirLocationNameGetChildLoc(loc), file,
                                      line, col);
  if (mlirLocationIsACallSite(loc))
    return coroLocationGetFileLineCol(mlirLocationCallSiteGetCallee(loc), file,
                                      line, col) ||
           coroLocationGetFileLineCol(mlirLocationCallSiteGetCaller(loc), file,
                                      line, col);
  if (mlirLocationIsAFused(loc)) {
    /* On the heap: a fused location may have any number of parts. */
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation *parts = n > 0 ? malloc((size_t)n * sizeof *parts) : NULL;
    if (!parts)
      return false;
    mlirLocationFusedGetLocations(loc, parts);
    bool found = false;
    for (intptr_t i = 0; i < n && !found; ++i)
      found = coroLocationGetFileLineCol(parts[i], file, line, col);
    free(parts);
    return found;
  }
  return false;
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
