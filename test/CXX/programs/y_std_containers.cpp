// Standard-library objects live across suspensions: range-for over a
// std::vector and a std::map with co_yield in the body (the iterators in
// the frame), a std::string_view, a std::unique_ptr<int[]>, a
// std::shared_ptr whose use count changes while the coroutine is
// suspended, and a std::function captured before a suspension and called
// after each resumption.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct Gen {
  struct promise_type {
    std::string current;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(std::string v) noexcept {
      current = std::move(v);
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
  const std::string &value() const { return h.promise().current; }
};

Gen walk(std::vector<int> v, const std::map<std::string, int> &m,
         std::string_view sv) {
  int idx = 0;
  for (int x : v) {
    co_yield "vec[" + std::to_string(idx++) + "]=" + std::to_string(x);
    if (x < 0)
      continue;
    co_yield "  sq " + std::to_string(x * x);
  }
  for (const auto &[k, val] : m) {
    co_yield "map " + k + " -> " + std::to_string(val);
  }
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    co_yield "rev " + it->first;
  std::string_view rest = sv;
  while (!rest.empty()) {
    auto sp = rest.find(' ');
    std::string_view word = rest.substr(0, sp);
    co_yield "word '" + std::string(word) + "'";
    rest = sp == std::string_view::npos ? std::string_view{}
                                        : rest.substr(sp + 1);
  }
}

Gen owners(std::shared_ptr<std::string> sp, std::unique_ptr<int[]> arr,
           int n, std::function<int(int)> fn) {
  std::shared_ptr<std::string> local = sp;
  co_yield "use_count " + std::to_string(local.use_count());
  sp.reset();
  co_yield "use_count after reset " + std::to_string(local.use_count());
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    arr[i] = fn(arr[i]);
    co_yield "arr[" + std::to_string(i) + "]=" + std::to_string(arr[i]);
    sum += arr[i];
  }
  std::function<std::string()> later = [local, sum] {
    return *local + ":" + std::to_string(sum);
  };
  co_yield "later " + later();
  *local += "!";
  co_yield "later again " + later() + " count " +
      std::to_string(local.use_count());
}

int main() {
  std::map<std::string, int> m{{"pear", 3}, {"apple", 1}, {"fig", 2}};
  std::string text = "the quick  brown fox";
  {
    Gen g = walk({5, -1, 0, 12, -7}, m, text);
    while (g.next())
      std::printf("%s\n", g.value().c_str());
  }
  auto shared = std::make_shared<std::string>("shared");
  std::weak_ptr<std::string> watch = shared;
  {
    std::unique_ptr<int[]> arr(new int[4]{1, 2, 3, 4});
    int k = 3;
    Gen g = owners(shared, std::move(arr), 4,
                   [k](int x) { return x * k + 1; });
    std::printf("main count %ld\n", shared.use_count());
    bool first = true;
    while (g.next()) {
      std::printf("%s\n", g.value().c_str());
      if (first) {
        shared.reset();
        first = false;
      }
    }
    std::printf("expired before destroy: %d\n", (int)watch.expired());
  }
  std::printf("expired after destroy: %d\n", (int)watch.expired());
  return 0;
}
