// Scalar parameters by value: int, long long, double, char, bool and a
// pointer, copied into the frame and read after every suspension; the
// caller's variables change in between, the frame's copies must not.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Steps {
  struct promise_type {
    double out = 0;
    Steps get_return_object() {
      return Steps{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(double v) noexcept {
      out = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

Steps mix(int i, long long big, double d, char c, bool flag, const int *p,
          unsigned short us, float f) {
  for (int k = 0; k < 3; ++k) {
    co_yield i + k;
    co_yield static_cast<double>(big % 1000003) + k;
    co_yield d *(k + 1);
    co_yield c + flag + *p + us;
    co_yield static_cast<double>(f) * 2;
    i *= 2;
    big += i;
  }
}

int main() {
  int i = 7, x = 100;
  long long big = 1234567890123LL;
  double d = 2.25;
  char c = 'A';
  unsigned short us = 65535;
  float f = 1.5f;
  Steps s = mix(i, big, d, c, true, &x, us, f);
  i = big = 0;
  d = 0;
  c = 0;
  f = 0;
  us = 0;
  int n = 0;
  for (s.h.resume(); !s.h.done(); s.h.resume()) {
    std::printf("%g ", s.h.promise().out);
    if (++n == 7)
      x = 200;
  }
  std::printf("\n%d values\n", n);
  s.h.destroy();
  return 0;
}
