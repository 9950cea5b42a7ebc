import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import WshLanguage
import WshText
import WshWeb

/// `web`: the classroom page, a View of the session in a browser.
extension Shell {
    func webCommands() -> [CommandSpec] {
        [
            CommandSpec(
                name: "web", abstract: "Serve the classroom page: every layer of the session, live, in a browser.",
                discussion: """
                    `web on [PORT]` serves a page at http://127.0.0.1:PORT/ (no PORT or 0: a free
                    one) and prints its URL and the read-only link students join with
                    (/join/KEY/). The page shows, live, each command as typed, its path through the
                    layers as lanes (View, ViewModel, DataController, Request, Model and, on the
                    sandbox, the Server route that answered), the View it produced, what the
                    terminal printed, the ViewModel state with what the command changed, and the
                    history with the position undo and redo move. Click a command to see it as it
                    was. Everything the page needs is inside wsh: it works offline. The page
                    listens beyond this machine only with wsh --web-host ADDR; a student's page
                    never has controls, and a wrong join key gets 403. While a lesson is
                    presented (wsh --present LESSON --web), the teacher's page has Next and Back.
                    "Replay from here" on a command starts a fresh session (a new sandbox, or
                    the same --replay recording from its start) that runs the session's commands
                    up to it, and the class follows the new branch.
                    `web off` stops serving; `web` alone says where it is served.
                    `web save FILE.html` writes the session so far as one self-contained HTML file
                    (the same page, its events inside) that any browser opens offline.
                      web on 8080
                      web save lesson-1.html
                    """,
                arguments: [
                    ArgumentSpec("on|off|save", help: "serve the page, stop, or save it as one file", arity: .optional),
                    ArgumentSpec("PORT|FILE", help: "with on: the port (0: a free one); with save: the HTML file",
                                 arity: .optional),
                ],
                completion: { request in request.argumentIndex == 0 ? ["on", "off", "save"] : [] },
                handler: { [unowned self] context in try web(context) }),
        ]
    }

    private func web(_ context: CommandContext) throws(LanguageError) {
        let value = context.arguments["PORT|FILE"]
        switch context.arguments["on|off|save"] {
        case nil:
            if value != nil { throw .usage("web takes on PORT, off or save FILE") }
            if let web {
                context.writeLine("on: \(web.server.teacherURL) · students: \(web.server.studentURL) · "
                                  + "\(web.server.log.listenerCount) page(s) open · \(web.server.log.events.count) events kept")
            } else {
                context.writeLine("off")
            }
        case "on":
            var port = 0
            if let value {
                guard let number = Int(value), (0...65_535).contains(number) else {
                    throw .usage("web on takes a port from 0 to 65535, not '\(value)'")
                }
                port = number
            }
            if let web {
                throw .commandFailed("the page is served already at \(web.server.teacherURL) (web off first)")
            }
            do {
                try startWeb(port: port)
            } catch {
                throw .commandFailed("cannot serve the page: \(error)")
            }
        case "off":
            if value != nil { throw .usage("web off takes nothing more") }
            guard web != nil else { throw .commandFailed("the page is not served (web on starts it)") }
            stopWeb()
            context.note("web: stopped")
        case "save":
            guard let path = value, !path.isEmpty else { throw .usage("web save needs a FILE: web save lesson.html") }
            guard let server = web?.server ?? lastWebServer else {
                throw .commandFailed("nothing to save: the page keeps the session only while it is served (web on, or wsh --web)")
            }
            let html = server.savedPage()
            do {
                try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw .commandFailed("cannot write \(path): \(SystemError.reason(error))")
            }
            context.note("web: saved \(server.log.events.count) events to \(path)")
        case let other?:
            throw .usage("web takes on, off or save, not '\(other)'")
        }
    }

    /// Serves the classroom page on `port` and subscribes it to the session's
    /// stream; says where on stderr. The address is `--web-host`'s (loopback
    /// by default); beyond loopback it warns, once.
    public func startWeb(port: Int) throws {
        let host = configuration.webHost
        let log = ClassroomLog()
        let keys = try PagePipe()
        let replay = try makeReplayRequests()
        let server = try ClassroomServer.start(
            ClassroomServer.Configuration(host: host, port: port, presenting: presenting,
                                          title: connection.label, limits: Self.webLimits()),
            log: log,
            control: { control in
                if case .replay(let step) = control { replay.request(step: step) } else { keys.send(control) }
            },
            replayRefusal: { replay.refusal(step: $0) })
        let view = WebView(log: log)
        view.secrets = connection.secrets
        web = WebSession(server: server, view: view, keys: keys, replay: replay)
        lastWebServer = nil
        stream.subscribe(view)
        stream.watchClosely(true)
        let stream = self.stream
        console.tee = { text, isError in stream.publish(.output(text: text, isError: isError)) }
        // The page starts from the state as it is now.
        published = nil
        publishStateIfWatched(after: "web on")
        if let stop = presenterStop { stream.publish(.lesson(stop)) }
        let style = console.diagnosticStyle
        console.note("web: " + style.bold(server.teacherURL) + style.dim(" (this machine)"))
        console.note("web: students join at " + server.studentURL + style.dim(" (read-only)"))
        if server.configuration.listensBeyondLoopback {
            console.note(style.yellow("wsh: the classroom page listens on \(host), beyond this machine: anyone who can reach "
                                      + "it and has the join link sees the session (read-only)"))
        }
    }

    /// The classroom's caps, but for `WSH_WEB_SEATS=N`: the event streams one
    /// address (this machine included) and the other machines together may
    /// hold. A class of 100 followed from this machine (scripts/bench-web
    /// --students 100) needs more than the 8 seats this machine has.
    static func webLimits() -> ClassroomServer.Limits {
        var limits = ClassroomServer.Limits()
        if let seats = getenv("WSH_WEB_SEATS").flatMap({ Int(String(cString: $0)) }), seats > 0 {
            limits.streamsPerAddress = seats
            limits.streamsFromOthers = max(seats, limits.streamsFromOthers)
        }
        return limits
    }

    /// Stops serving the page; `web save` still writes what it had.
    public func stopWeb() {
        guard let web else { return }
        stream.unsubscribe(web.view)
        stream.watchClosely(false)
        console.tee = nil
        web.server.stop()
        web.close()
        lastWebServer = web.server
        self.web = nil
    }
}
