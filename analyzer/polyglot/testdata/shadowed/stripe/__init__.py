# The service lives in a directory named after the SDK it uses, as some
# repositories keep one service per directory.
