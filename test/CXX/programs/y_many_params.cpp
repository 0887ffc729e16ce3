// A coroutine with 24 parameters of mixed types: ints, int64, doubles and
// floats beyond the registers that carry them (so some arrive on the
// stack), 8- and 16-byte structs passed in registers, a 40-byte struct
// and a struct with a double and an int passed by value, a std::string
// and a reference. Every parameter is read after several suspensions,
// and a member coroutine with the same list is called through a pointer.
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

struct S8 {
  int a;
  short b;
  char c;
};
struct S16 {
  double d;
  long l;
};
struct S40 {
  long v[5];
};
struct SDI {
  double d;
  int i;
};

struct Task {
  struct promise_type {
    double result = 0;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(double v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  double run() {
    int n = 0;
    while (!h.done()) {
      h.resume();
      ++n;
    }
    std::printf("  resumed %d times\n", n);
    return h.promise().result;
  }
};

#define PARAMS                                                               \
  int i1, double d1, std::int64_t l1, float f1, S8 s8, int i2, double d2,    \
      S16 s16, std::int64_t l2, double d3, int i3, S40 s40, float f2,        \
      double d4, std::int64_t l3, double d5, int i4, double d6, SDI sdi,     \
      double d7, std::int64_t l4, double d8, const std::string &str,         \
      double d9

#define BODY                                                                 \
  co_await std::suspend_always{};                                            \
  std::printf("  ints %d %d %d %d\n", i1, i2, i3, i4);                       \
  co_await std::suspend_always{};                                            \
  std::printf("  longs %lld %lld %lld %lld\n", (long long)l1, (long long)l2, \
              (long long)l3, (long long)l4);                                 \
  co_await std::suspend_always{};                                            \
  std::printf("  doubles %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n",    \
              d1, d2, d3, d4, d5, d6, d7, d8, d9);                           \
  std::printf("  floats %.3f %.3f\n", f1, f2);                               \
  co_await std::suspend_always{};                                            \
  std::printf("  s8 %d %d %d s16 %.2f %ld\n", s8.a, s8.b, s8.c, s16.d,       \
              s16.l);                                                        \
  std::printf("  s40 %ld %ld %ld %ld %ld sdi %.2f %d\n", s40.v[0], s40.v[1], \
              s40.v[2], s40.v[3], s40.v[4], sdi.d, sdi.i);                   \
  co_await std::suspend_always{};                                            \
  std::printf("  str %s\n", str.c_str());                                    \
  co_return i1 + d1 + (double)l1 + f1 + s8.a + s8.b + s8.c + i2 + d2 +       \
      s16.d + (double)s16.l + (double)l2 + d3 + i3 + (double)s40.v[0] +      \
      (double)s40.v[4] + f2 + d4 + (double)l3 + d5 + i4 + d6 + sdi.d +       \
      sdi.i + d7 + (double)l4 + d8 + (double)str.size() + d9;

Task many(PARAMS) { BODY }

struct Holder {
  int bias;
  Task member(PARAMS) {
    int b = bias;
    co_await std::suspend_always{};
    std::printf("  bias %d\n", b);
    BODY
  }
};

int main() {
  std::string s = "a string parameter";
  S40 big{{1000, 2000, 3000, 4000, 5000}};
  std::printf("free:\n");
  {
    Task t = many(1, 1.5, 10000000000LL, 0.25f, S8{7, -3, 'x'}, 2, 2.5,
                  S16{3.25, -99}, -20000000000LL, 3.5, 3, big, 0.75f, 4.5,
                  30000000000LL, 5.5, 4, 6.5, SDI{7.75, 77}, 7.5, -4, 8.5, s,
                  9.5);
    std::printf("sum %.3f\n", t.run());
  }
  std::printf("member through a pointer:\n");
  {
    Holder hold{5};
    Task (Holder::*pm)(PARAMS) = &Holder::member;
    big.v[4] = -1;
    Task t = (hold.*pm)(-1, -1.5, 1, -0.25f, S8{-7, 3, 'y'}, -2, -2.5,
                        S16{-3.25, 99}, 2, -3.5, -3, big, -0.75f, -4.5, 3,
                        -5.5, -4, -6.5, SDI{-7.75, -77}, -7.5, 4, -8.5, s,
                        -9.5);
    std::printf("sum %.3f\n", t.run());
  }
  return 0;
}
