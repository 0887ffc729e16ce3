/* runtime.c - coro's run-time library (see coro-runtime/Runtime.h).
 *
 * The host API reaches into handles only at the offsets HandleLayout.h
 * states (checked below against C structs of the same shape), and checks
 * what it can see before it calls an entry: a null handle, an ended
 * coroutine (null resume entry).
 * Tasks are calloc'd with their prefix in front (malloc aligns to 16 on the
 * platforms we build for, and the prefix is 32 bytes, so handles are
 * 16-aligned). The executor is a growable ring buffer of handles; an event
 * keeps its waiters in a growable array until it is signalled. There is no
 * global state: everything lives in the executor, event and pool objects.
 * The pool is the one thread-safe object: one mutex guards its queue (an
 * executor, used only under the mutex) and its counters; workers wait on
 * `work`, coro_rt_pool_wait on `idle`. */
#include "coro-runtime/Runtime.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The header every handle starts with (see HandleLayout.h). */
typedef void (*coro_rt_entry)(void *);
struct coro_rt_header {
  coro_rt_entry resume;
  coro_rt_entry destroy;
  void *continuation; /* the promise's first field */
};
_Static_assert(offsetof(struct coro_rt_header, resume) ==
                   CORO_HANDLE_RESUME_OFFSET,
               "resume entry");
_Static_assert(offsetof(struct coro_rt_header, destroy) ==
                   CORO_HANDLE_DESTROY_OFFSET,
               "destroy entry");
_Static_assert(offsetof(struct coro_rt_header, continuation) ==
                   CORO_HANDLE_PROMISE_OFFSET,
               "promise");
/* The start of a retcon control block whose value and resume value are at
 * most 8 bytes, aligned to at most 8 (the conversion's control prefix
 * type, {ptr, ptr, {ptr, S}, ptr, R}). */
struct coro_rt_retcon_prefix {
  struct coro_rt_header header; /* resume, destroy, promise continuation */
  int64_t value;                /* the promise's value */
  void *continuation;           /* LLVM's retcon continuation */
  int64_t slot;                 /* the resume slot */
};
_Static_assert(offsetof(struct coro_rt_retcon_prefix, value) ==
                   CORO_HANDLE_PROMISE_VALUE_OFFSET,
               "promise value");
_Static_assert(offsetof(struct coro_rt_retcon_prefix, continuation) ==
                   CORO_RETCON_CONTINUATION_OFFSET,
               "retcon continuation");
_Static_assert(offsetof(struct coro_rt_retcon_prefix, slot) ==
                   CORO_RETCON_RESUME_SLOT_OFFSET,
               "retcon resume slot");
/* The task prefix, at negative offsets from the handle. */
#define PREFIX_AT(field)                                                       \
  ((int)offsetof(coro_rt_task_prefix, field) - CORO_TASK_PREFIX_SIZE)
_Static_assert(sizeof(coro_rt_task_prefix) == CORO_TASK_PREFIX_SIZE, "prefix");
_Static_assert(PREFIX_AT(parked) == CORO_TASK_PARKED_OFFSET, "parked");
_Static_assert(PREFIX_AT(handoff) == CORO_TASK_HANDOFF_OFFSET, "handoff");
_Static_assert(PREFIX_AT(destroying) == CORO_TASK_DESTROYING_OFFSET,
               "destroying");
_Static_assert(PREFIX_AT(awaiter) == CORO_TASK_AWAITER_OFFSET, "awaiter");
_Static_assert(CORO_TASK_PREFIX_SIZE % CORO_TASK_ALIGN == 0,
               "handles stay aligned after the prefix");

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

/*===-- Handles -----------------------------------------------------------===*/

int coro_rt_resume(void *handle) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  if (!h->resume)
    return CORO_RT_ERR_DONE;
  h->resume(handle);
  return CORO_RT_OK;
}

int coro_rt_destroy(void *handle) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  h->destroy(handle);
  return CORO_RT_OK;
}

int coro_rt_done(void *handle) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  return h->resume == NULL;
}

static int is_pow2(size_t n) { return n && !(n & (n - 1)); }

/* `n` rounded up to the power of two `align`. */
static size_t align_up(size_t n, size_t align) {
  return (n + align - 1) & ~(align - 1);
}

void *coro_rt_promise_aligned(void *handle, size_t align) {
  if (!handle || !is_pow2(align))
    return NULL;
  /* Field 1 of {ptr continuation; T value} at the promise. */
  size_t field = align_up(sizeof(void *), align);
  return (char *)handle + CORO_HANDLE_PROMISE_OFFSET + field;
}

void *coro_rt_promise(void *handle) {
  return handle ? (char *)handle + CORO_HANDLE_PROMISE_VALUE_OFFSET : NULL;
}

/* The typed accessors; memcpy keeps them free of aliasing assumptions. */
#define PROMISE_ACCESSORS(SUFFIX, TYPE)                                        \
  TYPE coro_rt_promise_##SUFFIX(void *handle) {                                \
    TYPE value = 0;                                                            \
    if (handle)                                                                \
      memcpy(&value, coro_rt_promise(handle), sizeof value);                   \
    return value;                                                              \
  }                                                                            \
  int coro_rt_promise_set_##SUFFIX(void *handle, TYPE value) {                 \
    if (!handle)                                                               \
      return CORO_RT_ERR_NULL;                                                 \
    memcpy(coro_rt_promise(handle), &value, sizeof value);                     \
    return CORO_RT_OK;                                                         \
  }                                                                            \
  int coro_rt_resume_with_##SUFFIX(void *handle, TYPE value) {                 \
    return coro_rt_resume_with(handle, &value, sizeof value, _Alignof(TYPE));  \
  }
PROMISE_ACCESSORS(i64, int64_t)
PROMISE_ACCESSORS(i32, int32_t)
PROMISE_ACCESSORS(f64, double)
PROMISE_ACCESSORS(f32, float)
PROMISE_ACCESSORS(ptr, void *)
#undef PROMISE_ACCESSORS

int coro_rt_resume_with(void *handle, const void *value, size_t size,
                        size_t align) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  if (!is_pow2(align) || (!value && size))
    return CORO_RT_ERR_ARG;
  if (!h->resume)
    return CORO_RT_ERR_DONE;
  /* The slot follows LLVM's continuation, after a 16-byte promise. */
  size_t slot =
      align_up(CORO_RETCON_CONTINUATION_OFFSET + sizeof(void *), align);
  if (size)
    memcpy((char *)handle + slot, value, size);
  h->resume(handle);
  return CORO_RT_OK;
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
  if (!handle)
    return CORO_RT_ERR_NULL;
  if (e->count == e->cap) {
    size_t cap = e->cap ? 2 * e->cap : 16;
    void **ring = malloc(cap * sizeof *ring);
    if (!ring)
      return CORO_RT_ERR_NOMEM;
    for (size_t i = 0; i < e->count; ++i)
      ring[i] = e->ring[(e->head + i) % e->cap];
    free(e->ring);
    e->ring = ring;
    e->cap = cap;
    e->head = 0;
  }
  e->ring[(e->head + e->count) % e->cap] = handle;
  ++e->count;
  return CORO_RT_OK;
}

int64_t coro_rt_run(coro_rt_executor *e) {
  int64_t resumed = 0;
  while (e->count) {
    void *h = e->ring[e->head];
    e->head = (e->head + 1) % e->cap;
    --e->count;
    if (coro_rt_resume(h) == CORO_RT_OK)
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
  if (!handle)
    return CORO_RT_ERR_NULL;
  if (ev->set)
    return coro_rt_schedule(ev->executor, handle);
  if (ev->count == ev->cap) {
    size_t cap = ev->cap ? 2 * ev->cap : 4;
    void **w = realloc(ev->waiters, cap * sizeof *w);
    if (!w)
      return CORO_RT_ERR_NOMEM;
    ev->waiters = w;
    ev->cap = cap;
  }
  ev->waiters[ev->count++] = handle;
  return CORO_RT_OK;
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

/*===-- Thread pool -------------------------------------------------------===*/

struct coro_rt_pool {
  pthread_mutex_t mu;
  pthread_cond_t work; /* something queued, or stopping */
  pthread_cond_t idle; /* nothing queued and nothing running */
  coro_rt_executor queue;
  int64_t running, resumed;
  int stopping;
  int64_t nthreads;
  pthread_t threads[];
};

/* Pops the next handle; NULL once stopping with nothing queued. */
static void *pool_next(coro_rt_pool *p) {
  pthread_mutex_lock(&p->mu);
  while (p->queue.count == 0 && !p->stopping)
    pthread_cond_wait(&p->work, &p->mu);
  void *h = NULL;
  if (p->queue.count) {
    h = p->queue.ring[p->queue.head];
    p->queue.head = (p->queue.head + 1) % p->queue.cap;
    --p->queue.count;
    ++p->running;
  }
  pthread_mutex_unlock(&p->mu);
  return h;
}

static void *pool_worker(void *arg) {
  coro_rt_pool *p = arg;
  for (void *h; (h = pool_next(p));) {
    int rc = coro_rt_resume(h);
    pthread_mutex_lock(&p->mu);
    --p->running;
    if (rc == CORO_RT_OK)
      ++p->resumed;
    if (p->running == 0 && p->queue.count == 0)
      pthread_cond_broadcast(&p->idle);
    pthread_mutex_unlock(&p->mu);
  }
  return NULL;
}

coro_rt_pool *coro_rt_pool_create(int64_t threads) {
  if (threads < 1 || threads > 256)
    return NULL;
  coro_rt_pool *p = calloc(1, sizeof *p + (size_t)threads * sizeof(pthread_t));
  if (!p)
    return NULL;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->idle, NULL);
  for (; p->nthreads < threads; ++p->nthreads)
    if (pthread_create(&p->threads[p->nthreads], NULL, pool_worker, p)) {
      coro_rt_pool_destroy(p);
      return NULL;
    }
  return p;
}

int64_t coro_rt_pool_wait(coro_rt_pool *p) {
  pthread_mutex_lock(&p->mu);
  while (p->queue.count || p->running)
    pthread_cond_wait(&p->idle, &p->mu);
  int64_t resumed = p->resumed;
  pthread_mutex_unlock(&p->mu);
  return resumed;
}

void coro_rt_pool_destroy(coro_rt_pool *p) {
  if (!p)
    return;
  coro_rt_pool_wait(p);
  pthread_mutex_lock(&p->mu);
  p->stopping = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int64_t i = 0; i < p->nthreads; ++i)
    pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->idle);
  pthread_cond_destroy(&p->work);
  pthread_mutex_destroy(&p->mu);
  free(p->queue.ring);
  free(p);
}

int coro_rt_pool_submit(coro_rt_pool *p, void *handle) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  pthread_mutex_lock(&p->mu);
  int rc = coro_rt_schedule(&p->queue, handle);
  if (rc == CORO_RT_OK)
    pthread_cond_signal(&p->work);
  pthread_mutex_unlock(&p->mu);
  return rc;
}
