import FoundationEssentials
import WshText

/// The reports `wsh --test` writes: JUnit XML and TAP 13.
public enum TestReport {
    /// JUnit XML: one `<testsuite name="wsh">`, a `<testcase>` per file, with
    /// `<failure>` for an assert that did not hold and `<error>` for any other failure.
    public static func junit(_ results: [TestResult], secrets: [String] = []) -> String {
        let failures = results.filter { !$0.passed && $0.assertFailure != nil }.count
        let errors = results.filter { !$0.passed && $0.assertFailure == nil }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(total))\">\n"
        xml += "  <testsuite name=\"wsh\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(total))\">\n"
        for result in results {
            let name = escape(clean(result.path, secrets))
            xml += "    <testcase name=\"\(name)\" classname=\"wsh\" time=\"\(seconds(result.seconds))\""
            if result.passed {
                xml += "/>\n"
                continue
            }
            let element = result.assertFailure == nil ? "error" : "failure"
            let message = escape(clean(result.message, secrets))
            let body = escape(clean(result.stderr.isEmpty ? "exit status \(result.status)" : result.stderr, secrets))
            xml += ">\n      <\(element) message=\"\(message)\" type=\"exit \(result.status)\">\(body)</\(element)>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// TAP version 13: `ok N - PATH`, or `not ok N - PATH` and a YAML block with the message.
    public static func tap(_ results: [TestResult], secrets: [String] = []) -> String {
        var text = "TAP version 13\n1..\(results.count)\n"
        for (offset, result) in results.enumerated() {
            // '#' would start a directive.
            let name = clean(result.path, secrets).replacing("#", with: "\\#")
            text += "\(result.passed ? "ok" : "not ok") \(offset + 1) - \(name)\n"
            guard !result.passed else { continue }
            text += "  ---\n  message: \(yamlString(clean(result.message, secrets)))\n  severity: fail\n"
            text += "  kind: \(result.assertFailure == nil ? "error" : "failure")\n  status: \(result.status)\n  ...\n"
        }
        return text
    }

    /// Masks the secrets and drops what XML 1.0 cannot hold (controls but tab and newline, U+FFFE/F).
    static func clean(_ text: String, _ secrets: [String]) -> String {
        let masked = Redaction.redact(text, secrets: secrets)
        return String(String.UnicodeScalarView(masked.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x09, 0x0A: true
            case 0..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: false
            default: true
            }
        }))
    }

    /// XML text and attribute escaping: the one in WshText.
    static func escape(_ text: String) -> String { XMLText.escaped(text) }

    /// A YAML double-quoted scalar (JSON string syntax, which YAML reads).
    static func yamlString(_ text: String) -> String {
        String(decoding: JSONValue.string(text).encoded(), as: UTF8.self)
    }

    static func seconds(_ value: Double) -> String { Decimals.fixed(value, 3) }
}
