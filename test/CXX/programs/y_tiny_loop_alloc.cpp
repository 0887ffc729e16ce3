// Very small coroutines made and freed 100000 times in loops: a task that
// returns at once (never suspends after the start), one that suspends
// once, a generator of two values, and a fire-and-forget coroutine whose
// frame frees itself (with an await that does not suspend). Promise operator new/delete count every frame; the
// handles escape and the coroutines are noinline, so no heap elision
// changes the counts. At the end nothing is outstanding.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <utility>

static long allocs = 0, frees = 0, live = 0, max_live = 0;
static std::size_t bytes_live = 0;
static std::coroutine_handle<> escape; // handles escape through here

struct Counted {
  static void *operator new(std::size_t n) {
    ++allocs;
    if (++live > max_live)
      max_live = live;
    bytes_live += n;
    return std::malloc(n);
  }
  static void operator delete(void *p, std::size_t n) noexcept {
    ++frees;
    --live;
    bytes_live -= n;
    std::free(p);
  }
};

struct Task {
  struct promise_type : Counted {
    long value = 0;
    Task get_return_object() {
      auto h = std::coroutine_handle<promise_type>::from_promise(*this);
      escape = h;
      return Task{h};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) { value = v; }
    std::suspend_always yield_value(long v) {
      value = v;
      return {};
    }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
};

struct Detached {
  struct promise_type : Counted {
    Detached get_return_object() {
      escape = std::coroutine_handle<promise_type>::from_promise(*this);
      return {};
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
};

[[gnu::noinline]] Task immediate(long x) { co_return x * 2 + 1; }

[[gnu::noinline]] Task once(long x) {
  long y = x ^ 0x55;
  co_await std::suspend_always{};
  co_return y;
}

[[gnu::noinline]] Task two(long x) {
  co_yield x;
  co_yield -x / 3;
  co_return 0;
}

// An await that never suspends (opaque to the optimiser), so that the
// coroutine keeps a suspension point and its frame stays on the heap.
struct NoSuspend {
  bool await_ready() const noexcept { return false; }
  [[gnu::noinline]] bool await_suspend(std::coroutine_handle<> h) noexcept {
    escape = h;
    return false;
  }
  void await_resume() const noexcept {}
};

static long sink = 0;
[[gnu::noinline]] Detached detached(long x) {
  sink += x % 7;
  co_await NoSuspend{};
  sink += x % 3;
}

int main() {
  const long N = 100000;
  long sum = 0;
  for (long i = 0; i < N; ++i) {
    Task t = immediate(i);
    t.h.resume();
    sum += t.h.promise().value;
  }
  std::printf("immediate: sum %ld allocs %ld frees %ld live %ld max %ld\n",
              sum, allocs, frees, live, max_live);

  sum = 0;
  for (long i = 0; i < N; ++i) {
    Task t = once(i);
    t.h.resume();
    if (i % 3 == 0) // destroyed while suspended, every third time
      continue;
    t.h.resume();
    sum += t.h.promise().value;
  }
  std::printf("once: sum %ld allocs %ld frees %ld live %ld max %ld\n", sum,
              allocs, frees, live, max_live);

  sum = 0;
  for (long i = 0; i < N; ++i) {
    Task t = two(i);
    for (t.h.resume(); !t.h.done(); t.h.resume())
      sum += t.h.promise().value * (i % 5);
  }
  std::printf("two: sum %ld allocs %ld frees %ld live %ld max %ld\n", sum,
              allocs, frees, live, max_live);

  for (long i = 0; i < N; ++i)
    detached(i);
  std::printf("detached: sink %ld allocs %ld frees %ld live %ld max %ld\n",
              sink, allocs, frees, live, max_live);

  // Many frames alive at once, then freed in reverse.
  {
    static Task *pool[1000];
    for (int i = 0; i < 1000; ++i)
      pool[i] = new Task(once(i));
    std::printf("pool: live %ld max %ld\n", live, max_live);
    for (int i = 999; i >= 0; --i)
      delete pool[i];
  }
  std::printf("end: allocs %ld frees %ld live %ld bytes %zu escaped %d\n",
              allocs, frees, live, bytes_live, (int)(escape != nullptr));
  return 0;
}
