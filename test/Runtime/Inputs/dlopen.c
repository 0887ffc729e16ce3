/* Loads the runtime with dlopen after the program has started, as a JIT
 * does, and makes and releases task blocks through it on this thread and
 * on another: the runtime's thread-local variables (initial-exec) must find
 * room in the static TLS glibc keeps for such libraries, and a thread's
 * kept blocks must reach the next tasks of another thread once it ends. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void *(*alloc_fn)(int64_t);
typedef void (*free_fn)(void *);
static alloc_fn task_alloc;
static free_fn task_free;

enum { N = 200, SIZE = 48 };

/* Makes N tasks, writes into each, releases them; how many came back
 * with a byte that was not zero. */
static long churn(void) {
  void *t[N];
  long dirty = 0;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < N; ++i) {
      t[i] = task_alloc(SIZE);
      if (!t[i])
        return -1;
      for (int k = 0; k < SIZE; ++k)
        dirty += ((unsigned char *)t[i])[k] != 0;
      memset(t[i], 0xab, SIZE);
    }
    for (int i = 0; i < N; ++i)
      task_free(t[i]);
  }
  return dirty;
}

static void *thread_main(void *arg) {
  *(long *)arg = churn();
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  task_alloc = (alloc_fn)(uintptr_t)dlsym(lib, "coro_rt_task_alloc");
  task_free = (free_fn)(uintptr_t)dlsym(lib, "coro_rt_task_free");
  if (!task_alloc || !task_free)
    return 1;
  long other = -1;
  pthread_t th;
  if (pthread_create(&th, NULL, thread_main, &other) || pthread_join(th, NULL))
    return 1;
  printf("other thread: dirty %ld\n", other);
  printf("this thread: dirty %ld\n", churn());
  return 0;
}
