// A 64-byte struct passed by value in memory (byval in clang's IR): the
// coroutine copies it into its frame, the caller's argument slot dies when
// the ramp returns, and later resumptions read only the frame's copy.
#include <coroutine>
#include <cstdio>
#include <cstring>
#include <exception>

struct Big {
  long v[8];
};

struct Gen {
  struct promise_type {
    long out = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) noexcept {
      out = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

Gen walk(Big b, int stride, Big other) {
  for (int i = 0; i < 8; ++i) {
    co_yield b.v[(i * stride) % 8];
    b.v[i] += other.v[7 - i];
  }
  long sum = 0;
  for (long x : b.v)
    sum += x;
  co_yield sum;
}

[[gnu::noinline]] Gen make(int seed) {
  Big b, o;
  for (int i = 0; i < 8; ++i) {
    b.v[i] = seed * 100 + i;
    o.v[i] = i * i;
  }
  Gen g = walk(b, 3, o);
  std::memset(&b, 0xff, sizeof b);
  std::memset(&o, 0xff, sizeof o);
  return g;
}

[[gnu::noinline]] long clobber_stack(int n) {
  volatile long junk[64];
  for (int i = 0; i < 64; ++i)
    junk[i] = n * i;
  return junk[n % 64];
}

int main() {
  Gen g = make(4);
  clobber_stack(5);
  for (g.h.resume(); !g.h.done(); g.h.resume()) {
    std::printf("%ld ", g.h.promise().out);
    clobber_stack(7);
  }
  std::printf("\n");
  g.h.destroy();
  return 0;
}
