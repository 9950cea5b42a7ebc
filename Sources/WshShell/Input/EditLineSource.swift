import CEditLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive prompt on libedit: line editing, history kept across
/// sessions in a 0600 file, TAB completion, Ctrl-C to drop the line.
public final class EditLineSource: LineSource {
    /// Candidate words for the word before the cursor, given the line up to it.
    public typealias Completer = (_ lineBeforeCursor: String) -> [String]

    public var name: String { "<prompt>" }
    public var isInteractive: Bool { true }

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let historyPath: String?
    private let completer: Completer
    private let redact: (String) -> String
    private let output: UnsafeMutablePointer<FILE>
    private var promptText: UnsafeMutablePointer<CChar>?

    /// A prompt reading the terminal on stdin; throws when libedit cannot be loaded.
    ///
    /// - Parameters:
    ///   - historyPath: where entries persist; nil keeps them in memory only.
    ///   - redact: applied to every entry before it is stored, so a secret typed
    ///     at the prompt never reaches the history file.
    public init(historyPath: String?, redact: @escaping (String) -> String = { $0 },
                completer: @escaping Completer) throws(LineEditorUnavailable) {
        if let problem = wsh_edit_load() { throw LineEditorUnavailable(reason: String(cString: problem)) }
        Self.configureLocale()
        // With stdout redirected, libedit must draw on stderr or it turns editing off.
        output = isatty(STDOUT_FILENO) != 0 ? wsh_stdout() : wsh_stderr()
        editLine = wsh_el_init("wsh", wsh_stdin(), output, wsh_stderr())
        history = wsh_history_init()
        self.historyPath = historyPath
        self.completer = completer
        self.redact = redact

        wsh_history_set_size(history, 1000)
        wsh_history_set_unique(history, 1)
        if let historyPath {
            _ = wsh_history_load(history, historyPath)
        }
        wsh_el_set_editor(editLine, "emacs")
        wsh_el_set_signal(editLine, 1)
        wsh_el_set_history(editLine, history)
        wsh_el_set_client_data(editLine, Unmanaged.passUnretained(self).toOpaque())
        wsh_el_set_prompt(editLine) { editLine in
            guard let editLine, let data = wsh_el_client_data(editLine) else { return nil }
            return Unmanaged<EditLineSource>.fromOpaque(data).takeUnretainedValue().promptText
        }
        wsh_el_set_getc(editLine, readCharacter)
        wsh_el_add_function(editLine, "wsh-complete", "complete a command, option or argument") { editLine, _ in
            guard let editLine, let data = wsh_el_client_data(editLine) else { return UInt8(CC_ERROR) }
            return Unmanaged<EditLineSource>.fromOpaque(data).takeUnretainedValue().complete()
        }
        wsh_el_bind(editLine, "^I", "wsh-complete")
        // Read ~/.editrc so users keep their own bindings.
        _ = wsh_el_source(editLine, nil)
    }

    deinit {
        wsh_el_end(editLine)
        wsh_history_end(history)
        free(promptText)
    }

    public func readLine(prompt: String) -> LineRead {
        free(promptText)
        promptText = strdup(prompt)
        var count: Int32 = 0
        guard let raw = wsh_el_gets(editLine, &count) else {
            if count < 0 || Interrupts.pending {
                Interrupts.take()
                fputs("^C\n", output)
                fflush(output)
                return .interrupted
            }
            fputs("\n", output)
            return .end
        }
        var line = String(cString: raw)
        while line.last == "\n" || line.last == "\r\n" || line.last == "\r" { line.removeLast() }
        return .line(line)
    }

    public func remember(_ entry: String) {
        let trimmed = entry.trimmingTrailingWhitespace()
        guard !trimmed.isEmpty else { return }
        _ = wsh_history_enter(history, redact(trimmed))
        guard let historyPath else { return }
        // Create the file 0600 before libedit writes it, so it is never readable by others.
        let fd = open(historyPath, O_WRONLY | O_CREAT, 0o600)
        if fd >= 0 { close(fd) }
        _ = wsh_history_save(history, historyPath)
        chmod(historyPath, 0o600)
    }

    /// TAB: complete the word before the cursor, or list the choices.
    private func complete() -> UInt8 {
        guard let info = wsh_el_line(editLine)?.pointee, let start = info.buffer, let cursor = info.cursor else {
            return UInt8(CC_ERROR)
        }
        let length = start.distance(to: cursor)
        let before = String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
        let word = before.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let candidates = completer(before).filter { $0.hasPrefix(word) }
        guard !candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let common = candidates.dropFirst().reduce(candidates[0]) { $0.commonPrefix(with: $1) }
        if candidates.count == 1 {
            let rest = String(common.dropFirst(word.count)) + (common.hasSuffix("/") ? "" : " ")
            return wsh_el_insertstr(editLine, rest) == 0 ? UInt8(CC_REFRESH) : UInt8(CC_ERROR)
        }
        if common.count > word.count {
            return wsh_el_insertstr(editLine, String(common.dropFirst(word.count))) == 0 ? UInt8(CC_REFRESH) : UInt8(CC_ERROR)
        }
        let width = (candidates.map { DisplayWidth.of($0) }.max() ?? 0) + 2
        let perRow = max(1, Console.terminalColumns() / width)
        var listing = "\n"
        for (index, candidate) in candidates.enumerated() {
            listing += DisplayWidth.padRight(candidate, to: width)
            if (index + 1) % perRow == 0 || index == candidates.count - 1 { listing += "\n" }
        }
        fputs(listing, output)
        return UInt8(CC_REDISPLAY)
    }

    /// libedit drops non-ASCII input unless LC_CTYPE names a UTF-8 locale.
    static func configureLocale() {
        let current = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? ""
        if !current.uppercased().contains("UTF-8") && !current.uppercased().contains("UTF8") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
    }
}

/// libedit could not be loaded, so the prompt cannot edit lines.
public struct LineEditorUnavailable: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// libedit's read function: one character from stdin, decoded from UTF-8.
///
/// libedit's own reader retries once after EINTR, so a single Ctrl-C would
/// not end `el_gets`; this one gives up as soon as SIGINT has been seen.
private func readCharacter(_ editLine: OpaquePointer?, _ character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    var bytes: [UInt8] = []
    var needed = 1
    while bytes.count < needed {
        var byte: UInt8 = 0
        let n = read(STDIN_FILENO, &byte, 1)
        if n == 0 { return 0 }
        if n < 0 {
            if errno == EINTR && !Interrupts.pending { continue }
            return -1
        }
        if bytes.isEmpty {
            switch byte {
            case 0x00...0x7F: needed = 1
            case 0xC2...0xDF: needed = 2
            case 0xE0...0xEF: needed = 3
            case 0xF0...0xF4: needed = 4
            default:
                character?.pointee = 0xFFFD
                return 1
            }
        } else if byte & 0xC0 != 0x80 {
            character?.pointee = 0xFFFD
            return 1
        }
        bytes.append(byte)
    }
    let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first?.value ?? 0xFFFD
    character?.pointee = wchar_t(bitPattern: scalar)
    return 1
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    func commonPrefix(with other: String) -> String {
        String(zip(self, other).prefix { $0 == $1 }.map(\.0))
    }
}
