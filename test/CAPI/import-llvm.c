/* RUN: %capi_bin/import-llvm 2>&1 | FileCheck %s
 *
 * coroImportLLVMIR takes the text as an MlirStringRef, which need not end
 * with a NUL: here it ends right before a page no one may read (LLVM's
 * lexer reads one byte past the text, which faulted there). Malformed IR is
 * LLVM's parser error at its line and column. */
#define _DEFAULT_SOURCE
#include "coro-c/Coro.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void print(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, (FILE *)user);
}

static MlirLogicalResult report(MlirDiagnostic diag, void *user) {
  (void)user;
  MlirStringRef file = {NULL, 0};
  unsigned line = 0, col = 0;
  coroLocationGetFileLineCol(mlirDiagnosticGetLocation(diag), &file, &line,
                             &col);
  printf("diagnostic at %.*s:%u:%u: ", (int)file.length, file.data, line, col);
  mlirDiagnosticPrint(diag, print, stdout);
  printf("\n");
  return mlirLogicalResultSuccess();
}

/* `text` copied to the end of a readable page followed by one that is not
 * (NULL when the pages cannot be had). */
static const char *at_page_end(const char *text) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), n = strlen(text);
  if (n > page)
    return NULL;
  char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED || mprotect(p + page, page, PROT_NONE) != 0)
    return NULL;
  memcpy(p + page - n, text, n);
  return p + page - n;
}

static void import(MlirContext ctx, const char *text) {
  const char *buf = at_page_end(text);
  if (!buf) {
    printf("no guard page\n");
    return;
  }
  MlirModule m = coroImportLLVMIR(ctx, mlirStringRefCreate(buf, strlen(text)),
                                  mlirStringRefCreateFromCString("input.ll"));
  if (mlirModuleIsNull(m)) {
    printf("import failed\n");
    return;
  }
  mlirOperationPrint(mlirModuleGetOperation(m), print, stdout);
  printf("\n");
  mlirModuleDestroy(m);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  coroDialectLoad(ctx);
  mlirContextAttachDiagnosticHandler(ctx, report, NULL, NULL);

  /* the text ends with the last character of an identifier (LLVM's lexer
   * compares keywords past it) */
  import(ctx, "define i32 @answer() {\n  ret i32 42\n}");
  // CHECK: llvm.func @answer() -> i32
  // CHECK: llvm.return

  import(ctx, "define i32 @f() {\n  ret i64 0\n}");
  // CHECK: diagnostic at input.ll:2:7: value doesn't match function result type
  // 'i32' CHECK: import failed

  mlirContextDestroy(ctx);
  return 0;
}
