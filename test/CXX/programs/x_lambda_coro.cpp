// Coroutine lambdas: a capturing lambda (by value and by reference), a
// generic lambda instantiated for int and double, a mutable lambda whose
// captured state changes across suspensions, and an immediately invoked
// lambda coroutine. Every lambda object outlives its coroutine frames.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>

template <typename T> class Gen {
public:
  struct promise_type {
    T current{};
    Gen get_return_object() {
      return Gen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit Gen(std::coroutine_handle<promise_type> h) : h_(h) {}
  Gen(Gen &&o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Gen(const Gen &) = delete;
  ~Gen() {
    if (h_)
      h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  T value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

int main() {
  int scale = 3;
  std::string tag = "sq";
  int counter = 0;
  auto squares = [scale, tag, &counter](int n) -> Gen<int> {
    for (int i = 0; i < n; ++i) {
      ++counter;
      co_yield scale * i * i + (int)tag.size();
    }
  };
  {
    Gen<int> g = squares(6);
    while (g.next())
      std::printf("%d ", g.value());
    std::printf("| counter %d\n", counter);
  }

  auto generic = [](auto start, auto step, int n) -> Gen<decltype(start)> {
    auto v = start;
    for (int i = 0; i < n; ++i) {
      co_yield v;
      v += step;
    }
  };
  {
    Gen<int> gi = generic(10, 7, 5);
    while (gi.next())
      std::printf("%d ", gi.value());
    std::printf("\n");
    Gen<double> gd = generic(0.5, 0.25, 5);
    while (gd.next())
      std::printf("%.2f ", gd.value());
    std::printf("\n");
  }

  auto acc = [total = 100L](int n) mutable -> Gen<long> {
    for (int i = 1; i <= n; ++i) {
      total += i;
      co_yield total;
    }
  };
  {
    Gen<long> a = acc(4);
    while (a.next())
      std::printf("%ld ", a.value());
    std::printf("\n");
    // The lambda object's captured total was changed through the frame's
    // `this`: a second call continues from there.
    Gen<long> b = acc(2);
    while (b.next())
      std::printf("%ld ", b.value());
    std::printf("\n");
  }

  auto pair_gen = [&](std::string a, std::string b) -> Gen<std::string> {
    co_yield a + b;
    co_yield b + a;
    co_yield tag + a;
  };
  {
    Gen<std::string> s = pair_gen("x", "yz");
    while (s.next())
      std::printf("%s ", s.value().c_str());
    std::printf("\n");
  }
  return 0;
}
