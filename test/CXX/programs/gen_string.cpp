// A generator of std::string values: words split from a sentence, each
// built in the coroutine and moved into the promise; a local string lives
// across every suspension.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

class StrGen {
public:
  struct promise_type {
    std::string value;
    StrGen get_return_object() {
      return StrGen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(std::string v) noexcept {
      value = std::move(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit StrGen(std::coroutine_handle<promise_type> h) : h(h) {}
  StrGen(const StrGen &) = delete;
  ~StrGen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  std::string take() { return std::move(h.promise().value); }

private:
  std::coroutine_handle<promise_type> h;
};

StrGen words(std::string text) {
  std::string word;
  for (char c : text) {
    if (c == ' ') {
      if (!word.empty())
        co_yield word + "!";
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty())
    co_yield std::move(word);
}

StrGen repeat(const char *s, int n) {
  std::string acc;
  for (int i = 0; i < n; ++i) {
    acc += s;
    co_yield acc;
  }
}

int main() {
  StrGen g = words("a longer sentence than the small string buffer holds");
  int n = 0;
  while (g.next()) {
    std::string w = g.take();
    std::printf("%d:%s(%zu)\n", n++, w.c_str(), w.size());
  }
  StrGen r = repeat("ab", 12);
  size_t total = 0;
  while (r.next())
    total += r.take().size();
  std::printf("total %zu\n", total);
  return 0;
}
