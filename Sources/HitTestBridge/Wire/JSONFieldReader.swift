@_spi(Tooling) import InkCore
/// Why a JSON value did not have the shape a reader expected.
package struct JSONShapeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path of the offending field, like `samples[2].x`.
    package var field: String
    /// What was wrong, like `expected a number, found a string`.
    package var message: String

    package init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    package var description: String { "field '\(field)': \(message)" }
}

/// Reads typed fields out of a JSON object, naming the field path in every error.
package struct JSONFieldReader {
    package let object: JSONObject
    package let path: String

    /// Wraps `value`, which must be an object.
    package init(_ value: JSONValue, path: String = "") throws(JSONShapeError) {
        guard case let .object(object) = value else {
            throw JSONShapeError(field: path.isEmpty ? "(line)" : path, message: "expected an object, found \(value.typeName)")
        }
        self.object = object
        self.path = path
    }

    package func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    package func value(_ key: String) throws(JSONShapeError) -> JSONValue {
        guard let value = object[key], value != .null else {
            throw JSONShapeError(field: fieldPath(key), message: "missing")
        }
        return value
    }

    package func has(_ key: String) -> Bool {
        if let value = object[key], value != .null { return true }
        return false
    }

    package func double(_ key: String) throws(JSONShapeError) -> Double {
        let value = try value(key)
        guard case let .number(number) = value else {
            throw JSONShapeError(field: fieldPath(key), message: "expected a number, found \(value.typeName)")
        }
        return number
    }

    package func optionalDouble(_ key: String) throws(JSONShapeError) -> Double? {
        has(key) ? try double(key) : nil
    }

    package func unsigned(_ key: String) throws(JSONShapeError) -> UInt64 {
        let number = try double(key)
        if object.roundedToWhole.contains(key) {
            // Issue 40: "touch": 4503599627370496.5 was taken as the whole id 4503599627370496.
            throw JSONShapeError(field: fieldPath(key), message: "expected a whole number from 0 to 9007199254740991, "
                + "found a number with a fraction (a Double rounds it to \(JSONValue.format(number)))")
        }
        guard number >= 0, number == number.rounded(), number <= 9_007_199_254_740_991 else {
            // A JSON number is a Double: above 2^53 - 1 two ids can read as the same one.
            throw JSONShapeError(field: fieldPath(key), message: "expected a whole number from 0 to 9007199254740991 "
                + "(2^53 - 1: larger ones cannot be told apart in JSON), found \(JSONValue.format(number))")
        }
        return UInt64(number)
    }

    package func optionalUnsigned(_ key: String) throws(JSONShapeError) -> UInt64? {
        has(key) ? try unsigned(key) : nil
    }

    package func string(_ key: String) throws(JSONShapeError) -> String {
        let value = try value(key)
        guard case let .string(string) = value else {
            throw JSONShapeError(field: fieldPath(key), message: "expected a string, found \(value.typeName)")
        }
        return string
    }

    package func optionalString(_ key: String) throws(JSONShapeError) -> String? {
        has(key) ? try string(key) : nil
    }

    /// A boolean; hosts that turn booleans into the numbers 0 and 1 are tolerated.
    package func bool(_ key: String) throws(JSONShapeError) -> Bool {
        let value = try value(key)
        switch value {
        case let .bool(flag): return flag
        case .number(0): return false
        case .number(1): return true
        default:
            throw JSONShapeError(field: fieldPath(key), message: "expected a boolean (or 0/1), found \(value.typeName)")
        }
    }

    package func optionalBool(_ key: String) throws(JSONShapeError) -> Bool? {
        has(key) ? try bool(key) : nil
    }

    /// A string that must be one of an enumeration's raw values.
    package func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, as _: Choice.Type) throws(JSONShapeError) -> Choice
    where Choice.RawValue == String {
        let raw = try string(key)
        guard let choice = Choice(rawValue: raw) else {
            let allowed = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw JSONShapeError(field: fieldPath(key), message: "expected one of \(allowed), found \"\(raw)\"")
        }
        return choice
    }

    package func array(_ key: String) throws(JSONShapeError) -> [JSONValue] {
        let value = try value(key)
        guard case let .array(values) = value else {
            throw JSONShapeError(field: fieldPath(key), message: "expected an array, found \(value.typeName)")
        }
        return values
    }

    package func optionalArray(_ key: String) throws(JSONShapeError) -> [JSONValue] {
        has(key) ? try array(key) : []
    }

    package func nested(_ key: String) throws(JSONShapeError) -> JSONFieldReader {
        try JSONFieldReader(try value(key), path: fieldPath(key))
    }

    package func optionalNested(_ key: String) throws(JSONShapeError) -> JSONFieldReader? {
        has(key) ? try nested(key) : nil
    }

    /// Each element of an array of objects, with its indexed path.
    package func objects(_ key: String) throws(JSONShapeError) -> [JSONFieldReader] {
        var readers: [JSONFieldReader] = []
        for (i, element) in try optionalArray(key).enumerated() {
            readers.append(try JSONFieldReader(element, path: "\(fieldPath(key))[\(i)]"))
        }
        return readers
    }
}
