#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Sine and cosine from the C library, without importing Foundation into the geometry code.
@inline(__always) package func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) package func cosine(_ x: Double) -> Double { cos(x) }
