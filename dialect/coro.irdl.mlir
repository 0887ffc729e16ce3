irdl.dialect @coro {
  irdl.type @handle {
    %elem = irdl.any
    irdl.parameters(elem: %elem)
  }
  irdl.operation @begin {
    %h = irdl.base @coro::@handle
    irdl.results(handle: %h)
  }
  irdl.operation @yield {
    %v = irdl.any
    %i1 = irdl.is i1
    %r = irdl.any
    irdl.operands(value: optional %v)
    irdl.results(destroyed: %i1, resumed: optional %r)
  }
  irdl.operation @await {
    %h = irdl.base @coro::@handle
    %u = irdl.any
    irdl.operands(awaited: %h)
    irdl.results(result: optional %u)
  }
  irdl.operation @end {
    %h = irdl.base @coro::@handle
    %v = irdl.any
    irdl.operands(handle: %h, value: optional %v)
  }
  irdl.operation @self {
    %h = irdl.base @coro::@handle
    irdl.results(handle: %h)
  }
  irdl.operation @resume {
    %h = irdl.base @coro::@handle
    %v = irdl.any
    irdl.operands(handle: %h, value: optional %v)
  }
  irdl.operation @destroy {
    %h = irdl.base @coro::@handle
    irdl.operands(handle: %h)
  }
  irdl.operation @done {
    %h = irdl.base @coro::@handle
    %i1 = irdl.is i1
    irdl.operands(handle: %h)
    irdl.results(done: %i1)
  }
  irdl.operation @promise {
    %h = irdl.base @coro::@handle
    %v = irdl.any
    irdl.operands(handle: %h)
    irdl.results(value: %v)
  }
  irdl.operation @noop {
    %none = irdl.is none
    %h = irdl.parametric @coro::@handle<%none>
    irdl.results(handle: %h)
  }
  irdl.operation @failed {
    %h = irdl.base @coro::@handle
    %i1 = irdl.is i1
    irdl.operands(handle: %h)
    irdl.results(failed: %i1)
  }
  irdl.operation @group_create {
    %g = irdl.any
    irdl.results(group: %g)
  }
  irdl.operation @group_add {
    %h = irdl.base @coro::@handle
    %g = irdl.any
    irdl.operands(handle: %h, group: %g)
  }
  irdl.operation @group_await {
    %g = irdl.any
    %i64 = irdl.is i64
    irdl.operands(group: %g)
    irdl.results(failed: %i64)
  }
  irdl.operation @group_destroy {
    %g = irdl.any
    irdl.operands(group: %g)
  }
}
