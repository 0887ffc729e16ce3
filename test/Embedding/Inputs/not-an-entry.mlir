// An entry host-aot cannot call: it takes an argument (host-aot.test).
func.func @main(%x: i64) -> i64 {
  return %x : i64
}
