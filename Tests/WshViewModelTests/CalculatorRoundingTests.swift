import Foundation
import Testing
@testable import WshViewModel

/// The calculator rounds its LED without Foundation's `NSDecimalRound`
/// (full Foundation is not linked into wsh); this checks it against
/// NSDecimalRound, which the tests still have, over many quotients.
@Suite("Calculator rounding")
struct CalculatorRoundingTests {
    @Test("the LED's rounding agrees with NSDecimalRound(.plain) on quotients, products and carries")
    func agreesWithNSDecimalRound() {
        var values: [Decimal] = ["0.99999999995", "-0.99999999995", "9.99999999999", "-0.00000000004", "0", "12345678901234567890.5"]
            .compactMap { Decimal(string: $0) }
        for numerator in -40...40 {
            for denominator in [1, 3, 6, 7, 9, 11, 12, 97, 1024] {
                values.append(Decimal(numerator) / Decimal(denominator))
                values.append(Decimal(numerator) * Decimal(string: "1.23456789012345")! / Decimal(denominator))
            }
        }
        for value in values {
            var input = value
            var expected = Decimal()
            NSDecimalRound(&expected, &input, CalculatorBrain.fractionDigits, .plain)
            let text = expected.isZero ? "0" : expected.description
            #expect(CalculatorBrain.format(value) == text, "\(value)")
        }
    }
}
