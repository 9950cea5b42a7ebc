import WshText

/// The classroom page: one HTML document with its style and script inside,
/// nothing loaded from anywhere else, so it works offline and `web save`
/// can write it as one file.
///
/// The same page serves three roles: the teacher's (live, with Next and Back
/// while a lesson is presented), a student's (live, read-only) and a saved
/// handout (its events inside the file, no connection). The page builds
/// every text node with `textContent`: nothing from the session is ever read
/// as HTML.
///
/// Its style (`Page/classroom.css`: large type and strong contrast for a
/// projector, light and dark, 1024×768 to 4K, a zoom for the content) and
/// script (`Page/classroom.js`: the events grouped by line, and the selected
/// line's layers, Views, terminal text, state and history) are string literals
/// made from those files at build time (`Plugins/EmbedFiles`): wsh reads no file.
public enum ClassroomPage {
    /// Whose page it is.
    public enum Role: Sendable {
        /// The teacher's page on this machine: the key its controls send, whether a
        /// lesson is presented (Next and Back), and why "Replay from here" cannot
        /// work in this session (nil when it can).
        case teacher(controlKey: String, presenting: Bool, replay: String?)
        /// A student's read-only copy.
        case student
    }

    /// The live page for `role`, whose stream and older events are under `base` (`/` or `/join/KEY/`).
    static func live(title: String, role: Role, base: String, nonce: String) -> String {
        let settings: String
        switch role {
        case .teacher(let key, let presenting, let replay):
            settings = self.settings(role: "teacher", base: base, controlKey: key, presenting: presenting, replay: replay)
        case .student:
            settings = self.settings(role: "student", base: base)
        }
        return document(title: title, nonce: nonce, settings: settings, events: "[]", sources: "{}",
                        policy: contentSecurityPolicy(nonce: nonce))
    }

    /// `web save`: the page with `events` inside it, for any browser, offline;
    /// with them the source files they name, compressed (`ClassroomSources`).
    public static func saved(title: String, events: [ClassroomLog.Event]) -> String {
        let nonce = "saved"
        let inline = "[" + events.map(\.json).joined(separator: ",\n") + "]"
        let sources = JSONValue.object(ClassroomSources.referenced(by: events).mapValues { .string($0) })
        return document(title: title, nonce: nonce, settings: settings(role: "saved", base: ""),
                        events: inline, sources: String(decoding: sources.encoded(), as: UTF8.self),
                        policy: contentSecurityPolicy(nonce: nonce, connects: false))
    }

    /// The page's settings: whose page it is, where its events are, and the
    /// teacher's controls (`controlKey`, `presenting`, and `replay`: null when
    /// "Replay from here" works, else why not); a student's and a saved page have none.
    static func settings(role: String, base: String, controlKey: String? = nil, presenting: Bool = false,
                         replay: String? = nil) -> String {
        let settings: JSONValue = .object([
            "role": .string(role), "base": .string(base), "controlKey": controlKey.map { .string($0) } ?? .null,
            "presenting": .bool(presenting), "replay": replay.map { .string($0) } ?? .null,
        ])
        return String(decoding: settings.encoded(), as: UTF8.self)
    }

    /// What the page may load and run: its own script and style (by nonce), and fetches of its own origin.
    static func contentSecurityPolicy(nonce: String, connects: Bool = true) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; img-src data:; "
            + "connect-src \(connects ? "'self'" : "'none'"); base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    private static func document(title: String, nonce: String, settings: String, events: String, sources: String,
                                 policy: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(XMLText.escaped(policy, apostrophe: "&#39;"))">
        <title>wsh \(XMLText.escaped(title, apostrophe: "&#39;")) · classroom</title>
        <style nonce="\(nonce)">\(EmbeddedFiles.classroomCSS)</style>
        </head>
        <body>
        <header id="bar">
          <h1><span class="brand">wsh</span> <span id="title">\(XMLText.escaped(title, apostrophe: "&#39;"))</span></h1>
          <span id="connection" class="pill" role="status">connecting…</span>
          <span id="role" class="pill"></span>
          <span class="spacer"></span>
          <span id="presenter" hidden>
            <button id="back" type="button" title="Back: undo the last step (b or PageUp)">◀ Back</button>
            <button id="next" type="button" title="Next: run the next step (n, Space or PageDown)">Next ▶</button>
          </span>
          <button id="follow" type="button" title="Follow the newest command (End)">Follow live</button>
          <span class="zoom" role="group" aria-label="zoom">
            <button id="zoom-out" type="button" title="Smaller text (-)">A−</button>
            <button id="zoom-in" type="button" title="Larger text (+)">A+</button>
          </span>
          <button id="theme" type="button" title="Light or dark (t)">◐</button>
        </header>
        <main id="content">
          <nav id="timeline-panel" aria-label="commands">
            <h2>Commands</h2>
            <button id="older" type="button" hidden>load earlier commands</button>
            <p id="gap" class="note" hidden></p>
            <ol id="timeline"></ol>
          </nav>
          <section id="command-panel" aria-label="the command">
            <div id="lesson" hidden><p id="lesson-step" class="note"></p><div id="narration"></div><p id="lesson-next"></p></div>
            <div id="steps" role="group" aria-label="the steps">
              <button id="step-back" type="button" title="The step before (←)">◀</button>
              <input id="scrub" type="range" min="0" max="0" value="0" aria-label="step">
              <button id="step-next" type="button" title="The step after (→)">▶</button>
              <span id="step-where" class="note"></span>
              <button id="replay" type="button" hidden title="A fresh session runs the commands up to this step: the class takes the other branch">Replay from here</button>
            </div>
            <p id="branch" class="note" hidden></p>
            <h2 id="command-title">Waiting for the first command…</h2>
            <p id="command-meta" class="note"></p>
            <div id="lanes" role="table" aria-label="the layers"></div>
            <h3>View</h3>
            <div id="views"></div>
            <h3>Terminal</h3>
            <pre id="output"></pre>
          </section>
          <aside id="code-panel" aria-label="the code behind the event" hidden>
            <div class="code-bar"><h2 id="code-title">Source</h2>
              <button id="code-close" type="button" title="Close the source (Escape)">✕</button></div>
            <p id="code-where" class="note"></p>
            <div id="exchange" hidden></div>
            <ol id="code" class="code"></ol>
          </aside>
          <aside id="model-panel" aria-label="state and history">
            <div id="state-box">
              <h2>ViewModel state</h2>
              <div id="state-diff"></div>
              <div id="state"></div>
            </div>
            <div id="history-box">
              <h2>History</h2>
              <p id="history-position" class="note"></p>
              <ol id="history"></ol>
            </div>
          </aside>
        </main>
        <script type="application/json" id="wsh-settings">\(scriptSafe(settings))</script>
        <script type="application/json" id="wsh-events">\(scriptSafe(events))</script>
        <script type="application/json" id="wsh-sources">\(scriptSafe(sources))</script>
        <script nonce="\(nonce)">\(EmbeddedFiles.classroomJS)</script>
        </body>
        </html>

        """
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        String(decoding: JSONValue.string(text).encoded(), as: UTF8.self)
    }

    /// JSON that may sit inside a `<script>` element: no `<` can close it.
    static func scriptSafe(_ json: String) -> String {
        json.replacing("<", with: "\\u003c")
    }
}
