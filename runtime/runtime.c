/* runtime.c - coro's run-time library (see coro-runtime/Runtime.h).
 *
 * Tasks are calloc'd with their prefix in front (malloc aligns to 16 on the
 * platforms we build for, and the prefix is 32 bytes, so handles are
 * 16-aligned). The executor is a growable ring buffer of handles; an event
 * keeps its waiters in a growable array until it is signalled. There is no
 * global state: everything lives in the executor and event objects. */
#include "coro-runtime/Runtime.h"

#include <stdlib.h>
#include <string.h>

/* The header every handle starts with (see Runtime.h). */
typedef void (*coro_rt_entry)(void *);
struct coro_rt_header {
  coro_rt_entry resume;
  coro_rt_entry destroy;
};

void *coro_rt_task_alloc(int64_t size) {
  if (size <= 0 || size > INT64_MAX - CORO_RT_TASK_PREFIX_SIZE)
    return NULL;
  char *block = calloc(1, (size_t)size + CORO_RT_TASK_PREFIX_SIZE);
  return block ? block + CORO_RT_TASK_PREFIX_SIZE : NULL;
}

void coro_rt_task_free(void *handle) {
  if (handle)
    free((char *)handle - CORO_RT_TASK_PREFIX_SIZE);
}

void *coro_rt_context_alloc(int64_t size) {
  return size > 0 ? calloc(1, (size_t)size) : NULL;
}

void coro_rt_context_free(void *context) { free(context); }

void coro_rt_resume(void *handle) {
  struct coro_rt_header *h = handle;
  h->resume(handle);
}

void coro_rt_destroy(void *handle) {
  struct coro_rt_header *h = handle;
  h->destroy(handle);
}

int coro_rt_done(void *handle) {
  struct coro_rt_header *h = handle;
  return h->resume == NULL;
}

/*===-- Executor ----------------------------------------------------------===*/

struct coro_rt_executor {
  void **ring; /* queued handles, from head, count of them */
  size_t cap, head, count;
};

coro_rt_executor *coro_rt_executor_create(void) {
  return calloc(1, sizeof(coro_rt_executor));
}

void coro_rt_executor_destroy(coro_rt_executor *executor) {
  if (!executor)
    return;
  free(executor->ring);
  free(executor);
}

int coro_rt_schedule(coro_rt_executor *e, void *handle) {
  if (e->count == e->cap) {
    size_t cap = e->cap ? 2 * e->cap : 16;
    void **ring = malloc(cap * sizeof *ring);
    if (!ring)
      return -1;
    for (size_t i = 0; i < e->count; ++i)
      ring[i] = e->ring[(e->head + i) % e->cap];
    free(e->ring);
    e->ring = ring;
    e->cap = cap;
    e->head = 0;
  }
  e->ring[(e->head + e->count) % e->cap] = handle;
  ++e->count;
  return 0;
}

int64_t coro_rt_run(coro_rt_executor *e) {
  int64_t resumed = 0;
  while (e->count) {
    void *h = e->ring[e->head];
    e->head = (e->head + 1) % e->cap;
    --e->count;
    coro_rt_resume(h);
    ++resumed;
  }
  return resumed;
}

int64_t coro_rt_pending(coro_rt_executor *e) { return (int64_t)e->count; }

/*===-- Events ------------------------------------------------------------===*/

struct coro_rt_event {
  coro_rt_executor *executor;
  void **waiters;
  size_t count, cap;
  int set;
};

coro_rt_event *coro_rt_event_create(coro_rt_executor *executor) {
  coro_rt_event *ev = calloc(1, sizeof *ev);
  if (ev)
    ev->executor = executor;
  return ev;
}

void coro_rt_event_destroy(coro_rt_event *event) {
  if (!event)
    return;
  free(event->waiters);
  free(event);
}

int coro_rt_event_wait(coro_rt_event *ev, void *handle) {
  if (ev->set)
    return coro_rt_schedule(ev->executor, handle);
  if (ev->count == ev->cap) {
    size_t cap = ev->cap ? 2 * ev->cap : 4;
    void **w = realloc(ev->waiters, cap * sizeof *w);
    if (!w)
      return -1;
    ev->waiters = w;
    ev->cap = cap;
  }
  ev->waiters[ev->count++] = handle;
  return 0;
}

void coro_rt_event_signal(coro_rt_event *ev) {
  if (ev->set)
    return;
  ev->set = 1;
  for (size_t i = 0; i < ev->count; ++i)
    coro_rt_schedule(ev->executor, ev->waiters[i]);
  ev->count = 0;
}

int coro_rt_event_is_set(coro_rt_event *ev) { return ev->set; }
