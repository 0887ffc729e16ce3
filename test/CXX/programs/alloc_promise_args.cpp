// A promise operator new that receives the coroutine's arguments (size
// first, then every parameter): the frame comes from a pool the caller
// passes as the first argument; operator delete returns it to that pool
// through a header written before the frame.
#include <coroutine>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>

struct Pool {
  const char *name;
  int live = 0, total = 0;
};

struct Header {
  Pool *pool;
  alignas(std::max_align_t) unsigned char pad[1];
};

// Every handle escapes through a volatile store and every coroutine is
// noinline, so no optimizer may elide a frame's allocation (LLVM's
// CoroElide, coro's --coro-elide): the counts are the same at every -O
// level and under both routes.
static void *volatile escaped;

struct Gen {
  struct promise_type {
    int value = 0;
    static void *operator new(std::size_t size, Pool &pool, int) {
      ++pool.live;
      ++pool.total;
      void *raw = std::malloc(size + offsetof(Header, pad));
      static_cast<Header *>(raw)->pool = &pool;
      return static_cast<unsigned char *>(raw) + offsetof(Header, pad);
    }
    static void operator delete(void *p) {
      void *raw = static_cast<unsigned char *>(p) - offsetof(Header, pad);
      --static_cast<Header *>(raw)->pool->live;
      std::free(raw);
    }
    promise_type(Pool &pool, int n) : value(-n) {
      std::printf("promise from %s, n=%d\n", pool.name, n);
    }
    Gen get_return_object() {
      auto h = std::coroutine_handle<promise_type>::from_promise(*this);
      escaped = h.address();
      return Gen{h};
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

[[gnu::noinline]] Gen numbers(Pool &, int n) {
  for (int i = 0; i < n; ++i)
    co_yield i *n;
}

int main() {
  Pool a{"pool-a"}, b{"pool-b"};
  Gen x = numbers(a, 3);
  Gen y = numbers(b, 4);
  Gen z = numbers(a, 5);
  std::printf("before: %s %d, %s %d, first value %d\n", a.name, a.live, b.name,
              b.live, x.h.promise().value);
  int sum = 0;
  for (Gen *g : {&x, &y, &z})
    for (g->h.resume(); !g->h.done(); g->h.resume())
      sum += g->h.promise().value;
  x.h.destroy();
  std::printf("after x: %s live %d\n", a.name, a.live);
  y.h.destroy();
  z.h.destroy();
  std::printf("sum %d; %s live %d total %d; %s live %d total %d\n", sum, a.name,
              a.live, a.total, b.name, b.live, b.total);
  return 0;
}
