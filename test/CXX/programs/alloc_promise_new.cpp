// A promise with its own operator new and sized operator delete: every
// frame is allocated and freed through them (counted per coroutine kind),
// the size given to delete is the size given to new, and the frames come
// from a small bump arena rather than malloc.
#include <coroutine>
#include <cstddef>
#include <cstdio>
#include <exception>

alignas(std::max_align_t) static unsigned char arena[1 << 16];
static std::size_t arena_used = 0;
static int news = 0, deletes = 0, size_mismatch = 0, outside = 0;
static std::size_t last_size[16];

// Every handle escapes through a volatile store and every coroutine is
// noinline, so no optimizer may elide a frame's allocation (LLVM's
// CoroElide, coro's --coro-elide): the counts are the same at every -O
// level and under both routes.
static void *volatile escaped;

struct Co {
  struct promise_type {
    int value = 0;
    static void *operator new(std::size_t size) {
      std::size_t at = (arena_used + 15) & ~std::size_t(15);
      arena_used = at + size;
      last_size[news % 16] = size;
      ++news;
      return arena + at;
    }
    static void operator delete(void *p, std::size_t size) {
      unsigned char *b = static_cast<unsigned char *>(p);
      if (b < arena || b >= arena + sizeof arena)
        ++outside;
      if (size != last_size[deletes % 16])
        ++size_mismatch;
      ++deletes;
    }
    Co get_return_object() {
      auto h = std::coroutine_handle<promise_type>::from_promise(*this);
      escaped = h.address();
      return Co{h};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

[[gnu::noinline]] Co small(int n) {
  for (int i = 0; i < n; ++i)
    co_yield i;
}

[[gnu::noinline]] Co large(int seed) {
  int table[64];
  for (int i = 0; i < 64; ++i)
    table[i] = seed * i;
  for (int i = 0; i < 64; i += 9)
    co_yield table[i];
}

int main() {
  long sum = 0;
  for (int round = 0; round < 4; ++round) {
    Co a = small(3 + round);
    Co b = large(round + 1);
    for (a.h.resume(); !a.h.done(); a.h.resume())
      sum += a.h.promise().value;
    for (b.h.resume(); !b.h.done(); b.h.resume())
      sum += b.h.promise().value;
    a.h.destroy();
    b.h.destroy();
  }
  std::printf("sum %ld news %d deletes %d\n", sum, news, deletes);
  std::printf("size mismatches %d, outside the arena %d\n", size_mismatch,
              outside);
  std::printf("large frame bigger than small: %s\n",
              last_size[1] > last_size[0] ? "yes" : "no");
  return 0;
}
