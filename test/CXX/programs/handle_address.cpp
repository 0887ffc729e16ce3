// coroutine_handle::address / from_address round trips: handles stored as
// void* in a C-style callback table and resumed from there, promise access
// through from_promise and from_address, conversion to
// coroutine_handle<void>, comparison and hashing-free identity.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Co {
  struct promise_type {
    int id = 0;
    int steps = 0;
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

using Handle = std::coroutine_handle<Co::promise_type>;

// A C-like event table: callbacks take an opaque context pointer.
struct Callback {
  void (*fn)(void *);
  void *ctx;
};
static Callback table[32];
static int ntable = 0;

static void resume_from_c(void *ctx) {
  std::coroutine_handle<>::from_address(ctx).resume();
}

struct Register {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept {
    table[ntable++] = Callback{resume_from_c, h.address()};
  }
  void await_resume() const noexcept {}
};

struct Self {
  bool await_ready() const noexcept { return false; }
  bool await_suspend(Handle h) noexcept {
    self = h;
    return false;
  }
  Handle await_resume() const noexcept { return self; }
  Handle self;
};

Co worker(int id, int n) {
  Handle me = co_await Self{};
  me.promise().id = id;
  for (int i = 0; i < n; ++i) {
    ++Handle::from_address(me.address()).promise().steps;
    co_await Register{};
  }
}

int main() {
  Co a = worker(1, 3), b = worker(2, 2);
  void *pa = a.h.address();
  Handle back = Handle::from_address(pa);
  std::printf("round trip equal: %d\n", (int)(back == a.h));
  std::coroutine_handle<> erased = b.h;
  std::printf("erased equals: %d, differs from a: %d\n",
              (int)(erased.address() == b.h.address()), (int)(erased != a.h));
  std::printf("promise round trip: %d\n",
              (int)(Handle::from_promise(a.h.promise()) == a.h));
  table[ntable++] = Callback{resume_from_c, pa};
  table[ntable++] = Callback{resume_from_c, erased.address()};
  for (int i = 0; i < ntable; ++i)
    table[i].fn(table[i].ctx);
  std::printf("callbacks run %d\n", ntable);
  std::printf("a: id %d steps %d done %d\n", a.h.promise().id,
              a.h.promise().steps, (int)a.h.done());
  std::printf("b: id %d steps %d done %d\n", b.h.promise().id,
              b.h.promise().steps, (int)b.h.done());
  std::printf("null handle: %d\n",
              (int)(std::coroutine_handle<>::from_address(nullptr) == nullptr));
  a.h.destroy();
  b.h.destroy();
  return 0;
}
