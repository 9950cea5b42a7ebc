import FoundationEssentials
import Glibc
import WshText

/// `archive export html DIR`: a static site to read the archive offline.
///
/// - `index.html` lists the pages, newest first, with a search box;
/// - `page-N.html` holds at most `pageSize` statuses, whole threads where
///   they fit: a reply kept in the archive is shown under the status it
///   answers, indented, and a thread is cut across pages only when it alone
///   passes the size;
/// - `media/` holds the kept files (`archive media`) the pages show, linked
///   where the file system allows and copied where not, so the folder reads
///   alone with the server gone;
/// - `search.js` and `search-index.js` search every status's text from
///   `file://` (a script, not a fetch, so no browser refuses it).
extension ArchiveExport {
    /// The most statuses a page shows.
    public static let pageSize = 1000

    /// Writes the site into `folder` (made if needed).
    public static func html(_ connection: SQLiteConnection, media: ArchiveMediaFolder, to folder: String,
                            pageSize: Int = pageSize) throws(ArchiveError) -> Written {
        try PrivateFolder.make(folder)
        let pages = try threadPages(connection, pageSize: pageSize)
        var written = Written()
        var index = try ExportFile(folder + "/search-index.js")
        var copied = Set<String>()
        do throws(ArchiveError) {
            try index.write("window.WSH_INDEX = [\n")
            for (number, page) in pages.enumerated() {
                let statuses = try details(connection, page.map(\.rowid))
                let path = folder + "/page-\(number + 1).html"
                try ExportFile.writing(path) { (file: inout ExportFile) throws(ArchiveError) in
                    try file.write(head("page \(number + 1) of \(pages.count)")
                                   + navigation(number + 1, of: pages.count) + "<main>\n")
                    for entry in page {
                        guard let status = statuses[entry.rowid] else { continue }
                        try file.write(try article(status, depth: entry.depth, connection: connection, media: media,
                                                   folder: folder, copied: &copied))
                        let words = (status.text + " " + (status.cw ?? "") + " " + status.author).lowercased()
                        try index.write("[\(number + 1),\(JSONText.quoted(status.anchor)),\(JSONText.quoted(status.author)),"
                                        + "\(JSONText.quoted(status.time)),\(JSONText.quoted(words))],\n")
                    }
                    try file.write("</main>\n" + navigation(number + 1, of: pages.count) + "</body>\n</html>\n")
                }
                written.files.append((path, page.count))
            }
            try index.write("];\n")
            try index.finish()
        } catch {
            index.abandon()
            throw error
        }
        try writeWhole(folder + "/search.js", searchScript)
        try writeWhole(folder + "/index.html", indexPage(pages))
        written.files.insert((folder + "/index.html", pages.reduce(0) { $0 + $1.count }), at: 0)
        return written
    }

    /// One status on a page: its place in its thread.
    struct PageEntry {
        var rowid: Int64
        var depth: Int
    }

    /// Every status in threads, newest thread first, each thread in the order of its replies,
    /// cut into pages of at most `pageSize`.
    static func threadPages(_ connection: SQLiteConnection, pageSize: Int) throws(ArchiveError) -> [[PageEntry]] {
        struct Item {
            var rowid: Int64
            var parent: Int?
            var time: String
            var children: [Int] = []
        }
        var items: [Item] = []
        var byID: [String: Int] = [:]
        var replyTo: [String?] = []
        var scopes: [String] = []
        try connection.run("""
            SELECT rowid, server || char(31) || account, id, in_reply_to_id, coalesce(created_at, '') FROM statuses
            ORDER BY created_at, id_number, id
            """) { row in
            let scope = row.string(1) ?? ""
            byID[scope + "\u{1F}" + (row.string(2) ?? "")] = items.count
            items.append(Item(rowid: row.integer(0) ?? 0, time: row.string(4) ?? ""))
            replyTo.append(row.string(3))
            scopes.append(scope)
        }
        var roots: [Int] = []
        for index in items.indices {
            if let parentID = replyTo[index], let parent = byID[scopes[index] + "\u{1F}" + parentID], parent != index {
                items[index].parent = parent
                items[parent].children.append(index)
            } else {
                roots.append(index)
            }
        }
        // A reply whose chain loops back on itself (a server that says so) is a root of its own.
        var placed = [Bool](repeating: false, count: items.count)
        var pages: [[PageEntry]] = [[]]
        func place(_ thread: [PageEntry]) {
            if !pages[pages.count - 1].isEmpty, pages[pages.count - 1].count + thread.count > pageSize { pages.append([]) }
            for entry in thread {
                if pages[pages.count - 1].count == pageSize { pages.append([]) }
                pages[pages.count - 1].append(entry)
            }
        }
        func thread(from root: Int) -> [PageEntry] {
            var entries: [PageEntry] = []
            var stack = [(root, 0)]
            while let (index, depth) = stack.popLast() {
                guard !placed[index] else { continue }
                placed[index] = true
                entries.append(PageEntry(rowid: items[index].rowid, depth: depth))
                for child in items[index].children.reversed() { stack.append((child, depth + 1)) }
            }
            return entries
        }
        for root in roots.reversed() { place(thread(from: root)) }
        for index in items.indices.reversed() where !placed[index] { place(thread(from: index)) }
        return pages.filter { !$0.isEmpty }
    }

    /// What a page shows of a status.
    struct ShownStatus {
        var rowid: Int64
        var anchor: String
        var author: String
        var time: String
        var text: String
        var cw: String?
        var url: String?
        var deleted: String?
        var avatar: String?
    }

    /// The statuses of `rowids`, by rowid.
    static func details(_ connection: SQLiteConnection, _ rowids: [Int64]) throws(ArchiveError) -> [Int64: ShownStatus] {
        var shown: [Int64: ShownStatus] = [:]
        let list = "[" + rowids.map(String.init).joined(separator: ",") + "]"
        try connection.run("""
            SELECT s.rowid, s.id, coalesce(s.author, ''), coalesce(s.created_at, ''), s.text, s.cw, s.url,
                CASE WHEN s.deleted_by_me IS NOT NULL THEN 'deleted by you ' || s.deleted_by_me
                     WHEN s.deleted_at IS NOT NULL THEN 'deleted on the server ' || s.deleted_at END,
                coalesce(json_extract(s.json, '$.account.avatar_static'), json_extract(s.json, '$.account.avatar'),
                         json_extract(s.json, '$.user.profile_image_url'))
            FROM statuses s WHERE s.rowid IN (SELECT value FROM json_each(?))
            """, [.text(list)]) { row in
            let rowid = row.integer(0) ?? 0
            shown[rowid] = ShownStatus(rowid: rowid, anchor: "s-\(rowid)", author: row.string(2) ?? "", time: row.string(3) ?? "",
                                       text: row.string(4) ?? "", cw: row.string(5).flatMap { $0.isEmpty ? nil : $0 },
                                       url: row.string(6), deleted: row.string(7), avatar: row.string(8))
        }
        return shown
    }

    /// A status as an `<article>`, indented by its depth in the thread, with its kept media.
    static func article(_ status: ShownStatus, depth: Int, connection: SQLiteConnection, media: ArchiveMediaFolder,
                        folder: String, copied: inout Set<String>) throws(ArchiveError) -> String {
        var html = "<article id=\"\(status.anchor)\" class=\"status\" style=\"--depth: \(min(depth, 8))\">\n<header>"
        if let avatar = status.avatar, let local = try keptFile(avatar, connection, media, folder, &copied) {
            html += "<img class=\"avatar\" alt=\"\" src=\"\(HTMLText.escaped(local))\">"
        }
        html += "<b>\(HTMLText.escaped(status.author))</b> · <a href=\"#\(status.anchor)\">"
            + "<time datetime=\"\(HTMLText.escaped(status.time))\">\(HTMLText.escaped(shownTime(status.time)))</time></a>"
        if let url = status.url, url.hasPrefix("https://") || url.hasPrefix("http://") {
            html += " · <a class=\"original\" href=\"\(HTMLText.escaped(url))\">original</a>"
        }
        if let deleted = status.deleted { html += " · <span class=\"deleted\">\(HTMLText.escaped(deleted))</span>" }
        html += "</header>\n"
        let text = "<p>" + HTMLText.escaped(status.text).replacing("\n", with: "<br>") + "</p>"
        if let cw = status.cw {
            html += "<details><summary>\(HTMLText.escaped(cw))</summary>\(text)</details>\n"
        } else {
            html += text + "\n"
        }
        var pictures: [(url: String, type: String?, alt: String?)] = []
        try connection.run("SELECT url, type, alt FROM media WHERE status = ? ORDER BY position", [.integer(status.rowid)]) { row in
            if let url = row.string(0) { pictures.append((url, row.string(1), row.string(2))) }
        }
        for picture in pictures {
            let alt = HTMLText.escaped(picture.alt ?? "")
            if let local = try keptFile(picture.url, connection, media, folder, &copied) {
                if picture.type == "video" || picture.type == "gifv" {
                    html += "<video controls src=\"\(HTMLText.escaped(local))\" title=\"\(alt)\"></video>\n"
                } else {
                    html += "<a href=\"\(HTMLText.escaped(local))\"><img class=\"media\" alt=\"\(alt)\" src=\"\(HTMLText.escaped(local))\"></a>\n"
                }
            } else {
                html += "<p class=\"missing\">\(picture.type ?? "media") not kept (archive media keeps it): \(alt)</p>\n"
            }
        }
        return html + "</article>\n"
    }

    /// The path in the site of the kept file of `url`, put there on first use; nil when it is not kept.
    static func keptFile(_ url: String, _ connection: SQLiteConnection, _ media: ArchiveMediaFolder, _ folder: String,
                         _ copied: inout Set<String>) throws(ArchiveError) -> String? {
        var kept: (sha: String, type: String?)?
        try connection.run("SELECT sha256, type FROM media_files WHERE url = ? AND sha256 IS NOT NULL", [.text(url)]) { row in
            if let sha = row.string(0) { kept = (sha, row.string(1)) }
        }
        guard let kept else { return nil }
        let relative = ArchiveMediaFolder.relativePath(sha256: kept.sha, type: kept.type)
        let source = media.file(sha256: kept.sha, type: kept.type)
        guard access(source, R_OK) == 0 else { return nil }
        if copied.insert(relative).inserted {
            let target = folder + "/media/" + relative
            try PrivateFolder.make(String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)]))
            if access(target, F_OK) != 0, link(source, target) != 0 { try copy(source, to: target) }
        }
        return "media/" + relative
    }

    /// Copies a file whole (another file system: no hard link).
    static func copy(_ source: String, to target: String) throws(ArchiveError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ArchiveError("cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        var file = try ExportFile(target)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                file.abandon()
                throw ArchiveError("cannot read \(source): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            try file.write(Array(buffer[..<count]))
        }
        try file.finish()
    }

    /// `2024-11-11 13:30 UTC` of `2024-11-11T13:30:00.000Z`.
    static func shownTime(_ time: String) -> String {
        guard time.count >= 16, time.hasSuffix("Z") else { return time }
        return time.prefix(16).replacing("T", with: " ") + " UTC"
    }

    static func writeWhole(_ path: String, _ text: String) throws(ArchiveError) {
        try ExportFile.writing(path) { (file: inout ExportFile) throws(ArchiveError) in try file.write(text) }
    }

    static func head(_ title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escaped(title)) · wsh archive</title>
        <style>
        body { font: 16px/1.5 system-ui, sans-serif; overflow-wrap: anywhere; max-width: 46rem; margin: 0 auto; padding: 1rem; color: #1d1d1f; background: #fff; }
        nav { display: flex; gap: .75rem; flex-wrap: wrap; align-items: center; margin: .5rem 0 1rem; }
        .status { border-top: 1px solid #ddd; padding: .5rem 0 .5rem calc(var(--depth) * 1.25rem);
                  margin-left: calc(var(--depth) * .25rem); }
        .status[style*="--depth: 0"] { border-top: 2px solid #bbb; }
        .status header { color: #555; font-size: .9rem; }
        .avatar { width: 1.5rem; height: 1.5rem; border-radius: 50%; vertical-align: middle; margin-right: .4rem; }
        .media { max-width: 100%; max-height: 24rem; display: block; margin: .25rem 0; }
        .deleted, .missing { color: #a33; }
        #results li { margin: .25rem 0; }
        </style>
        <script src="search-index.js" defer></script>
        <script src="search.js" defer></script>
        </head>
        <body>
        <form id="search" role="search"><input id="query" type="search" placeholder="Search the archive" aria-label="Search the archive">
        <button>Search</button></form>
        <ol id="results" hidden></ol>

        """
    }

    static func navigation(_ page: Int, of count: Int) -> String {
        var html = "<nav><a href=\"index.html\">all pages</a>"
        if page > 1 { html += " <a rel=\"prev\" href=\"page-\(page - 1).html\">◀ newer</a>" }
        html += " <span>page \(page) of \(count)</span>"
        if page < count { html += " <a rel=\"next\" href=\"page-\(page + 1).html\">older ▶</a>" }
        return html + "</nav>\n"
    }

    static func indexPage(_ pages: [[PageEntry]]) -> String {
        let total = pages.reduce(0) { $0 + $1.count }
        var html = head("the archive") + "<h1>The archive</h1>\n<p>\(total) statuses in \(pages.count) "
            + (pages.count == 1 ? "page" : "pages") + ", newest thread first.</p>\n<ol class=\"pages\">\n"
        for (number, page) in pages.enumerated() {
            html += "<li><a href=\"page-\(number + 1).html\">page \(number + 1)</a> · \(page.count) statuses</li>\n"
        }
        return html + "</ol>\n</body>\n</html>\n"
    }

    /// Every word of the query (any case) inside a status's text, CW or author: the first 200, linked.
    static let searchScript = """
        (function () {
          var form = document.getElementById('search'), query = document.getElementById('query');
          var results = document.getElementById('results');
          form.addEventListener('submit', function (event) {
            event.preventDefault();
            var words = query.value.toLowerCase().split(/\\s+/).filter(Boolean);
            results.textContent = '';
            results.hidden = words.length === 0;
            if (!words.length) return;
            var found = (window.WSH_INDEX || []).filter(function (entry) {
              return words.every(function (word) { return entry[4].indexOf(word) >= 0; });
            });
            var heading = document.createElement('li');
            heading.textContent = found.length + (found.length === 1 ? ' status' : ' statuses') + ' found'
              + (found.length > 200 ? ', the first 200 shown' : '');
            results.appendChild(heading);
            found.slice(0, 200).forEach(function (entry) {
              var item = document.createElement('li'), link = document.createElement('a');
              link.href = 'page-' + entry[0] + '.html#' + entry[1];
              link.textContent = entry[2] + ' · ' + entry[3];
              item.appendChild(link);
              item.appendChild(document.createTextNode(' ' + entry[4].slice(0, 140)));
              results.appendChild(item);
            });
          });
        })();

        """
}
