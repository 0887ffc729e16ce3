define i32 @f() {
  br label %nowhere
}
