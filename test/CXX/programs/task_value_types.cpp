// Tasks returning non-trivial values: a std::string, a struct with a
// string member, and a move-only owner, through return_value(T&&). The
// promise's get_return_object returns a different type that converts to
// the coroutine's return type (clang keeps that object outside the frame).
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

template <typename T> class Task {
public:
  struct promise_type;
  using Handle = std::coroutine_handle<promise_type>;
  struct Pending {
    Handle h;
    Pending(Handle h) : h(h) { std::printf("pending made\n"); }
  };
  struct promise_type {
    T value{};
    Pending get_return_object() { return Pending(Handle::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(T &&v) { value = std::move(v); }
    void unhandled_exception() { std::terminate(); }
  };
  Task(Pending p) : h(p.h) { std::printf("task converted\n"); }
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  T get() {
    while (!h.done())
      h.resume();
    return std::move(h.promise().value);
  }

private:
  Handle h;
};

struct Record {
  std::string name;
  int score = 0;
};

struct Owner {
  int *p = nullptr;
  Owner() = default;
  explicit Owner(int v) : p(new int(v)) {}
  Owner(Owner &&o) noexcept : p(std::exchange(o.p, nullptr)) {}
  Owner &operator=(Owner &&o) noexcept {
    std::swap(p, o.p);
    return *this;
  }
  ~Owner() { delete p; }
};

Task<std::string> shout(std::string s) {
  co_await std::suspend_always{};
  for (char &c : s)
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 32);
  co_return s + "!!";
}

Task<Record> record(const char *who, int base) {
  Record r{who, base};
  for (int i = 0; i < 3; ++i) {
    co_await std::suspend_always{};
    r.score = r.score * 2 + i;
  }
  co_return std::move(r);
}

Task<Owner> own(int v) {
  Owner o(v);
  co_await std::suspend_always{};
  *o.p += 1;
  co_return std::move(o);
}

int main() {
  Task<std::string> t = shout("quiet words that are long enough to allocate");
  std::printf("%s\n", t.get().c_str());
  Record r = record("player", 5).get();
  std::printf("%s %d\n", r.name.c_str(), r.score);
  Owner o = own(41).get();
  std::printf("owned %d\n", *o.p);
  return 0;
}
