import Foundation
import Testing
@testable import WshShell

/// Every `--json` form pinned to README's "JSON fields": the exact keys of
/// each object, nested ones included, and the JSON type of each value. A
/// sandbox with a fixed seed keeps the values stable, so `detail 1 --json`
/// is compared whole.
@Suite("The --json shapes README documents")
struct JSONShapeTests {
    static let seed: UInt64 = 1

    /// `detail 1 --json` after `fetch 3` on a sandbox of seed 1.
    static let pinnedDetail = """
        {
          "attitudes_count": 49042,
          "comments_count": 167,
          "created_at": "Mon Nov 11 21:30:00 +0800 2024",
          "id": 4000000000001000,
          "idstr": "4000000000001000",
          "mid": "4000000000001000",
          "pic_urls": [],
          "reposts_count": 16606,
          "source": "HUAWEI Mate 60",
          "text": "这部剧太好看了",
          "user": {
            "description": "微博认证：知名博主",
            "followers_count": 4641,
            "friends_count": 1805,
            "id": 1700000012,
            "idstr": "1700000012",
            "location": "广东 深圳",
            "name": "摄影师Coder",
            "screen_name": "摄影师Coder",
            "statuses_count": 22,
            "verified": true
          }
        }
        """

    // README: a status is {index, id, idstr, mid, created_at, text, source,
    // reposts_count, comments_count, attitudes_count, pic_urls, user, retweeted_status?}.
    static let status: [String: JSONKind] = [
        "id": .int, "idstr": .string, "mid": .string, "created_at": .string, "text": .string, "source": .string,
        "reposts_count": .int, "comments_count": .int, "attitudes_count": .int, "pic_urls": .array, "user": .object,
    ]
    static let row = status.merging(["index": .int]) { $1 }
    static let user: [String: JSONKind] = [
        "id": .int, "idstr": .string, "screen_name": .string, "name": .string, "location": .string,
        "description": .string, "followers_count": .int, "friends_count": .int, "statuses_count": .int,
        "verified": .bool,
    ]
    static let comments: [String: JSONKind] = ["status_idstr": .string, "total_number": .int, "comments": .array]
    static let comment: [String: JSONKind] = [
        "index": .int, "id": .int, "idstr": .string, "created_at": .string, "text": .string, "user": .object,
    ]
    static let operation: [String: JSONKind] = ["index": .int, "operation": .string, "remote": .bool]
    static let session: [String: JSONKind] = [
        "api": .string, "dialect": .string, "base_url": .string, "token": .string, "rows": .int, "operations": .int, "trace": .string,
        "libcurl": .string, "recording": .string,
    ]

    /// Runs `script` and decodes its stdout as one JSON value.
    private func json(_ harness: ShellHarness, _ script: String,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let transcript = await harness.run(script)
        try #require(transcript.status == 0, "\(script): \(transcript.stderr)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(JSONValue.self, from: Data(transcript.stdout.utf8))
    }

    /// Checks that `value` is an object with exactly `shape`'s keys (plus any of
    /// `optional`), each of its kind; returns the object.
    @discardableResult
    private func expectShape(_ value: JSONValue?, _ shape: [String: JSONKind], optional: [String: JSONKind] = [:],
                             _ label: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: JSONValue] {
        guard case .object(let object)? = value else {
            Issue.record("\(label): not an object: \(String(describing: value))", sourceLocation: sourceLocation)
            return [:]
        }
        let required = Set(shape.keys)
        let present = Set(object.keys)
        #expect(present.isSuperset(of: required), "\(label) lacks \(required.subtracting(present).sorted())",
                sourceLocation: sourceLocation)
        #expect(present.subtracting(required).isSubset(of: Set(optional.keys)),
                "\(label) has undocumented \(present.subtracting(required).subtracting(optional.keys).sorted())",
                sourceLocation: sourceLocation)
        for (key, value) in object {
            guard let kind = shape[key] ?? optional[key] else { continue }
            #expect(value.kind == kind, "\(label).\(key) is \(value.kind), not \(kind)", sourceLocation: sourceLocation)
        }
        return object
    }

    /// A status's shape, its user's and its repost's; `created_at` in the API's format.
    private func expectStatus(_ value: JSONValue?, row: Bool, _ label: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let object = expectShape(value, row ? Self.row : Self.status, optional: ["retweeted_status": .object], label,
                                 sourceLocation: sourceLocation)
        expectShape(object["user"], Self.user, label + ".user", sourceLocation: sourceLocation)
        if case .array(let pictures)? = object["pic_urls"] {
            #expect(pictures.allSatisfy { $0.kind == .string }, "\(label).pic_urls", sourceLocation: sourceLocation)
        }
        if case .string(let created)? = object["created_at"] {
            #expect(created.wholeMatch(of: Self.weiboTime) != nil, "\(label).created_at: \(created)",
                    sourceLocation: sourceLocation)
        }
        if case .string(let source)? = object["source"] {
            #expect(!source.contains("<"), "\(label).source keeps HTML: \(source)", sourceLocation: sourceLocation)
        }
        if case .int(let id)? = object["id"], case .string(let idstr)? = object["idstr"] {
            #expect(idstr == String(id), "\(label).idstr", sourceLocation: sourceLocation)
        }
        if let reposted = object["retweeted_status"] {
            expectStatus(reposted, row: false, label + ".retweeted_status", sourceLocation: sourceLocation)
        }
    }

    // `EEE MMM dd HH:mm:ss +0800 yyyy`, as the API writes it.
    static var weiboTime: Regex<(Substring, Substring, Substring)> { /(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} \+0800 \d{4}/ }

    @Test("list --json: an array of numbered statuses, reposts nested with the same fields minus index")
    func list() async throws {
        let harness = try await ShellHarness(seed: Self.seed)
        guard case .array(let rows) = try await json(harness, "fetch 60\nlist --json") else {
            Issue.record("list --json is not an array")
            return
        }
        #expect(rows.count == 60)
        for (offset, row) in rows.enumerated() {
            expectStatus(row, row: true, "row \(offset + 1)")
            #expect(row["index"] == .int(Int64(offset + 1)))
        }
        #expect(rows.contains { $0["retweeted_status"] != nil }, "no repost among 60 rows: its shape went unchecked")
    }

    @Test("detail 1 --json is the whole pinned status, without index")
    func detail() async throws {
        let harness = try await ShellHarness(seed: Self.seed)
        let shown = try await json(harness, "fetch 3\ndetail 1 --json")
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(Self.pinnedDetail.utf8))
        #expect(shown == expected)
        expectStatus(shown, row: false, "detail 1")
        let reposted = try await json(harness, "fetch 60\nlist --json")
        let index = try #require(reposted.array?.firstIndex { $0["retweeted_status"] != nil })
        expectStatus(try await json(harness, "detail \(index + 1) --json"), row: false, "detail \(index + 1)")
    }

    @Test("comments N --json: the status's idstr, the total and the numbered comments with their users")
    func comments() async throws {
        let harness = try await ShellHarness(seed: Self.seed)
        let shown = try await json(harness, "fetch 3\ncomments 1 --json")
        let object = expectShape(shown, Self.comments, "comments 1")
        #expect(object["status_idstr"] == .string("4000000000001000"))
        #expect(object["total_number"] == .int(167))
        let comments = try #require(object["comments"]?.array)
        #expect(comments.count == 50)
        for (offset, comment) in comments.enumerated() {
            let fields = expectShape(comment, Self.comment, "comment \(offset + 1)")
            #expect(fields["index"] == .int(Int64(offset + 1)))
            expectShape(fields["user"], Self.user, "comment \(offset + 1).user")
            if case .string(let created)? = fields["created_at"] {
                #expect(created.wholeMatch(of: Self.weiboTime) != nil, "comment \(offset + 1).created_at: \(created)")
            }
        }
    }

    @Test("user NAME --json: the user object, the same as in statuses")
    func user() async throws {
        let harness = try await ShellHarness(seed: Self.seed)
        let rows = try await json(harness, "fetch 3\nlist --json")
        let author = try #require(rows.array?[1]["user"])
        guard case .string(let name)? = author["screen_name"] else {
            Issue.record("no screen_name in row 2's user")
            return
        }
        let shown = try await json(harness, "user \(name) --json")
        expectShape(shown, Self.user, "user \(name)")
        #expect(shown == author)
    }

    @Test("history --json: [{index, operation, remote}]")
    func history() async throws {
        let harness = try await ShellHarness(seed: Self.seed)
        // detail shows the status on stdout outside the prompt too: a run of its own.
        #expect(await harness.run("fetch 3\ndetail 2\ncalc 1 + 1 =").status == 0)
        let shown = try await json(harness, "history --json")
        let operations = try #require(shown.array)
        #expect(operations.count == 3)
        for operation in operations { expectShape(operation, Self.operation, "history entry") }
        #expect(shown == .array([
            .object(["index": .int(1), "operation": .string("fetch 3 → 3 statuses"), "remote": .bool(false)]),
            .object(["index": .int(2), "operation": .string("detail 2"), "remote": .bool(false)]),
            .object(["index": .int(3), "operation": .string("calc 1 + 1 ="), "remote": .bool(false)]),
        ]), "\(shown)")
    }

    @Test("status --json: {api, base_url, token, rows, operations, trace, libcurl, recording}; token says where, never what")
    func status() async throws {
        let harness = try await ShellHarness(seed: Self.seed)
        let shown = try await json(harness, "fetch 3\nstatus --json")
        let object = expectShape(shown, Self.session, "status")
        #expect(object["api"] == .string("sandbox"))
        #expect(object["base_url"] == .string(harness.sandbox.baseURL))
        #expect(object["rows"] == .int(3))
        #expect(object["operations"] == .int(1))
        #expect(object["trace"] == .string("off"))
        if case .string(let token)? = object["token"] {
            #expect(!token.contains(harness.sandbox.token))
        }
    }
}

@Suite("JSONValue, the shape tests' reader")
struct JSONValueTests {
    @Test("booleans, integers, floats, null and strings decode as different kinds")
    func kinds() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"[true, 1, 1.5, null, "1", {}, []]"#.utf8))
        #expect(value.array?.map(\.kind) == [.bool, .int, .double, .null, .string, .object, .array])
        #expect(value != (try JSONDecoder().decode(JSONValue.self, from: Data(#"[1, 1, 1.5, null, "1", {}, []]"#.utf8))))
    }
}

/// The JSON type of a value, as a script reading wsh's JSON sees it.
enum JSONKind: Equatable {
    case null, bool, int, double, string, array, object
}

/// A decoded JSON value that keeps integers, floats and booleans apart.
indirect enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var object: [String: JSONValue] = [:]
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key) }
            self = .object(object)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !unkeyed.isAtEnd { array.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(array)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? single.decode(Int64.self) {
                self = .int(int)
            } else if let double = try? single.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    var array: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
