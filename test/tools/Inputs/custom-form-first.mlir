func.func @g() attributes {coro.abi = "switch"} {
  coro.end
}
