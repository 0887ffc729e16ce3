// A generator whose promise keeps a pointer to the yielded object, not a
// copy: co_yield of an lvalue (the pointer is to the frame's local, which
// the consumer then modifies through it) and of a temporary (alive until
// the generator resumes). Then a generator of generators flattened by a
// consumer with an explicit stack of handles, the inner generators
// yielding further generators in turn.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

struct Item {
  std::string s;
  int n;
  ~Item() { s.assign("dead"); n = -1; }
};

struct RefGen {
  struct promise_type {
    Item *ptr = nullptr;
    RefGen get_return_object() {
      return RefGen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(Item &v) noexcept {
      ptr = &v;
      return {};
    }
    std::suspend_always yield_value(Item &&v) noexcept {
      ptr = &v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit RefGen(std::coroutine_handle<promise_type> h) : h(h) {}
  RefGen(RefGen &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~RefGen() {
    if (h)
      h.destroy();
  }
};

RefGen items(int n) {
  Item cur{"lv", 0};
  for (int i = 0; i < n; ++i) {
    cur.n = i;
    co_yield cur; // the consumer adds 100 through the pointer
    std::printf("  after lvalue yield: %s %d\n", cur.s.c_str(), cur.n);
    co_yield Item{"tmp" + std::to_string(i), i * i};
    cur.s += "+";
  }
}

// Generators of generators.
struct NodeGen {
  struct promise_type {
    int leaf = 0;
    NodeGen *child = nullptr; // set when a generator is yielded
    NodeGen get_return_object() {
      return NodeGen{
          std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      leaf = v;
      child = nullptr;
      return {};
    }
    std::suspend_always yield_value(NodeGen &&g) noexcept {
      child = &g; // the temporary lives until the generator resumes
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit NodeGen(std::coroutine_handle<promise_type> h) : h(h) {}
  NodeGen(NodeGen &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~NodeGen() {
    if (h)
      h.destroy();
  }
};

NodeGen tree(int depth, int base) {
  co_yield base;
  if (depth == 0)
    co_return;
  for (int k = 1; k <= 2; ++k) {
    std::string label = "d" + std::to_string(depth) + "k" + std::to_string(k);
    co_yield tree(depth - 1, base * 10 + k);
    co_yield -(int)label.size() * depth;
  }
}

static void flatten(NodeGen root) {
  // The stack holds handles; a yielded child generator is adopted (moved
  // out of the parent's temporary) and pushed.
  std::vector<NodeGen> stack;
  stack.push_back(std::move(root));
  int count = 0;
  long sum = 0;
  std::size_t depth = 1;
  while (!stack.empty()) {
    auto h = stack.back().h;
    h.resume();
    if (h.done()) {
      stack.pop_back();
      continue;
    }
    if (NodeGen *c = h.promise().child) {
      NodeGen adopted(std::move(*c));
      stack.push_back(std::move(adopted));
      depth = stack.size() > depth ? stack.size() : depth;
      continue;
    }
    std::printf("%d%s", h.promise().leaf, ++count % 10 ? " " : "\n");
    sum += h.promise().leaf;
  }
  std::printf("\nflattened %d values, sum %ld, max stack depth %zu\n", count,
              sum, depth);
}

int main() {
  {
    RefGen g = items(3);
    for (g.h.resume(); !g.h.done(); g.h.resume()) {
      Item *p = g.h.promise().ptr;
      std::printf("got %s %d\n", p->s.c_str(), p->n);
      p->n += 100;
    }
  }
  flatten(tree(3, 1));
  flatten(tree(0, 42));
  return 0;
}
