// Coroutines with function-local statics (a counter, a lazily
// initialised std::string), thread_local locals and globals
// (thread_local with a non-trivial initialiser), and globals modified by
// main between resumptions: each value is read again after every
// resumption, so a copy cached in the frame would show.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

int g_plain = 1;
volatile int g_volatile = 10;
thread_local int t_counter = 100;
thread_local std::string t_name = std::string("tls-") + "init";
static long g_array[4] = {1, 2, 3, 4};

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
};

Gen reader(int id) {
  static int calls = 0;
  static std::string label = "label#" + std::to_string(id);
  thread_local int tl_local = 7;
  ++calls;
  for (int i = 0; i < 4; ++i) {
    ++tl_local;
    ++t_counter;
    co_yield g_plain * 1000 + g_volatile;
    std::printf("  [%d] calls %d label %s tl_local %d t_counter %d %s\n", id,
                calls, label.c_str(), tl_local, t_counter, t_name.c_str());
    co_yield g_array[i % 4] + g_plain;
    t_name += std::to_string(id);
  }
}

Gen pointer_to_global() {
  int *p = &g_plain;
  int *tp = &t_counter;
  long snapshot = *p;
  co_yield snapshot;
  co_yield *p - snapshot;
  *p += 5;
  *tp -= 50;
  co_yield *p;
}

int main() {
  Gen a = reader(1);
  Gen b = reader(2);
  int round = 0;
  bool more = true;
  while (more) {
    more = false;
    if (a.next()) {
      std::printf("a %ld\n", a.h.promise().value);
      more = true;
    }
    g_plain += 3;
    g_volatile = g_volatile * 2 % 1000;
    g_array[round % 4] *= -2;
    if (b.next()) {
      std::printf("b %ld\n", b.h.promise().value);
      more = true;
    }
    ++round;
  }
  Gen c = pointer_to_global();
  while (c.next()) {
    std::printf("c %ld\n", c.h.promise().value);
    g_plain *= 2;
  }
  std::printf("end g_plain %d t_counter %d t_name %s\n", g_plain, t_counter,
              t_name.c_str());
  return 0;
}
