// Deeply recursive tasks: depth 2000 of lazy tasks each awaiting the
// next (symmetric transfer in both directions, so the stack stays flat),
// a recursive generator of depth 200 re-yielding its child's values, and
// recursion with several live frames per level (binary split to 2000
// leaves).
#include <coroutine>
#include <cstdio>
#include <exception>

template <typename T> struct Task {
  struct promise_type {
    T value{};
    std::coroutine_handle<> cont = std::noop_coroutine();
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().cont;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { value = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h.promise().cont = c;
    return h;
  }
  T await_resume() noexcept { return h.promise().value; }
};

static int live = 0, max_live = 0;

Task<long> chain(int depth) {
  ++live;
  if (live > max_live)
    max_live = live;
  long here = depth * 7 % 13;
  long below = depth == 0 ? 0 : co_await chain(depth - 1);
  --live;
  co_return below + here;
}

Task<long> split(int lo, int hi) {
  if (hi - lo == 1)
    co_return lo % 17;
  int mid = (lo + hi) / 2;
  Task<long> l = split(lo, mid);
  Task<long> r = split(mid, hi);
  long a = co_await r;
  long b = co_await l;
  co_return a + b;
}

struct Gen {
  struct promise_type {
    int current = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Gen(Gen &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
};

Gen nest(int depth) {
  co_yield depth;
  if (depth > 0) {
    Gen child = nest(depth - 1);
    while (child.next())
      co_yield child.h.promise().current + 1;
  }
}

template <typename T> T run(Task<T> &t) {
  t.h.resume();
  return t.h.promise().value;
}

int main() {
  Task<long> c = chain(2000);
  std::printf("chain %ld max_live %d live %d\n", run(c), max_live, live);
  Task<long> c2 = chain(5000);
  std::printf("chain5000 %ld\n", run(c2));
  Task<long> s = split(0, 2000);
  std::printf("split %ld\n", run(s));
  Gen g = nest(200);
  long total = 0;
  int count = 0;
  while (g.next()) {
    total += g.h.promise().current;
    ++count;
  }
  std::printf("nest count %d total %ld\n", count, total);
  return 0;
}
