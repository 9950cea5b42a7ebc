import Glibc

/// A file written whole or not at all: the bytes go to `NAME.partial`
/// (0600) in the same folder, and only a complete write is renamed over
/// NAME, so a full disk, a killed wsh or an error leaves whatever was
/// there before and no half file under the name.
struct ExportFile {
    let path: String
    private let partial: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes written so far.
    private(set) var bytes = 0

    init(_ path: String) throws(ArchiveError) {
        self.path = path
        partial = path + ".partial"
        descriptor = open(partial, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ArchiveError("cannot write \(path): \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) throws(ArchiveError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    mutating func write(_ data: [UInt8]) throws(ArchiveError) {
        buffer.append(contentsOf: data)
        if buffer.count >= 1 << 16 { try flush() }
    }

    private mutating func flush() throws(ArchiveError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = errno == ENOSPC ? "the disk is full" : String(cString: strerror(errno))
                abandon()
                throw ArchiveError("cannot write \(path): \(reason); nothing was left under that name")
            }
            offset += written
        }
        bytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, syncs it to the disk and puts the file under its name.
    mutating func finish() throws(ArchiveError) {
        try flush()
        if fsync(descriptor) != 0 {
            let reason = errno == ENOSPC ? "the disk is full" : String(cString: strerror(errno))
            abandon()
            throw ArchiveError("cannot write \(path): \(reason); nothing was left under that name")
        }
        close(descriptor)
        descriptor = -1
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw ArchiveError("cannot write \(path): \(reason)")
        }
    }

    /// Removes the partial file (a failed export).
    mutating func abandon() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(partial)
    }

    /// Writes `path` with `body` and puts it under its name, or leaves nothing there.
    static func writing(_ path: String, _ body: (inout ExportFile) throws(ArchiveError) -> Void) throws(ArchiveError) {
        var file = try ExportFile(path)
        do throws(ArchiveError) {
            try body(&file)
            try file.finish()
        } catch {
            file.abandon()
            throw error
        }
    }

}

/// Folders only their owner reads: the archive's and an export's.
enum PrivateFolder {
    /// Makes `folder` (0700) and the folders above it that are missing.
    static func make(_ folder: String) throws(ArchiveError) {
        var made = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o700) != 0 && errno != EEXIST {
                throw ArchiveError("cannot make the folder \(made): \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// RFC 4180's quoting: a field with a comma, a quote or a line break is
/// quoted, with its quotes doubled; any other is written as it is.
enum CSVField {
    static func text(_ value: String, separator: Character = ",") -> String {
        guard value.contains(where: { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacing("\"", with: "\"\"") + "\""
    }
}


extension JSONText {
    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var json: [UInt8] = []
        append(text, to: &json)
        return String(decoding: json, as: UTF8.self)
    }
}
