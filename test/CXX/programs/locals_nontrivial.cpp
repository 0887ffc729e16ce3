// Coroutine locals with non-trivial constructors and destructors live
// across suspensions: strings that grow, an owning buffer, objects in
// nested scopes and in loop bodies, temporaries in a full expression that
// contains a co_await (destroyed after the resume), and a lifetime log.
#include <coroutine>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

static int alive = 0;

struct Buffer {
  char *data;
  std::size_t len;
  explicit Buffer(const char *s) : data(new char[std::strlen(s) + 1]) {
    std::strcpy(data, s);
    len = std::strlen(s);
    ++alive;
  }
  Buffer(const Buffer &) = delete;
  ~Buffer() {
    std::printf("[free %s]", data);
    delete[] data;
    --alive;
  }
};

struct Co {
  struct promise_type {
    std::string out;
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(const std::string &s) {
      out = s;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

static std::string concat(const Buffer &a, const std::string &b) {
  return std::string(a.data) + b;
}

Co body() {
  std::string s = "start";
  Buffer outer("outer");
  co_yield s;
  for (int i = 0; i < 3; ++i) {
    Buffer loop(("loop" + std::to_string(i)).c_str());
    s += "-" + std::to_string(i);
    co_yield concat(loop, s);
    if (i == 1) {
      Buffer inner("inner");
      co_yield concat(inner, "/" + s);
    }
  }
  co_yield concat(Buffer("temp"), s) + std::to_string(alive);
  std::string big(100, 'x');
  co_yield big.substr(0, 3) + std::to_string(outer.len);
}

int main() {
  Co c = body();
  for (c.h.resume(); !c.h.done(); c.h.resume())
    std::printf(" -> %s (alive %d)\n", c.h.promise().out.c_str(), alive);
  std::printf("\nafter end: alive %d\n", alive);
  c.h.destroy();
  Co d = body();
  for (int i = 0; i < 4; ++i)
    d.h.resume();
  std::printf(" destroying mid-way:");
  d.h.destroy();
  std::printf("\nafter destroy: alive %d\n", alive);
  return 0;
}
