/* diagnostics.c - finding a file:line:col in any MLIR location. */
#include "coro-c/Diagnostics.h"

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
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation parts[n > 0 ? n : 1];
    mlirLocationFusedGetLocations(loc, parts);
    for (intptr_t i = 0; i < n; ++i)
      if (coroLocationGetFileLineCol(parts[i], file, line, col))
        return true;
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
