@_spi(Tooling) import InkCore

// The encoder for page messages: the JSON text the bundled page script posts, so fake
// pages and tests need not write it by hand. No Foundation. Strings are escaped
// and numbers formatted by the module's JSON writer (`JSONValue`); only the objects'
// layout is written here, so that generations can be written as exact integers.

extension PageMessage {
    /// The message as the JSON text the bundled page script posts, with the keys in the
    /// script's order and no white space:
    ///
    /// - an answer: `{"type":"answer","id":"<32 hex>","interactive":1|0,"generation":N,"document":"<id>"}`
    ///   (see `PageAnswer.json`);
    /// - a snapshot: `{"type":"regions","generation":N,"document":"<id>","maxAge":<ms>,"regions":[{"x":…,"y":…,"width":…,"height":…,"element":"…"}…]}`
    ///   (see `RegionSnapshot.json`).
    ///
    /// `document` is written only when the message has one.
    ///
    /// It reads back as the same message: `try PageMessage.decode(message.json) == message`
    /// for every message ``decode(_:maxBytes:)-(String,_)`` can return. Values that no page
    /// can post are written as faithfully as JSON allows, and `decode` refuses most of them
    /// rather than reading another message: a generation above 2^53 − 1 (written exactly;
    /// refused), a negative width, height or `maxAge` (refused), a non-finite coordinate or
    /// size (written `null`, as `JSON.stringify` does; refused as missing). A non-finite
    /// `maxAge` is written `null` too, and reads back as no `maxAge`.
    public var json: String {
        switch self {
        case let .answer(answer): answer.json
        case let .regions(snapshot): snapshot.json
        }
    }
}

extension PageAnswer {
    /// The answer as the page script posts it:
    /// `{"type":"answer","id":"<32 hex>","interactive":1|0,"generation":N,"document":"<id>"}`
    /// (`document` only when ``document`` is set).
    ///
    /// `interactive` is `1` for a `HitTestVerdict.page` verdict and `0` for
    /// `HitTestVerdict.ink`, the numbers the script posts (the decoder also takes `true` and
    /// `false`). The generation is written as an exact integer; one above 2^53 − 1, which a
    /// page cannot post, is refused by `PageMessage.decode(_:maxBytes:)-(String,_)`.
    public var json: String {
        var out = #"{"type":"answer","id":"#
        out += JSONValue.string(token.description).serialized()
        out += #","interactive":"#
        out += verdict == .page ? "1" : "0"
        out += #","generation":"#
        out += String(generation)
        if let document {
            out += #","document":"#
            out += JSONValue.string(document.text).serialized()
        }
        out += "}"
        return out
    }
}

extension RegionSnapshot {
    /// The snapshot as the page script posts it:
    /// `{"type":"regions","generation":N,"document":"<id>","maxAge":<ms>,"regions":[{"x":…,"y":…,"width":…,"height":…,"element":"…"}…]}`.
    ///
    /// - `document` is left out when ``document`` is `nil`; `"shown":true` follows it when
    ///   ``shown`` is set, and is left out otherwise.
    /// - `maxAge` is written in milliseconds, as the page posts it (``maxAge`` is in
    ///   seconds), and left out when it is `nil`. The milliseconds are chosen so that the
    ///   decoder's division by 1000 gives back ``maxAge`` exactly whenever some number of
    ///   milliseconds does, as for every snapshot the decoder returned. (Other seconds
    ///   values, about one arbitrary `Double` in forty, read back one unit in the last place
    ///   away; values above `Double.greatestFiniteMagnitude / 1000` as that bound.)
    /// - Numbers are written so that they read back as the same `Double`; whole numbers
    ///   below 10^15 without a fraction (`20`, not `20.0`).
    /// - `element` is a JSON string (quotes, backslashes and control characters escaped),
    ///   left out when the region has none.
    /// - The generation is written as an exact integer; one above 2^53 − 1, which a page
    ///   cannot post, is refused by `PageMessage.decode(_:maxBytes:)-(String,_)`.
    public var json: String {
        var out = #"{"type":"regions","generation":"#
        out += String(generation)
        if let document {
            out += #","document":"#
            out += JSONValue.string(document.text).serialized()
        }
        if shown { out += #","shown":true"# }
        if let maxAge {
            out += #","maxAge":"#
            out += JSONValue.format(Self.wireMilliseconds(seconds: maxAge))
        }
        out += #","regions":["#
        for (i, region) in regions.enumerated() {
            if i > 0 { out += "," }
            var object = JSONObject([
                ("x", .number(region.x)), ("y", .number(region.y)),
                ("width", .number(region.width)), ("height", .number(region.height)),
            ])
            object.append("element", ifPresent: region.element.map(JSONValue.string))
            JSONValue.object(object).write(to: &out)
        }
        out += "]}"
        return out
    }

    /// The milliseconds to write for `seconds`: a value that the decoder's `ms / 1000`
    /// turns back into `seconds` when there is one (`seconds * 1000` alone misses for
    /// about one value in forty: the product is rounded), else the rounded product.
    /// Non-finite values pass through (and are written `null`).
    static func wireMilliseconds(seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds }
        var product = seconds * 1000
        if !product.isFinite {
            // Above greatestFiniteMagnitude / 1000: only the largest finite value can
            // divide back (to a value at most as large as seconds).
            product = seconds < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude
        }
        if product / 1000 == seconds { return product }
        // Division by 1000 is monotonic and the exact quotient of a preimage lies within
        // half a unit in the last place of `seconds`, so a preimage, if any, is within two
        // units in the last place of the product.
        var below = product, above = product
        for _ in 0..<3 {
            below = below.nextDown
            above = above.nextUp
            if below.isFinite, below / 1000 == seconds { return below }
            if above.isFinite, above / 1000 == seconds { return above }
        }
        return product
    }
}
