/* frame_layout.c - frame fields with sharing (see frame_layout.h). */
#include "transforms/CoroSplit/frame_layout.h"
#include "coro-runtime/HandleLayout.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <assert.h>
#include <stdlib.h>

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

bool frame_alloca_layout(MlirOperation alloca, MlirType *elem, uint64_t *size,
                         uint64_t *align) {
  MlirAttribute t = mlirOperationGetAttributeByName(
      alloca, mlirStringRefCreateFromCString("elem_type"));
  int64_t count = 1;
  if (mlirAttributeIsNull(t) ||
      !ir_const_int_value(mlirOperationGetOperand(alloca, 0), &count) ||
      count < 0)
    return false;
  *elem = mlirTypeAttrGetValue(t);
  uint64_t s, a;
  if (!ir_type_layout(*elem, &s, &a) ||
      (count && s > IR_MAX_TYPE_SIZE / (uint64_t)count))
    return false;
  MlirAttribute al = mlirOperationGetAttributeByName(
      alloca, mlirStringRefCreateFromCString("alignment"));
  if (!mlirAttributeIsNull(al) && mlirAttributeIsAInteger(al) &&
      mlirIntegerAttrGetValueInt(al) > 0)
    a = max64(a, (uint64_t)mlirIntegerAttrGetValueInt(al));
  *size = s * (uint64_t)count;
  *align = a ? a : 1;
  return true;
}

static bool field_of(const struct sc_item *it, struct frame_field *f) {
  if (it->alloca)
    return frame_alloca_layout(mlirOpResultGetOwner(it->value), &f->type,
                               &f->size, &f->align);
  f->type = it->type;
  return ir_type_layout(f->type, &f->size, &f->align);
}

/* Whether field `o` shares a byte with [off, off + size). */
static bool overlaps(const struct frame_field *o, uint64_t off, uint64_t size) {
  return off < o->offset + o->size && o->offset < off + size;
}

/* The free bytes below one suspension's bump: up to GAPS intervals
 * [lo, hi), the largest kept when more are left. */
enum { GAPS = 8 };
struct gaps {
  uint64_t lo[GAPS], hi[GAPS];
  size_t n;
};

static void gaps_add(struct gaps *g, uint64_t lo, uint64_t hi) {
  if (lo >= hi)
    return;
  if (g->n < GAPS) {
    g->lo[g->n] = lo;
    g->hi[g->n++] = hi;
    return;
  }
  size_t small = 0;
  for (size_t k = 1; k < GAPS; ++k)
    if (g->hi[k] - g->lo[k] < g->hi[small] - g->lo[small])
      small = k;
  if (hi - lo > g->hi[small] - g->lo[small]) {
    g->lo[small] = lo;
    g->hi[small] = hi;
  }
}

/* The lowest offset from `off` on, aligned to `align`, where `size` bytes
 * are free at a suspension with gaps `g` and bump `bump`. */
static uint64_t gaps_first_fit(const struct gaps *g, uint64_t bump,
                               uint64_t off, uint64_t size, uint64_t align) {
  uint64_t best = ir_align_to(max64(off, bump), align);
  for (size_t k = 0; k < g->n; ++k) {
    uint64_t at = ir_align_to(max64(off, g->lo[k]), align);
    if (at < best && at + size <= g->hi[k])
      best = at;
  }
  return best;
}

/* Takes [off, off + size) at a suspension: from its gap, or above its bump
 * (what it skips becomes a gap). */
static void gaps_take(struct gaps *g, uint64_t *bump, uint64_t off,
                      uint64_t size) {
  if (off >= *bump) {
    gaps_add(g, *bump, off);
    *bump = off + size;
    return;
  }
  for (size_t k = 0; k < g->n; ++k)
    if (g->lo[k] <= off && off + size <= g->hi[k]) {
      uint64_t lo = g->lo[k], hi = g->hi[k];
      g->lo[k] = g->lo[--g->n];
      g->hi[k] = g->hi[g->n];
      gaps_add(g, lo, off);
      gaps_add(g, off + size, hi);
      return;
    }
  assert(!"a field goes where its suspension has room");
}

static void sort_by_align(size_t *order, size_t n,
                          const struct frame_field *fields,
                          const size_t *first) {
  /* A bottom-up merge sort: C11's qsort passes no context to its
   * comparison, and a pass keeps no globals. Decreasing alignment, then
   * size; ties by first suspension, then by order. */
  size_t *tmp = ir_xmalloc((n ? n : 1) * sizeof *tmp);
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n;
      size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        size_t a = order[i], b = order[j];
        const struct frame_field *fa = &fields[a], *fb = &fields[b];
        bool b_first = fa->align != fb->align ? fb->align > fa->align
                       : fa->size != fb->size ? fb->size > fa->size
                       : first[a] != first[b] ? first[b] < first[a]
                                              : b < a;
        tmp[k++] = b_first ? order[j++] : order[i++];
      }
      while (i < mid)
        tmp[k++] = order[i++];
      while (j < hi)
        tmp[k++] = order[j++];
    }
    for (size_t i = 0; i < n; ++i)
      order[i] = tmp[i];
  }
  free(tmp);
}

bool frame_layout_compute(struct frame_layout *fl,
                          const struct suspend_crossing *sc, const bool *iremat,
                          MlirValue promise, bool header,
                          uint64_t value_align) {
  *fl = (struct frame_layout){.align =
                                  header ? CORO_HANDLE_PROMISE_OFFSET / 2 : 1};
  size_t n = sc->nitem, ns = sc->nsusp;
  fl->field = ir_xcalloc(n + 1, sizeof *fl->field);
  bool ok = true;
  for (size_t i = 0; i < n; ++i)
    if (!field_of(&sc->item[i], &fl->field[i]) ||
        fl->field[i].size > IR_MAX_TYPE_SIZE) {
      ir_emit_error_at_value(
          sc->item[i].value,
          "this value is live across a suspension but its size "
          "is unknown or too large to keep in the frame");
      ok = false;
    }
  if (!ok)
    return false;
  /* a value is only stored and loaded: any alignment will do; an alloca's
   * address is aligned at run time within padded storage */
  for (size_t i = 0; value_align && i < n; ++i) {
    struct frame_field *f = &fl->field[i];
    if (f->align <= value_align)
      continue;
    if (sc->item[i].alloca) {
      f->realign = f->align;
      f->size += f->align - value_align;
    }
    f->align = value_align;
  }

  /* Header, promise, index. */
  uint64_t end = header ? CORO_HANDLE_PROMISE_OFFSET : 0;
  if (header && !mlirValueIsNull(promise)) {
    MlirType t;
    uint64_t size, align;
    if (!frame_alloca_layout(mlirOpResultGetOwner(promise), &t, &size,
                             &align)) {
      ir_emit_error_at_value(promise, "the promise's size is unknown");
      return false;
    }
    fl->promise_offset = ir_align_to(end, align);
    end = fl->promise_offset + size;
    fl->align = max64(fl->align, align);
  }
  fl->index_width = ns <= 256 ? 8 : ns <= 65536 ? 16 : 32;

  /* Everything else in one order, decreasing alignment then size, so small
   * fields fill the tail instead of padding: kept values, allocas, and the
   * index (item n, which every suspension keeps). */
  size_t *order = ir_xmalloc((n + 2) * sizeof *order), nord = 0;
  size_t *first = ir_xmalloc((n + 2) * sizeof *first);
  uint64_t *bump = ir_xmalloc((ns + 1) * sizeof *bump);
  for (size_t i = 0; i < n; ++i) {
    first[i] = sc->item[i].first;
    bool kept = sc->item[i].alloca;
    for (size_t q = sc->istart[i]; q < sc->istart[i + 1] && !kept; ++q)
      kept = !iremat || !iremat[q];
    if (kept)
      order[nord++] = i;
    else
      fl->field[i].size = 0;
  }
  fl->field[n] = (struct frame_field){.size = fl->index_width / 8,
                                      .align = fl->index_width / 8};
  first[n] = 0;
  if (header)
    order[nord++] = n;
  sort_by_align(order, nord, fl->field, first);
  /* Per suspension: the bytes from its bump on are free, and so are its
   * gaps below it (what alignment skipped, or what a field placed later
   * left of a gap), at most GAPS of them, the largest kept. */
  struct gaps *gap = ir_xcalloc(ns + 1, sizeof *gap);
  size_t *qs = ir_xmalloc((ns + 1) * sizeof *qs);
  for (size_t s = 0; s < ns; ++s)
    bump[s] = end;
  uint64_t top = end;
  /* allocas placed so far: their memory is theirs in every part, so two
   * share only when their lifetimes never meet */
  size_t *placed = ir_xmalloc((n + 1) * sizeof *placed), nplaced = 0;
  for (size_t k = 0; k < nord; ++k) {
    size_t i = order[k];
    struct frame_field *f = &fl->field[i];
    bool alloca = i < n && sc->item[i].alloca;
    /* the suspensions it takes room at: every one for the index, else
     * those it is kept across (not recomputed after) */
    size_t nq = 0;
    if (i == n) {
      for (size_t s = 0; s < ns; ++s)
        qs[nq++] = s;
    } else {
      for (size_t q = sc->istart[i]; q < sc->istart[i + 1]; ++q)
        if (!iremat || alloca || !iremat[q])
          qs[nq++] = sc->ilist[q];
    }
    /* The lowest offset where every one of them has the field's bytes free
     * (in a gap or above its bump) and, for an alloca, whose memory is its
     * own between suspensions too, no alloca whose lifetime meets its own
     * is: each suspension in turn raises the offset to the first place it
     * could go there, until none does. Above every bump and every alloca
     * it always fits, so the raising ends. */
    uint64_t off = ir_align_to(end, f->align);
    for (bool raised = true; raised;) {
      raised = false;
      for (size_t k = 0; k < nq; ++k) {
        uint64_t at =
            gaps_first_fit(&gap[qs[k]], bump[qs[k]], off, f->size, f->align);
        if (at != off) {
          off = at;
          raised = true;
        }
      }
      for (size_t p = 0; alloca && p < nplaced; ++p) {
        const struct frame_field *o = &fl->field[placed[p]];
        if (overlaps(o, off, f->size) &&
            !suspend_crossing_disjoint(sc, i, placed[p])) {
          off = ir_align_to(o->offset + o->size, f->align);
          raised = true;
        }
      }
    }
    if (alloca)
      placed[nplaced++] = i;
    for (size_t k = 0; k < nq; ++k)
      gaps_take(&gap[qs[k]], &bump[qs[k]], off, f->size);
    f->offset = off;
    if (i == n)
      fl->index_offset = off;
    top = max64(top, off + f->size);
    fl->align = max64(fl->align, f->align);
  }
  free(gap);
  free(qs);
  free(first);
  free(placed);
  /* tail padding up to malloc's alignment at most: a frame aligned to more
   * (a page-aligned buffer) is one object, never an array element, and its
   * allocators round the size up for aligned_alloc themselves; LLVM's
   * frame is likewise as large as its fields' types make it */
  fl->size = ir_align_to(top, fl->align < 16 ? fl->align : 16);
  free(order);
  free(bump);
  return true;
}

void frame_layout_free(struct frame_layout *fl) {
  free(fl->field);
  *fl = (struct frame_layout){0};
}
