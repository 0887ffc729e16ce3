// A coroutine with 64 suspension points written out one by one (and 8
// locals alive across all of them): the resume index takes 66 values, the
// frame keeps every local; main reads every yield and checks the count.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Gen {
  struct promise_type {
    long value = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

Gen many(long x) {
  long a0 = x, a1 = x + 1, a2 = x * 2, a3 = 7, a4 = -x, a5 = 99, a6 = x % 5,
       a7 = 1;
  // One suspension point a line: clang-format would split each in two.
  // clang-format off
  x = x + 11; co_yield x + a0;
  x = x ^ 48; co_yield x + a1;
  x = x * 3 % 1000003; co_yield x + a2;
  x = x - 25; co_yield x + a3;
  x = x + 62; co_yield x + a4;
  x = x ^ 2; co_yield x + a5;
  x = x * 6 % 1000003; co_yield x + a6;
  x = x - 76; co_yield x + a7;
  x = x + 16; co_yield x + a0;
  x = x ^ 53; co_yield x + a1;
  x = x * 8 % 1000003; co_yield x + a2;
  x = x - 30; co_yield x + a3;
  x = x + 67; co_yield x + a4;
  x = x ^ 7; co_yield x + a5;
  x = x * 4 % 1000003; co_yield x + a6;
  x = x - 81; co_yield x + a7;
  x = x + 21; co_yield x + a0;
  x = x ^ 58; co_yield x + a1;
  x = x * 6 % 1000003; co_yield x + a2;
  x = x - 35; co_yield x + a3;
  x = x + 72; co_yield x + a4;
  x = x ^ 12; co_yield x + a5;
  x = x * 2 % 1000003; co_yield x + a6;
  x = x - 86; co_yield x + a7;
  x = x + 26; co_yield x + a0;
  x = x ^ 63; co_yield x + a1;
  x = x * 5 % 1000003; co_yield x + a2;
  x = x - 40; co_yield x + a3;
  x = x + 77; co_yield x + a4;
  x = x ^ 17; co_yield x + a5;
  x = x * 7 % 1000003; co_yield x + a6;
  x = x - 91; co_yield x + a7;
  x = x + 31; co_yield x + a0;
  x = x ^ 68; co_yield x + a1;
  x = x * 3 % 1000003; co_yield x + a2;
  x = x - 45; co_yield x + a3;
  x = x + 82; co_yield x + a4;
  x = x ^ 22; co_yield x + a5;
  x = x * 5 % 1000003; co_yield x + a6;
  x = x - 96; co_yield x + a7;
  x = x + 36; co_yield x + a0;
  x = x ^ 73; co_yield x + a1;
  x = x * 8 % 1000003; co_yield x + a2;
  x = x - 50; co_yield x + a3;
  x = x + 87; co_yield x + a4;
  x = x ^ 27; co_yield x + a5;
  x = x * 3 % 1000003; co_yield x + a6;
  x = x - 4; co_yield x + a7;
  x = x + 41; co_yield x + a0;
  x = x ^ 78; co_yield x + a1;
  x = x * 6 % 1000003; co_yield x + a2;
  x = x - 55; co_yield x + a3;
  x = x + 92; co_yield x + a4;
  x = x ^ 32; co_yield x + a5;
  x = x * 8 % 1000003; co_yield x + a6;
  x = x - 9; co_yield x + a7;
  x = x + 46; co_yield x + a0;
  x = x ^ 83; co_yield x + a1;
  x = x * 4 % 1000003; co_yield x + a2;
  x = x - 60; co_yield x + a3;
  x = x + 0; co_yield x + a4;
  x = x ^ 37; co_yield x + a5;
  x = x * 6 % 1000003; co_yield x + a6;
  x = x - 14; co_yield x + a7;
  // clang-format on
}

int main() {
  Gen g = many(5);
  long check = 0;
  int n = 0;
  for (g.h.resume(); !g.h.done(); g.h.resume()) {
    check = (check * 131 + g.h.promise().value) % 1000000007;
    ++n;
  }
  std::printf("%d yields, checksum %ld\n", n, check);
  g.h.destroy();
  Gen partial = many(9);
  for (int i = 0; i < 33; ++i)
    partial.h.resume();
  std::printf("33rd value %ld\n", partial.h.promise().value);
  partial.h.destroy();
  return 0;
}
