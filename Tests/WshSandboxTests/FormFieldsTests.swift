import Testing
@testable import WshSandbox

@Suite("Form and query decoding")
struct FormFieldsTests {
    @Test("percent escapes decode as UTF-8, + is a space, %2B a plus, the first value wins")
    func decodesFormEncoding() {
        let fields = FormFields.parse("status=%E4%BD%A0%E5%A5%BD+%F0%9F%98%80+a%2Bb&count=5&count=6&flag")
        #expect(fields == ["status": "你好 😀 a+b", "count": "5", "flag": ""])
    }

    @Test("a broken escape or invalid UTF-8 is refused rather than guessed")
    func refusesBrokenInput() {
        #expect(FormFields.parse("status=%E4%BD") == nil)
        #expect(FormFields.parse("status=%zz") == nil)
        #expect(FormFields.parse("status=%4") == nil)
        #expect(FormFields.parse("") == [:])
    }
}
