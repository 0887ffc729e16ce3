// Generators of references and of move-only values: a generator yielding
// `int &` into a caller's array (the caller writes through it), one
// yielding `const std::string &` to a frame local that changes between
// yields, one yielding std::unique_ptr by move (the promise holds a
// pointer to the yielded temporary), and a generator of generators.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <utility>

// Gen<T>: the promise keeps a pointer to what was yielded, which lives in
// the coroutine frame until the next resumption.
template <typename T> class Gen {
public:
  using pointer = std::remove_reference_t<T> *;
  struct promise_type {
    pointer current = nullptr;
    Gen get_return_object() {
      return Gen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(std::remove_reference_t<T> &v) noexcept {
      current = std::addressof(v);
      return {};
    }
    std::suspend_always yield_value(std::remove_reference_t<T> &&v) noexcept {
      current = std::addressof(v);
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
  T &&get() const { return static_cast<T &&>(*h_.promise().current); }

private:
  std::coroutine_handle<promise_type> h_;
};

Gen<int &> refs(int *arr, int n) {
  for (int i = n - 1; i >= 0; --i)
    co_yield arr[i];
}

Gen<const std::string &> words(int n) {
  std::string w = "a";
  for (int i = 0; i < n; ++i) {
    co_yield w;
    w += char('b' + i);
    w = w + w.substr(0, 1);
  }
}

struct Res {
  int id;
  explicit Res(int i) : id(i) { std::printf("make %d\n", id); }
  ~Res() { std::printf("free %d\n", id); }
};

Gen<std::unique_ptr<Res>> owners(int n) {
  for (int i = 0; i < n; ++i) {
    auto p = std::make_unique<Res>(i * 10);
    co_yield std::move(p);
    // p was moved from only if the consumer took it.
    std::printf("after yield %d: %s\n", i, p ? "kept" : "taken");
  }
  co_yield std::make_unique<Res>(99);
}

Gen<Gen<int &>> nested(int *arr) {
  co_yield refs(arr, 2);
  co_yield refs(arr + 2, 3);
}

int main() {
  int arr[5] = {1, 2, 3, 4, 5};
  {
    Gen<int &> g = refs(arr, 5);
    while (g.next())
      g.get() *= 10;
  }
  for (int v : arr)
    std::printf("%d ", v);
  std::printf("\n");
  {
    Gen<const std::string &> w = words(5);
    while (w.next())
      std::printf("%s(%zu) ", w.get().c_str(), w.get().size());
    std::printf("\n");
  }
  {
    Gen<std::unique_ptr<Res>> o = owners(4);
    int i = 0;
    while (o.next()) {
      if (i++ % 2 == 0) {
        std::unique_ptr<Res> mine = std::move(o.get());
        std::printf("took %d\n", mine->id);
      } else {
        std::printf("peeked %d\n", o.get()->id);
      }
    }
  }
  {
    Gen<Gen<int &>> n = nested(arr);
    int k = 0;
    while (n.next()) {
      Gen<int &> inner = std::move(n.get());
      while (inner.next())
        inner.get() += ++k;
    }
  }
  for (int v : arr)
    std::printf("%d ", v);
  std::printf("\n");
  return 0;
}
