// Frames destroyed while suspended, at each of their suspension points in
// turn: destroy() must run the destructors of exactly the locals alive at
// that point (in reverse order), then the promise's and the parameters'.
// The promise is an aggregate, so C++20 initializes it from the parameter
// copies (parenthesized aggregate init): its Loud is a copy of the param's
// copy (id 200 + stop), the frame's param copy has id 100 + stop.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Loud {
  const char *name;
  int id;
  Loud(const char *n, int i) : name(n), id(i) {}
  Loud(const Loud &o) : name(o.name), id(o.id + 100) {}
  ~Loud() { std::printf("  ~%s%d", name, id); }
};

struct Co {
  struct promise_type {
    Loud p{"promise", 0};
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

Co staged(Loud param) {
  Loud a("a", param.id);
  co_await std::suspend_always{};
  {
    Loud b("b", 2);
    co_await std::suspend_always{};
    Loud c("c", 3);
    co_await std::suspend_always{};
  }
  Loud d("d", 4);
  for (int i = 0; i < 2; ++i) {
    Loud e("e", 50 + i);
    co_await std::suspend_always{};
  }
  co_await std::suspend_always{};
}

int main() {
  for (int stop = 0; stop <= 7; ++stop) {
    std::printf("stop after %d resumes:", stop);
    Co c = staged(Loud("param", stop));
    std::printf(" |");
    for (int i = 0; i < stop && !c.h.done(); ++i)
      c.h.resume();
    std::printf(" | done=%d destroy:", (int)c.h.done());
    c.h.destroy();
    std::printf("\n");
  }
  return 0;
}
