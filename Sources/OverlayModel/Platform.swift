// The C library, imported once for every module of the package: files use `sqrt`, `memchr`,
// `read`, `clock_gettime`… without their own `#if canImport(Glibc)` preamble.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
