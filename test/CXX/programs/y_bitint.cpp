// _BitInt values (clang's extension in C++) live across suspensions:
// _BitInt(37), unsigned _BitInt(7) (wrapping) and _BitInt(129) as
// parameters and locals of a generator and of a lazy task returning
// _BitInt(129); the wide values are printed as split 64-bit halves.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

using i37 = _BitInt(37);
using u7 = unsigned _BitInt(7);
using i129 = _BitInt(129);
using u129 = unsigned _BitInt(129);

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
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  Gen(Gen &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  T value() const { return h.promise().current; }
};

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
  explicit Lazy(std::coroutine_handle<promise_type> h) : h(h) {}
  Lazy(Lazy &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Lazy() {
    if (h)
      h.destroy();
  }
  T run() {
    int steps = 0;
    while (!h.done()) {
      h.resume();
      ++steps;
    }
    std::printf("  (%d resumes)\n", steps);
    return h.promise().result;
  }
};

static void print129(const char *what, i129 v) {
  u129 u = (u129)v;
  unsigned long long lo = (unsigned long long)u;
  unsigned long long mid = (unsigned long long)(u >> 64);
  unsigned top = (unsigned)(u >> 128) & 1u;
  std::printf("%s top=%u hi=%016llx lo=%016llx\n", what, top, mid, lo);
}

static void print37(const char *what, i37 v) {
  std::printf("%s %lld\n", what, (long long)v);
}

Gen<i37> seq37(i37 start, u7 step, int n) {
  i37 acc = start;
  u7 s = step;
  for (int i = 0; i < n; ++i) {
    co_yield acc;
    acc = (acc % 3000000000) * 3 + (i37)s; // stays in range: no overflow
    s = s + 45;                             // wraps modulo 128
  }
  co_yield (i37)s;
}

Gen<u7> wrap7(u7 a) {
  u7 x = a;
  for (int i = 0; i < 6; ++i) {
    x = x * 5 + 3;
    co_yield x;
  }
}

Lazy<i129> wide(i129 a, i37 b, u7 c, i129 d) {
  // Wrapping arithmetic in the unsigned type: no signed overflow.
  u129 acc = (u129)a;
  co_await std::suspend_always{};
  acc = acc * (u129)b;
  u129 shifted = (u129)d << 70;
  co_await std::suspend_always{};
  acc += shifted;
  acc ^= (u129)c << 120;
  co_await std::suspend_always{};
  u129 neg = -acc;
  co_await std::suspend_always{};
  co_return (i129)(neg + (u129)((i129)b * (i129)c));
}

int main() {
  {
    Gen<i37> g = seq37((i37)-123456789, (u7)100, 10);
    int k = 0;
    while (g.next())
      std::printf("seq37[%d] %lld\n", k++, (long long)g.value());
  }
  {
    Gen<u7> g = wrap7((u7)77);
    while (g.next())
      std::printf("wrap7 %u\n", (unsigned)g.value());
  }
  {
    i129 big = ((i129)0x123456789abcdefLL << 64) | (i129)0xfedcba9876543210ULL;
    Lazy<i129> t = wide(big, (i37)-34359738367LL, (u7)127, (i129)-5);
    i129 r = t.run();
    print129("wide", r);
    print37("low37 of wide", (i37)r);
  }
  {
    Lazy<i129> t = wide((i129)1, (i37)1, (u7)0, (i129)1);
    print129("one", t.run());
  }
  return 0;
}
