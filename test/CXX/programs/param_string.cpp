// A std::string parameter by value (non-trivial: passed by address, moved
// into the frame), plus a const reference and a string built from both,
// all used across suspensions; moved-from and destroyed strings are logged
// by a wrapper type.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

struct Name {
  std::string s;
  explicit Name(std::string v) : s(std::move(v)) {}
  Name(const Name &o) : s(o.s) { std::printf("copy %s\n", s.c_str()); }
  Name(Name &&o) noexcept : s(std::move(o.s)) {
    std::printf("move %s\n", s.c_str());
  }
  ~Name() { std::printf("drop '%s'\n", s.c_str()); }
};

struct Gen {
  struct promise_type {
    std::string out;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(std::string v) noexcept {
      out = std::move(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

Gen greet(std::string who, Name tag, const std::string &suffix) {
  std::string line = "hello, " + who;
  co_yield line;
  who += " the long-named person beyond the small buffer";
  co_yield who + suffix;
  co_yield tag.s + "/" + std::to_string(who.size());
}

int main() {
  std::string suffix = "!";
  std::string who = "world";
  Gen g = greet(who, Name("tagged"), suffix);
  who = "changed";
  std::printf("ramp returned\n");
  for (g.h.resume(); !g.h.done(); g.h.resume())
    std::printf("[%s]\n", g.h.promise().out.c_str());
  std::printf("destroying\n");
  g.h.destroy();
  std::printf("caller still has %s\n", who.c_str());
  return 0;
}
