# Asks for a coro version the installed package does not provide
# (cmake-package.test): find_package must refuse it.
find_package(Coro 9.0 REQUIRED)
