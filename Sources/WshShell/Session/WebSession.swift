import Glibc
import WshLanguage
import WshWeb

/// The classroom page while it is served: the server, its View on the
/// session's stream, and the pipe that carries Next and Back from the
/// teacher's page to the presenter, as keys.
final class WebSession {
    let server: ClassroomServer
    let view: WebView
    let keys: PresenterKeyPipe

    init(server: ClassroomServer, view: WebView, keys: PresenterKeyPipe) {
        self.server = server
        self.view = view
        self.keys = keys
    }
}

/// Next and Back from the teacher's page, as the keys the presenter reads:
/// a pipe the server writes one byte to (Enter or `b`) and the presenter
/// polls beside the terminal, so they go through the same door as a key press.
final class PresenterKeyPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw LanguageError.commandFailed("web: cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Hands `control` to the presenter as its key.
    func send(_ control: ClassroomServer.Control) {
        var byte: UInt8 = control == .next ? UInt8(ascii: "\n") : UInt8(ascii: "b")
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    func close() {
        Glibc.close(writeEnd)
        Glibc.close(readEnd)
    }
}
