// By-value parameters of coroutines as clang passes them: a 16-byte
// struct in two registers (stored into an alloca before llvm.coro.begin)
// and an over-aligned struct passed byval (a pointer to the caller's
// copy), read after suspensions (the generator) and in an eager coroutine.
#include <coroutine>
#include <cstdio>
struct P2 {
  long a, b;
};
struct Al {
  alignas(64) long v[4];
};
struct eager {
  struct promise_type {
    int *out;
    eager get_return_object() { return {}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
};
eager run(int *out, P2 p, Al al) {
  *out = (int)(p.a + p.b + al.v[3]);
  co_return;
}
struct gen {
  struct promise_type {
    long value = 0;
    gen get_return_object() {
      return gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept {}
  };
  std::coroutine_handle<promise_type> h;
};
gen g2(P2 p, Al al) {
  co_yield p.a;
  co_yield p.b;
  co_yield al.v[3];
}
int main() {
  int out = 0;
  Al al{};
  al.v[3] = 100;
  run(&out, P2{1, 2}, al);
  gen g = g2(P2{5, 6}, al);
  long s = 0;
  for (g.h.resume(); !g.h.done(); g.h.resume())
    s += g.h.promise().value;
  g.h.destroy();
  std::printf("%d %ld\n", out, s);
}
