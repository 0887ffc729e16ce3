/* trip_lines.c - the ops' source lines through the pre-split trip (see
 * trip_lines.h).
 *
 * LLVM IR carries a location only as debug info. Before the trip each
 * function of it gets a subprogram (its location becomes
 * fused<#llvm.di_subprogram>[its own]) in a compile unit of line tables
 * only, so the translation turns the ops' file:line:col into !dbg
 * locations, LLVM's passes carry them (an inlined op's with its call
 * site), and the importer turns them back into
 * fused<subprogram>[file:line:col], callsite(... at ...) for inlined ones.
 * After the trip every location that names a subprogram becomes its plain
 * source location again and no subprogram is left, so the module is what
 * it was without debug info. The file of a !dbg location is its
 * subprogram's: a function whose ops name another file than its own is
 * left without one, and its ops get the function's location. */
#include "capi/trip_lines.h"
#include "ir/debug.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdlib.h>
#include <string.h>

/* The file every located op of a function names (`file`, null until one
 * is seen); `mixed` once two differ. */
struct one_file {
  MlirStringRef file;
  bool mixed;
};

static void note_file(struct one_file *f, MlirLocation loc) {
  MlirStringRef file;
  unsigned line, col;
  if (!coro_location_file_line_col(loc, &file, &line, &col))
    return;
  if (!f->file.data)
    f->file = file;
  else if (!mlirStringRefEqual(f->file, file))
    f->mixed = true;
}

static MlirWalkResult find_files(MlirOperation op, void *user) {
  struct one_file *f = user;
  note_file(f, mlirOperationGetLocation(op));
  return f->mixed ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

bool coro_trip_lines_add(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirAttribute unit = {NULL};
  MlirAttribute type =
      mlirLLVMDISubroutineTypeAttrGet(ctx, IR_DW_CC_NORMAL, 0, NULL);
  bool flags = false;
  for (MlirOperation fn = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(fn); fn = mlirOperationGetNextInBlock(fn)) {
    if (coro_op_named(fn, "llvm.module_flags"))
      flags = true;
    if (!coro_op_named(fn, "llvm.func") ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
      continue;
    struct one_file f = {{NULL, 0}, false};
    mlirOperationWalk(fn, find_files, &f, MlirWalkPreOrder);
    if (!f.file.data || f.mixed)
      continue;
    MlirStringRef file;
    unsigned line = 0, col;
    coro_location_file_line_col(mlirOperationGetLocation(fn), &file, &line,
                                &col);
    /* the whole path as the file's name: the importer gives back the name
     * alone */
    MlirAttribute difile = mlirLLVMDIFileAttrGet(
        ctx, mlirStringAttrGet(ctx, f.file),
        mlirStringAttrGet(ctx, mlirStringRefCreate("", 0)));
    if (mlirAttributeIsNull(unit))
      unit = mlirLLVMDICompileUnitAttrGet(
          ctx, ir_distinct_id(ctx), IR_DW_LANG_C11, difile,
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("coro")), true,
          MlirLLVMDIEmissionKindLineTablesOnly, MlirLLVMDINameTableKindNone,
          mlirStringAttrGet(ctx, mlirStringRefCreate("", 0)));
    ir_give_subprogram(fn, unit, difile, line, type);
  }
  return flags;
}

/* Whether `loc` holds debug-info metadata (a subprogram). */
static bool names_scope(MlirLocation loc) {
  if (mlirLocationIsAName(loc))
    return names_scope(mlirLocationNameGetChildLoc(loc));
  if (mlirLocationIsACallSite(loc))
    return names_scope(mlirLocationCallSiteGetCallee(loc)) ||
           names_scope(mlirLocationCallSiteGetCaller(loc));
  if (!mlirLocationIsAFused(loc))
    return false;
  if (!mlirAttributeIsNull(mlirLocationFusedGetMetadata(loc)))
    return true;
  intptr_t n = mlirLocationFusedGetNumLocations(loc);
  MlirLocation *parts = n > 0 ? ir_xmalloc((size_t)n * sizeof *parts) : NULL;
  if (parts)
    mlirLocationFusedGetLocations(loc, parts);
  bool found = false;
  for (intptr_t i = 0; i < n && !found; ++i)
    found = names_scope(parts[i]);
  free(parts);
  return found;
}

/* `loc` without its subprograms: the source location it holds (a call
 * site's callee at its caller, for an op LLVM inlined), or null where it
 * holds no line (LLVM's line 0: a location merged from several). */
static MlirLocation plain(MlirLocation loc) {
  if (mlirLocationIsAFileLineColRange(loc))
    return mlirLocationFileLineColRangeGetStartLine(loc) > 0
               ? loc
               : (MlirLocation){NULL};
  if (mlirLocationIsAName(loc))
    return plain(mlirLocationNameGetChildLoc(loc));
  if (mlirLocationIsACallSite(loc)) {
    MlirLocation callee = plain(mlirLocationCallSiteGetCallee(loc));
    MlirLocation caller = plain(mlirLocationCallSiteGetCaller(loc));
    if (mlirLocationIsNull(callee) || mlirLocationIsNull(caller))
      return mlirLocationIsNull(callee) ? caller : callee;
    return mlirLocationCallSiteGet(callee, caller);
  }
  if (!mlirLocationIsAFused(loc))
    return (MlirLocation){NULL};
  intptr_t n = mlirLocationFusedGetNumLocations(loc);
  MlirLocation *parts = n > 0 ? ir_xmalloc((size_t)n * sizeof *parts) : NULL;
  if (parts)
    mlirLocationFusedGetLocations(loc, parts);
  MlirLocation found = {NULL};
  for (intptr_t i = 0; i < n && mlirLocationIsNull(found); ++i)
    found = plain(parts[i]);
  free(parts);
  return found;
}

/* What an op or argument located at `loc` is located at after the trip:
 * its own source location where the trip carried one, the function's
 * where it carried none (unknown: an op LLVM made), and `loc` itself
 * where the trip did not touch it. */
static MlirLocation after_trip(MlirLocation loc, MlirLocation fn_loc) {
  if (mlirLocationEqual(loc,
                        mlirLocationUnknownGet(mlirLocationGetContext(loc))))
    return fn_loc;
  if (!names_scope(loc))
    return loc;
  MlirLocation p = plain(loc);
  return mlirLocationIsNull(p) ? fn_loc : p;
}

struct restore {
  MlirOperation fn;
  MlirLocation loc;
  intptr_t nargs;
  const MlirLocation *args;
};

static MlirWalkResult restore_op(MlirOperation op, void *user) {
  const struct restore *r = user;
  bool is_fn = mlirOperationEqual(op, r->fn);
  mlirOperationSetLocation(
      op, is_fn ? r->loc : after_trip(mlirOperationGetLocation(op), r->loc));
  for (intptr_t i = 0, nr = mlirOperationGetNumRegions(op); i < nr; ++i)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, i));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b)) {
      /* the importer puts the function's arguments at its line: they get
       * theirs back where the trip kept the signature */
      bool entry =
          is_fn && mlirBlockEqual(b, mlirRegionGetFirstBlock(
                                         mlirOperationGetRegion(op, 0)));
      intptr_t na = mlirBlockGetNumArguments(b);
      for (intptr_t j = 0; j < na; ++j) {
        MlirValue arg = mlirBlockGetArgument(b, j);
        mlirBlockArgumentSetLocation(
            arg, entry && na == r->nargs
                     ? r->args[j]
                     : after_trip(mlirValueGetLocation(arg), r->loc));
      }
    }
  return MlirWalkResultAdvance;
}

void coro_trip_lines_restore(MlirOperation fn, MlirLocation loc, intptr_t nargs,
                             const MlirLocation *args) {
  struct restore r = {fn, loc, nargs, args};
  mlirOperationWalk(fn, restore_op, &r, MlirWalkPreOrder);
}

void coro_trip_lines_drop_flags(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (coro_op_named(op, "llvm.module_flags"))
      mlirOperationDestroy(op);
    op = next;
  }
}
