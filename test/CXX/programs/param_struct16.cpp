// A 16-byte struct passed by value in registers (two eightbytes: two longs,
// and a mixed int/double pair), copied into the frame; the coroutine
// mutates its copy across suspensions and returns a new one.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Pair {
  long a, b;
};
struct Mixed {
  int i;
  double d;
};

template <typename T> struct Task {
  struct promise_type {
    T result{};
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(T v) noexcept { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  T run() {
    while (!h.done())
      h.resume();
    T r = h.promise().result;
    h.destroy();
    return r;
  }
};

Task<Pair> step_pair(Pair p, int rounds) {
  for (int i = 0; i < rounds; ++i) {
    co_await std::suspend_always{};
    long t = p.a + p.b;
    p.a = p.b;
    p.b = t;
  }
  co_return p;
}

Task<Mixed> step_mixed(Mixed m, Pair p) {
  co_await std::suspend_always{};
  m.i += static_cast<int>(p.a);
  co_await std::suspend_always{};
  m.d *= static_cast<double>(p.b);
  co_return m;
}

int main() {
  Pair p{1, 1};
  Task<Pair> t = step_pair(p, 40);
  p = Pair{0, 0};
  Pair r = t.run();
  std::printf("pair %ld %ld\n", r.a, r.b);
  Task<Mixed> m = step_mixed(Mixed{5, 0.75}, Pair{37, 4});
  Mixed mr = m.run();
  std::printf("mixed %d %.3f\n", mr.i, mr.d);
  return 0;
}
