// Floating-point and 128-bit parameters and locals across suspensions:
// float, double, long double (x87 80-bit, 16-byte aligned), __int128 and
// unsigned __int128, _Complex-free; a task returning long double and one
// returning __int128, and a generator of long doubles.
#include <coroutine>
#include <cstdio>
#include <exception>

template <typename T> struct Lazy {
  struct promise_type {
    T result{};
    Lazy get_return_object() {
      return Lazy{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(T v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Lazy(Lazy &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Lazy(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Lazy() {
    if (h)
      h.destroy();
  }
  T run() {
    while (!h.done())
      h.resume();
    return h.promise().result;
  }
};

template <typename T> struct Gen {
  struct promise_type {
    T current{};
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
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

static void print128(const char *what, unsigned __int128 v) {
  char buf[50];
  int i = 49;
  buf[i] = 0;
  do {
    buf[--i] = char('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  std::printf("%s %s\n", what, buf + i);
}

Lazy<long double> mix(float f, double d, long double ld, char c, float f2,
                      long double ld2, double d2) {
  long double acc = ld;
  co_await std::suspend_always{};
  acc += f;
  float fl = f * f2;
  co_await std::suspend_always{};
  acc = acc * d + ld2;
  double dl = d2 / 3.0;
  co_await std::suspend_always{};
  acc += fl + dl + c;
  co_return acc;
}

Lazy<__int128> wide(__int128 a, unsigned __int128 b, int shift) {
  __int128 x = a * 3;
  co_await std::suspend_always{};
  unsigned __int128 y = (b << shift) | 0xFFu;
  co_await std::suspend_always{};
  x += (__int128)(y >> 7);
  co_return x - 12345;
}

Gen<long double> halves(long double start, int n) {
  long double v = start;
  for (int i = 0; i < n; ++i) {
    co_yield v;
    v /= 2;
  }
}

int main() {
  Lazy<long double> m = mix(1.5f, 2.25, 3.0L, 'x', 4.0f, 1e-3L, 9.0);
  std::printf("mix %.10Lf\n", m.run());
  __int128 a = (__int128)1 << 100;
  unsigned __int128 b = ((unsigned __int128)0xDEADBEEFCAFEull << 64) | 77;
  Lazy<__int128> w = wide(a + 5, b, 9);
  __int128 r = w.run();
  print128("wide", (unsigned __int128)r);
  Gen<long double> g = halves(1.0L / 3.0L, 6);
  while (g.next())
    std::printf("%.18Lf\n", g.h.promise().current);
  return 0;
}
