@_spi(Tooling) import InkCore

/// The page's interactive regions as last pushed, with their generation and freshness, so
/// most touch-downs are decided without asking the page.
///
/// A snapshot is **fresh** for its `RegionSnapshot/maxAge` after it arrived (or for
/// ``defaultMaxAge`` when the page gave none): a lookup then answers at once. Once it is
/// stale, or when the page's layout generation has moved past it, the cache answers
/// nothing and the bridge asks the page. A snapshot older than the one held is refused.
package struct RegionCache: Sendable {
    /// A snapshot the cache holds, with when it arrived.
    package struct Entry: Sendable {
        /// The snapshot.
        package var snapshot: RegionSnapshot
        /// When it arrived, seconds on the bridge's clock.
        package var receivedAt: Double
        /// Its spatial index.
        package var index: RegionIndex
        /// Until when it may be used.
        package var freshUntil: Double
    }

    /// What a lookup found.
    package enum Lookup: Sendable, Hashable {
        /// A fresh snapshot of the current generation answers.
        case fresh(HitTestVerdict)
        /// The snapshot is past its freshness bound.
        case stale
        /// The page's layout has changed since the snapshot (a newer generation is known).
        case outdated
        /// No snapshot yet.
        case missing
    }

    /// Why a snapshot was refused.
    package typealias Refusal = RegionSnapshotRefusal

    /// How long a snapshot without a max-age stays fresh, seconds.
    package var defaultMaxAge: Double
    /// The most regions a snapshot may hold.
    package var maxRegions: Int
    /// The snapshot held, if any.
    package private(set) var entry: Entry?

    /// Creates an empty cache.
    package init(defaultMaxAge: Double = 1, maxRegions: Int = 20_000) {
        self.defaultMaxAge = defaultMaxAge
        self.maxRegions = maxRegions
    }

    /// Takes a snapshot pushed by the page at `now`.
    /// - Parameters:
    ///   - snapshot: The page's snapshot.
    ///   - now: When it arrived, seconds.
    ///   - knownGeneration: the newest layout generation the bridge has seen.
    /// - Throws: ``Refusal``; the cache keeps what it had.
    package mutating func accept(_ snapshot: RegionSnapshot, now: Double, knownGeneration: UInt64) throws(Refusal) {
        let current = max(entry?.snapshot.generation ?? 0, knownGeneration)
        guard snapshot.generation >= current else { throw .olderGeneration(got: snapshot.generation, current: current) }
        guard snapshot.regions.count <= maxRegions else { throw .tooManyRegions(count: snapshot.regions.count, limit: maxRegions) }
        if let maxAge = snapshot.maxAge, !(maxAge.isFinite && maxAge >= 0) { throw .invalidMaxAge }
        for (i, r) in snapshot.regions.enumerated() {
            guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite, r.width >= 0, r.height >= 0 else {
                throw .invalidRegion(index: i)
            }
        }
        entry = Entry(snapshot: snapshot, receivedAt: now, index: RegionIndex(regions: snapshot.regions),
                      freshUntil: now + (snapshot.maxAge ?? defaultMaxAge))
    }

    /// Looks up a page point at `now`, for the layout generation `generation`.
    package func lookup(_ pagePoint: PagePoint, now: Double, generation: UInt64) -> Lookup {
        guard let entry else { return .missing }
        guard entry.snapshot.generation >= generation else { return .outdated }
        guard now <= entry.freshUntil else { return .stale }
        return .fresh(entry.index.contains(pagePoint) ? .page : .ink)
    }

    /// Whether the snapshot held, fresh or not, shows no region within `margin` page units
    /// of the point: a good bet that the touch is ink, though not a verdict. `false`
    /// without a snapshot.
    package func isClear(around pagePoint: PagePoint, margin: Double) -> Bool {
        guard let entry else { return false }
        return !entry.index.hasRegion(near: pagePoint, margin: margin)
    }

    /// Forgets the snapshot.
    package mutating func clear() { entry = nil }
}

/// Why the bridge refused a region snapshot the page pushed; the snapshot it held stays.
@_spi(Tooling) public enum RegionSnapshotRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Its generation is older than the snapshot held (or the layout generation known).
    case olderGeneration(got: UInt64, current: UInt64)
    /// More regions than the engine's limit (`InkEngineConfiguration.Limits.regions`).
    case tooManyRegions(count: Int, limit: Int)
    /// A region with a non-finite or negative coordinate or size, or a non-finite or
    /// negative max-age.
    case invalidRegion(index: Int)
    /// The max-age is not a finite, non-negative number.
    case invalidMaxAge

    public var description: String {
        switch self {
        case let .olderGeneration(got, current): "snapshot generation \(got) is older than the current \(current)"
        case let .tooManyRegions(count, limit): "snapshot has \(count) regions, more than the limit of \(limit)"
        case let .invalidRegion(index): "region \(index) has a non-finite or negative coordinate or size"
        case .invalidMaxAge: "max-age must be a finite number of seconds, at least 0"
        }
    }
}
