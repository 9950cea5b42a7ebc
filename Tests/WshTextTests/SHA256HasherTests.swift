import Testing
import WshText

/// `SHA256.Hasher`, fed a file as it arrives, gives the digest of the whole.
@Suite("SHA-256 piece by piece")
struct SHA256HasherTests {
    @Test("any split of a message hashes as the whole, the known digests included")
    func piecesHashAsWhole() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for split in [1, 3, 55, 56, 63, 64, 65, 127, 128, 999, 1000] {
            var hasher = SHA256.Hasher()
            var offset = 0
            while offset < message.count {
                let end = min(message.count, offset + split)
                message[offset..<end].withUnsafeBytes { hasher.update($0) }
                offset = end
            }
            #expect(hasher.finalize() == SHA256.digest(message), "pieces of \(split)")
        }
        var empty = SHA256.Hasher()
        #expect(SHA256.hexText(empty.finalize()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var abc = SHA256.Hasher()
        Array("ab".utf8).withUnsafeBytes { abc.update($0) }
        Array("c".utf8).withUnsafeBytes { abc.update($0) }
        #expect(SHA256.hexText(abc.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
