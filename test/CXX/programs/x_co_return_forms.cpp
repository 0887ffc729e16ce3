// The forms of co_return: a templated return_value (the argument's type
// picks what is stored: int, const char *, std::string, a braced list
// converted to std::vector), co_return of a braced initializer list,
// co_return of a 1 KB std::array returned by the task, co_return of a
// move-only object, `co_return expr;` where expr is a void call in a
// return_void coroutine, co_return whose operand itself contains
// co_awaits, and co_return from inside nested scopes with live
// destructors (the order printed).
#include <array>
#include <coroutine>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

struct Tracked {
  const char *n;
  explicit Tracked(const char *n) : n(n) {}
  ~Tracked() { std::printf("  ~%s\n", n); }
};

template <typename T> class Task {
public:
  struct promise_type {
    T result{};
    std::string how;
    std::coroutine_handle<> continuation = std::noop_coroutine();
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().continuation;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    template <typename U> void return_value(U &&v) {
      using D = std::decay_t<U>;
      if constexpr (std::is_same_v<D, const char *>)
        how = "cstr";
      else if constexpr (std::is_same_v<D, std::string>)
        how = std::is_rvalue_reference_v<U &&> ? "string&&" : "string&";
      else if constexpr (std::is_same_v<D, int>)
        how = "int";
      else
        how = "other";
      result = T(std::forward<U>(v));
    }
    template <typename E> void return_value(std::initializer_list<E> il) {
      how = "list";
      result = T(il);
    }
    void unhandled_exception() { std::terminate(); }
  };
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> a) {
    h.promise().continuation = a;
    return h;
  }
  T await_resume() { return std::move(h.promise().result); }
  const std::string &how() const { return h.promise().how; }
  T run() {
    h.resume();
    return std::move(h.promise().result);
  }

private:
  std::coroutine_handle<promise_type> h;
};

// return_void flavour, with `co_return void_call();`
class VoidTask {
public:
  struct promise_type {
    std::coroutine_handle<> continuation = std::noop_coroutine();
    VoidTask get_return_object() {
      return VoidTask(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().continuation;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_void() { std::printf("  return_void\n"); }
    void unhandled_exception() { std::terminate(); }
  };
  explicit VoidTask(std::coroutine_handle<promise_type> h) : h(h) {}
  VoidTask(VoidTask &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~VoidTask() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> a) {
    h.promise().continuation = a;
    return h;
  }
  void await_resume() {}

private:
  std::coroutine_handle<promise_type> h;
};

static int side = 0;
void bump(int by) { side += by; }

Task<std::string> from_cstr() { co_return "literal"; }
Task<std::string> from_lvalue() {
  std::string s = "lvalue-string-that-is-not-short";
  co_await std::suspend_never{};
  co_return s; // implicitly movable: return_value sees an rvalue
}
Task<std::string> from_named_ref(std::string &ext) { co_return ext; }
Task<long> from_int() { co_return 7; }
Task<std::vector<int>> braced() { co_return {1, 2, 3, 5, 8}; }
Task<std::array<long, 128>> big() {
  std::array<long, 128> a{};
  for (int i = 0; i < 128; ++i)
    a[i] = static_cast<long>(i) * i;
  co_await std::suspend_never{};
  co_return a;
}
Task<std::unique_ptr<std::string>> owning() {
  auto p = std::make_unique<std::string>("owned");
  co_return std::move(p);
}
VoidTask void_call(int n) {
  Tracked t("void_call");
  co_return bump(n);
}
Task<int> value_of(int v) { co_return v; }
Task<int> awaits_in_return(int v) {
  co_return co_await value_of(v) * 10 + co_await value_of(v + 1);
}
Task<int> nested_exit(int sel) {
  Tracked a("outer");
  for (int i = 0;; ++i) {
    Tracked b("loop");
    {
      Tracked c("inner");
      int got = co_await value_of(i);
      if (got == sel)
        co_return got * 100;
    }
  }
}

Task<int> top() {
  std::string ext = "external";
  auto t1 = from_cstr();
  auto t2 = from_lvalue();
  auto t3 = from_named_ref(ext);
  auto t4 = from_int();
  std::string r1 = co_await t1, r2 = co_await t2, r3 = co_await t3;
  long r4 = co_await t4;
  std::printf("%s/%s %s/%s %s/%s %ld/%s\n", r1.c_str(), t1.how().c_str(),
              r2.c_str(), t2.how().c_str(), r3.c_str(), t3.how().c_str(), r4,
              t4.how().c_str());
  std::vector<int> v = co_await braced();
  int vs = 0;
  for (int x : v)
    vs += x;
  std::array<long, 128> a = co_await big();
  long as = 0;
  for (long x : a)
    as += x;
  std::unique_ptr<std::string> p = co_await owning();
  std::printf("braced %d big %ld owning %s\n", vs, as, p->c_str());
  co_await void_call(5);
  co_await void_call(6);
  std::printf("side %d\n", side);
  int w = co_await awaits_in_return(4);
  std::printf("awaits in return %d\n", w);
  int n = co_await nested_exit(2);
  std::printf("nested exit %d\n", n);
  co_return w + n;
}

int main() {
  Task<int> t = top();
  std::printf("top %d\n", t.run());
  return 0;
}
