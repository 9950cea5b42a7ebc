import CEditLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive prompt on libedit: line editing, history kept across
/// sessions in a 0600 file (`PromptHistory`), TAB completion, Ctrl-C to drop
/// the line.
public final class EditLineSource: WakeableLineSource {
    /// Candidate words for the word before the cursor, given the line up to it.
    public typealias Completer = (_ lineBeforeCursor: String) -> [String]

    public var name: String { "<prompt>" }
    public var isInteractive: Bool { true }

    private let editLine: OpaquePointer
    private let history: PromptHistory
    private let completer: Completer
    private let output: UnsafeMutablePointer<FILE>
    private var promptText: UnsafeMutablePointer<CChar>?
    /// Bytes read from the terminal and not yet given to libedit.
    private var queued: [UInt8] = []
    var wake: () -> Int32? = { nil }
    /// Set when the wait for a key ended for `wake`: libedit's read ends, and with it the line being typed.
    private var woken: (typed: Bool, at: Bool) = (false, false)

    /// A prompt reading the terminal on stdin; throws when libedit cannot be loaded.
    ///
    /// - Parameters:
    ///   - historyPath: where entries persist; nil keeps them in memory only.
    ///   - redact: applied to every entry before it is stored, so a secret typed
    ///     at the prompt never reaches the history file.
    ///   - warn: told, once, when the history file cannot be written; the
    ///     session then goes on without it.
    public init(historyPath: String?, redact: @escaping (String) -> String = { $0 },
                completer: @escaping Completer,
                warn: @escaping (String) -> Void = { fputs("wsh: \($0)\n", wsh_stderr()) }) throws(LineEditorUnavailable) {
        Self.configureLocale()
        history = try PromptHistory(path: historyPath, redact: redact, warn: warn)
        // With stdout redirected, libedit must draw on stderr or it turns editing off.
        output = isatty(STDOUT_FILENO) != 0 ? wsh_stdout() : wsh_stderr()
        editLine = wsh_el_init("wsh", wsh_stdin(), output, wsh_stderr())
        self.completer = completer

        wsh_el_set_editor(editLine, "emacs")
        wsh_el_set_signal(editLine, 1)
        // Ctrl-\ at the prompt reaches libedit as a key, not as SIGQUIT.
        _ = wsh_el_disable_quit_character(editLine)
        wsh_el_set_history(editLine, history.handle)
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
        for (sequence, function) in KeySequences.bindings {
            wsh_el_bind(editLine, sequence, function)
        }
        // Read ~/.editrc so users keep their own bindings.
        _ = wsh_el_source(editLine, nil)
    }

    deinit {
        wsh_el_end(editLine)
        free(promptText)
    }

    public func readLine(prompt: String) -> LineRead {
        free(promptText)
        promptText = strdup(prompt)
        var count: Int32 = 0
        guard let raw = wsh_el_gets(editLine, &count) else {
            if woken.at {
                fputs(woken.typed ? "\n(the line being typed is dropped: the page asked for a replay)\n" : "\n", output)
                fflush(output)
                woken = (false, false)
                return .wake
            }
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
        history.remember(entry)
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

/// libedit's read function: the source's next character (see `nextCharacter`).
private func readCharacter(_ editLine: OpaquePointer?, _ character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
    guard let editLine, let data = wsh_el_client_data(editLine) else { return -1 }
    return Unmanaged<EditLineSource>.fromOpaque(data).takeUnretainedValue().nextCharacter(character)
}

extension EditLineSource {
    /// One byte read, or why there is none.
    private enum ByteRead: Equatable {
        case byte(UInt8)
        case end
        case interrupted
    }

    /// One character from stdin, decoded from UTF-8, for libedit.
    ///
    /// libedit's own reader retries once after EINTR, so a single Ctrl-C would
    /// not end `el_gets`; this one gives up as soon as SIGINT has been seen. An
    /// escape sequence that `KeySequences` does not bind is dropped whole, so a
    /// key such as PgUp never types the tail of its sequence (`~`, `5D`).
    fileprivate func nextCharacter(_ character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
        var first: UInt8 = 0
        reading: while true {
            switch nextByte() {
            case .byte(let byte): first = byte
            case .end: return 0
            case .interrupted: return -1
            }
            guard first == 0x1B else { break reading }
            switch filterEscapeSequence() {
            case .kept: break reading
            case .dropped: continue reading
            case .stopped(let read): return read == .end ? 0 : -1
            }
        }
        let needed: Int
        switch first {
        case 0x00...0x7F: needed = 1
        case 0xC2...0xDF: needed = 2
        case 0xE0...0xEF: needed = 3
        case 0xF0...0xF4: needed = 4
        default:
            character?.pointee = 0xFFFD
            return 1
        }
        var bytes = [first]
        while bytes.count < needed {
            switch nextByte() {
            case .byte(let byte) where byte & 0xC0 == 0x80:
                bytes.append(byte)
            case .byte(let byte):
                queued.insert(byte, at: 0)  // the start of the next character
                character?.pointee = 0xFFFD
                return 1
            case .end: return 0
            case .interrupted: return -1
            }
        }
        let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first?.value ?? 0xFFFD
        character?.pointee = wchar_t(bitPattern: scalar)
        return 1
    }

    /// What became of an escape sequence.
    private enum EscapeOutcome {
        /// Queued for libedit after the ESC being returned.
        case kept
        /// Not bound: read whole and thrown away.
        case dropped
        /// The input ended or Ctrl-C came inside it.
        case stopped(ByteRead)
    }

    /// After an ESC: reads a CSI (`ESC [ … final`) or SS3 (`ESC O x`)
    /// sequence and keeps it only if it is bound. Any other byte after ESC
    /// (Meta-f, say) is kept as it is.
    private func filterEscapeSequence() -> EscapeOutcome {
        let introducer: UInt8
        switch nextByte() {
        case .byte(let byte): introducer = byte
        case let stop: return .stopped(stop)
        }
        var sequence: [UInt8] = [0x1B, introducer]
        switch introducer {
        case UInt8(ascii: "["):
            while true {
                switch nextByte() {
                case .byte(let byte):
                    sequence.append(byte)
                    if (0x40...0x7E).contains(byte) { break }       // the final byte
                    guard (0x20...0x3F).contains(byte), sequence.count < 32 else { return .dropped }
                    continue
                case let stop: return .stopped(stop)
                }
                break
            }
        case UInt8(ascii: "O"):
            switch nextByte() {
            case .byte(let byte): sequence.append(byte)
            case let stop: return .stopped(stop)
            }
        default:
            queued.insert(introducer, at: 0)
            return .kept
        }
        guard KeySequences.bound.contains(sequence) else { return .dropped }
        queued.insert(contentsOf: sequence.dropFirst(), at: 0)
        return .kept
    }

    /// The next byte: a queued one, else one read from stdin.
    private func nextByte() -> ByteRead {
        if !queued.isEmpty { return .byte(queued.removeFirst()) }
        var byte: UInt8 = 0
        while true {
            // A Ctrl-C that came while libedit was busy (not blocked in read)
            // interrupted nothing: see it before blocking again.
            if Interrupts.pending { return .interrupted }
            switch WakeablePoll.wait(input: STDIN_FILENO, wake: wake()) {
            case .input: break
            case .interrupted: continue
            case .wake:
                let typed = wsh_el_line(editLine).map { $0.pointee.lastchar != $0.pointee.buffer } ?? false
                woken = (typed, true)
                return .interrupted
            }
            let n = read(STDIN_FILENO, &byte, 1)
            if n == 1 { return .byte(byte) }
            if n == 0 { return .end }
            if errno == EINTR && !Interrupts.pending { continue }
            return .interrupted
        }
    }
}

/// The escape sequences terminals send for editing keys, and what each does
/// at the prompt. Other CSI and SS3 sequences (PgUp, PgDn, Insert, F-keys,
/// Ctrl-Up…) do nothing.
enum KeySequences {
    static let bindings: [(sequence: String, function: String)] = {
        var bindings: [(String, String)] = []
        for prefix in ["\u{1B}[", "\u{1B}O"] {
            bindings += [(prefix + "A", "ed-prev-history"), (prefix + "B", "ed-next-history"),
                         (prefix + "C", "ed-next-char"), (prefix + "D", "ed-prev-char"),
                         (prefix + "H", "ed-move-to-beg"), (prefix + "F", "ed-move-to-end")]
        }
        // Ctrl- and Alt-Left/Right (xterm, and rxvt's ESC [ 5 C form): word motion.
        for modifier in ["1;5", "1;3", "5"] {
            bindings += [("\u{1B}[\(modifier)C", "em-next-word"), ("\u{1B}[\(modifier)D", "ed-prev-word")]
        }
        bindings += [("\u{1B}[1~", "ed-move-to-beg"), ("\u{1B}[7~", "ed-move-to-beg"),
                     ("\u{1B}[4~", "ed-move-to-end"), ("\u{1B}[8~", "ed-move-to-end"),
                     ("\u{1B}[3~", "ed-delete-next-char")]
        return bindings
    }()

    /// The bound sequences as bytes, for the reader's filter.
    static let bound: Set<[UInt8]> = Set(bindings.map { Array($0.sequence.utf8) })
}

extension String {
    func commonPrefix(with other: String) -> String {
        String(zip(self, other).prefix { $0 == $1 }.map(\.0))
    }
}
