// A small valid module used by several tests.

func.func @ok() {
  return
}
