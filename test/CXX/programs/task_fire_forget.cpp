// Fire-and-forget coroutines: initial_suspend and final_suspend are both
// suspend_never, so a frame frees itself when the body ends. A counting
// allocator shows that every frame is freed, both for bodies that end in
// the ramp and for bodies resumed later from a queue.
#include <coroutine>
#include <cstdio>
#include <cstdlib>
#include <exception>

static int live = 0, made = 0;

// Every handle escapes through a volatile store and every coroutine is
// noinline, so no optimizer may elide a frame's allocation (LLVM's
// CoroElide, coro's --coro-elide): the counts are the same at every -O
// level and under both routes.
static void *volatile escaped;

struct Detached {
  struct promise_type {
    static void *operator new(std::size_t n) {
      ++live;
      ++made;
      return std::malloc(n);
    }
    static void operator delete(void *p) {
      --live;
      std::free(p);
    }
    Detached get_return_object() noexcept {
      escaped =
          std::coroutine_handle<promise_type>::from_promise(*this).address();
      return {};
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
};

struct Queue {
  std::coroutine_handle<> items[64];
  int head = 0, tail = 0;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept {
    items[tail++ % 64] = h;
  }
  void await_resume() const noexcept {}
  bool run_one() {
    if (head == tail)
      return false;
    items[head++ % 64].resume();
    return true;
  }
};

static long total = 0;
static volatile bool never = false;

// Ends in the ramp. The suspension that never happens keeps it a coroutine
// with a suspend point, whose frame LLVM may not drop (a coroutine with no
// suspend point loses its allocation at -O2).
[[gnu::noinline]] Detached quick(int v) {
  if (never)
    co_await std::suspend_always{};
  total += v;
  co_return;
}

[[gnu::noinline]] Detached worker(Queue &q, int id, int steps) {
  for (int i = 0; i < steps; ++i) {
    total += id * 10 + i;
    std::printf("worker %d step %d\n", id, i);
    co_await q;
  }
  std::printf("worker %d done\n", id);
}

int main() {
  Queue q;
  for (int i = 1; i <= 5; ++i)
    quick(i);
  std::printf("after quick: live=%d made=%d total=%ld\n", live, made, total);
  worker(q, 1, 3);
  worker(q, 2, 1);
  worker(q, 3, 2);
  std::printf("started: live=%d\n", live);
  while (q.run_one()) {
  }
  std::printf("end: live=%d made=%d total=%ld\n", live, made, total);
  return 0;
}
