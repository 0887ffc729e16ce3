/* frame_debug.c - the debug-info type of a route-B frame (frame_debug.h). */
#include "transforms/CoroSplit/frame_debug.h"
#include "ir/builder.h"
#include "ir/debug.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdio.h>
#include <stdlib.h>

enum {
  DW_TAG_base_type = 0x24,
  DW_TAG_member = 0x0d,
  DW_TAG_pointer_type = 0x0f,
  DW_TAG_structure_type = 0x13,
  NO_ADDRESS_SPACE = -1,
  DI_FLAG_ARTIFICIAL = 64
};

static MlirAttribute str(MlirContext ctx, const char *s) {
  return mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(s));
}

static MlirAttribute frame_debug_pointer(MlirContext ctx,
                                         MlirAttribute pointee) {
  return mlirLLVMDIDerivedTypeAttrGet(ctx, DW_TAG_pointer_type,
                                      (MlirAttribute){NULL}, pointee, 64, 64, 0,
                                      NO_ADDRESS_SPACE, (MlirAttribute){NULL});
}

/* A debug-info type for a value of type `t` taking `size` bytes: integers,
 * floats and pointers as themselves, anything else as that many bytes. */
static MlirAttribute di_type(MlirContext ctx, MlirType t, uint64_t size) {
  char name[48];
  if (mlirTypeIsAInteger(t)) {
    unsigned w = mlirIntegerTypeGetWidth(t);
    snprintf(name, sizeof name, "__int_%u", w);
    return mlirLLVMDIBasicTypeAttrGet(
        ctx, DW_TAG_base_type, str(ctx, name), w == 1 ? 8 : w,
        w == 1 ? MlirLLVMTypeEncodingBoolean : MlirLLVMTypeEncodingSigned);
  }
  if (mlirTypeIsAF32(t) || mlirTypeIsAF64(t))
    return mlirLLVMDIBasicTypeAttrGet(
        ctx, DW_TAG_base_type, str(ctx, mlirTypeIsAF32(t) ? "float" : "double"),
        mlirTypeIsAF32(t) ? 32 : 64, MlirLLVMTypeEncodingFloatT);
  if (mlirTypeIsALLVMPointerType(t))
    return frame_debug_pointer(ctx, (MlirAttribute){NULL});
  snprintf(name, sizeof name, "__bytes_%llu", (unsigned long long)size);
  return mlirLLVMDIBasicTypeAttrGet(ctx, DW_TAG_base_type, str(ctx, name),
                                    size * 8, MlirLLVMTypeEncodingUnsigned);
}

static MlirAttribute member(MlirContext ctx, const char *name,
                            MlirAttribute type, uint64_t size, uint64_t align,
                            uint64_t offset) {
  return mlirLLVMDIDerivedTypeAttrGet(
      ctx, DW_TAG_member, str(ctx, name), type, size * 8, (uint32_t)(align * 8),
      offset * 8, NO_ADDRESS_SPACE, (MlirAttribute){NULL});
}

/* "__K_lLINE" for item K defined at LINE (or "__K"). */
static void item_name(char *buf, size_t n, size_t k, MlirLocation loc) {
  MlirStringRef file;
  unsigned line, col;
  if (coro_location_file_line_col(loc, &file, &line, &col))
    snprintf(buf, n, "__%zu_l%u", k, line);
  else
    snprintf(buf, n, "__%zu", k);
}

MlirAttribute frame_debug_type(MlirContext ctx, MlirStringRef name,
                               const struct frame_layout *fl,
                               const struct suspend_crossing *sc,
                               MlirValue promise) {
  size_t cap = sc->nitem + 4, n = 0;
  MlirAttribute *m = ir_xmalloc(cap * sizeof *m);
  MlirType ptr = ir_ptr_type(ctx);
  MlirAttribute p = di_type(ctx, ptr, 8);
  m[n++] = member(ctx, "__resume_fn", p, 8, 8, 0);
  m[n++] = member(ctx, "__destroy_fn", p, 8, 8, 8);
  if (!mlirValueIsNull(promise)) {
    MlirType elem;
    uint64_t size, align;
    if (frame_alloca_layout(mlirOpResultGetOwner(promise), &elem, &size,
                            &align))
      m[n++] = member(ctx, "__promise", di_type(ctx, elem, size), size, align,
                      fl->promise_offset);
  }
  MlirType idx = mlirIntegerTypeGet(ctx, fl->index_width);
  m[n++] = member(ctx, "__coro_index", di_type(ctx, idx, fl->index_width / 8),
                  fl->index_width / 8, fl->index_width / 8, fl->index_offset);
  char buf[48];
  for (size_t k = 0; k < sc->nitem; ++k) {
    const struct frame_field *f = &fl->field[k];
    if (!f->size)
      continue;
    item_name(buf, sizeof buf, k, mlirValueGetLocation(sc->item[k].value));
    m[n++] = member(ctx, buf, di_type(ctx, f->type, f->size), f->size, f->align,
                    f->offset);
  }
  struct coro_str tn = {0};
  coro_str_append(&tn, name.data, name.length);
  coro_str_appendz(&tn, ".coro_frame_ty");
  MlirAttribute t = mlirLLVMDICompositeTypeAttrGet(
      ctx, (MlirAttribute){NULL}, false, DW_TAG_structure_type,
      str(ctx, coro_str_cstr(&tn)), (MlirAttribute){NULL}, 0,
      (MlirAttribute){NULL}, (MlirAttribute){NULL}, 0, fl->size * 8,
      fl->align * 8, (intptr_t)n, m, (MlirAttribute){NULL},
      (MlirAttribute){NULL}, (MlirAttribute){NULL}, (MlirAttribute){NULL});
  coro_str_free(&tn);
  free(m);
  return t;
}

MlirAttribute frame_debug_subprogram(MlirOperation func) {
  MlirLocation loc = mlirOperationGetLocation(func);
  if (!mlirLocationIsAFused(loc))
    return (MlirAttribute){NULL};
  MlirAttribute md = mlirLocationFusedGetMetadata(loc);
  if (mlirAttributeIsNull(md))
    return md;
  /* the C API has no isa for #llvm.di_subprogram: compare its TypeID with
   * a self-reference's (printing it to read its mnemonic, as before, took
   * minutes and gigabytes on clang's debug info of std::map: the printer
   * expands every shared type where it occurs) */
  MlirAttribute probe = mlirLLVMDISubprogramAttrGetRecSelf(
      ir_distinct_id(mlirAttributeGetContext(md)));
  return mlirTypeIDEqual(mlirAttributeGetTypeID(md),
                         mlirAttributeGetTypeID(probe))
             ? md
             : (MlirAttribute){NULL};
}

void frame_debug_attach(MlirOperation clone, MlirAttribute sp,
                        MlirAttribute frame_ty) {
  MlirContext ctx = mlirOperationGetContext(clone);
  MlirAttribute name = mlirOperationGetAttributeByName(
      clone, mlirStringRefCreateFromCString("sym_name"));
  MlirAttribute file = mlirLLVMDISubprogramAttrGetFile(sp);
  unsigned line = mlirLLVMDISubprogramAttrGetLine(sp);
  enum { SP_DEFINITION = 8 };
  MlirAttribute csp = mlirLLVMDISubprogramAttrGet(
      ctx, (MlirAttribute){NULL}, false, ir_distinct_id(ctx),
      mlirLLVMDISubprogramAttrGetCompileUnit(sp),
      mlirLLVMDISubprogramAttrGetScope(sp), name, name, file, line,
      mlirLLVMDISubprogramAttrGetScopeLine(sp), SP_DEFINITION,
      mlirLLVMDISubprogramAttrGetType(sp), 0, NULL, 0, NULL);
  /* what the part copied of the coroutine is in the part's scope */
  ir_replace_attribute_in(clone, sp, csp);
  MlirLocation loc = mlirOperationGetLocation(clone);
  if (mlirLocationIsAFused(loc) && mlirLocationFusedGetNumLocations(loc) == 1)
    mlirLocationFusedGetLocations(loc, &loc);
  mlirOperationSetLocation(clone, mlirLocationFusedGet(ctx, 1, &loc, csp));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  if (mlirAttributeIsNull(frame_ty) || mlirBlockIsNull(entry) ||
      mlirBlockGetNumArguments(entry) < 1)
    return;
  /* llvm.intr.dbg.value #__coro_frame = %frame : !llvm.ptr */
  MlirAttribute var = mlirLLVMDILocalVariableAttrGet(
      ctx, csp, str(ctx, "__coro_frame"), file, line, 0, 0,
      frame_debug_pointer(ctx, frame_ty), DI_FLAG_ARTIFICIAL);
  MlirNamedAttribute attrs[2] = {
      ir_named(ctx, "varInfo", var),
      ir_named(ctx, "locationExpr", mlirLLVMDIExpressionAttrGet(ctx, 0, NULL))};
  MlirValue frame = mlirBlockGetArgument(entry, 0);
  struct ir_builder b = ir_before(mlirBlockGetFirstOperation(entry));
  MlirStringRef f;
  unsigned l, c;
  if (coro_location_file_line_col(loc, &f, &l, &c))
    b.loc = mlirLocationFileLineColGet(ctx, f, l, c);
  ir_op(&b, "llvm.intr.dbg.value", 1, &frame, 0, NULL, 2, attrs, 0, NULL);
}
