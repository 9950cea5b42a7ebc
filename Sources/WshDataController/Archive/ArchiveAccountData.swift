import WshArchive
import WshModel
import WshRequest
import WshText

/// The account's data that is not a timeline, as `archive sync` keeps it:
/// whom it follows, who follows it, whom it mutes and blocks, its lists.
/// Each is a set, not a stream: it is read whole, page after page, and
/// kept in one transaction when the read is complete, so the archive can
/// say who came and who left between two syncs.
public enum ArchiveAccountKind: String, Sendable, Hashable, CaseIterable {
    case following, followers, mutes, blocks, lists
}

/// How one kind's sync ended.
public struct ArchiveAccountResult: Sendable {
    public enum End: Sendable {
        case done
        case interrupted
        case failed(RequestError)
        case archiveFailed(ArchiveError)
        /// The server gave a page cursor it had given before: the read would never end.
        case serverRepeatsItself
    }
    /// Accounts (or lists) read, new since the last sync, gone since it.
    public var read = 0
    public var came = 0
    public var left = 0
    public var end = End.done
}

extension TimelineDataController {
    /// Reads `kind` whole for the token's owner (`owner`), paced by the
    /// rate-limit budget, and keeps it in `store`; `progress` hears how many
    /// were read. Ctrl-C or a failed request keeps nothing of this read (the
    /// last complete one stands), and says so in its end.
    public func syncAccountData(_ store: ArchiveStore, kind: ArchiveAccountKind, owner: UserReference, scope: ArchiveScope,
                                progress: (Int) -> Void = { _ in }) async -> ArchiveAccountResult {
        var result = ArchiveAccountResult()
        var budget = await requestBudget()
        do throws(ArchiveSyncStop) {
            if let domain = try? await users.accountDomain() {
                do throws(ArchiveError) { try store.storeDomain(domain, server: scope.server) } catch { throw .archive(error) }
            }
            if kind == .lists {
                let lists = try await readLists(budget: &budget, progress: { result.read = $0; progress($0) })
                do throws(ArchiveError) { try store.storeLists(lists, scope: scope) } catch { throw .archive(error) }
                return result
            }
            let edges = try await readAccounts(kind, owner: owner, budget: &budget, progress: { result.read = $0; progress($0) })
            do throws(ArchiveError) {
                (result.came, result.left) = try store.storeRelations(edges, kind: kind.rawValue, scope: scope)
            } catch {
                throw .archive(error)
            }
        } catch {
            switch error {
            case .cancelled: result.end = .interrupted
            case .request(let failure): result.end = .failed(failure)
            case .archive(let failure): result.end = .archiveFailed(failure)
            case .limit, .walk: result.end = .serverRepeatsItself
            }
        }
        return result
    }

    /// Reads the edit history of each status of `scope`'s source edited since its history was
    /// kept, and keeps the versions the archive lacks; how many it kept.
    func keepEditHistories(_ store: ArchiveStore, scope: ArchiveScope, budget: inout RequestBudget) async throws(ArchiveSyncStop) -> Int {
        let edited: [(rowid: Int64, id: String, editedAt: String)]
        do throws(ArchiveError) { edited = try store.statusesWantingHistory(scope) } catch { throw .archive(error) }
        var kept = 0
        for status in edited {
            try await pause(&budget, first: false)
            let body = KeptBody()
            let versions = try await ArchiveSyncStop.asking { () async throws(RequestError) in
                try await statuses.editHistory(id: status.id, body: body)
            }
            let json = body.data.flatMap(ServerJSON.elements(of:)) ?? []
            // Each version but the last (the status as it is now) was replaced when the next one was written.
            var earlier: [ArchivedVersion] = []
            for index in versions.indices.dropLast() {
                let text = index < json.count ? String(decoding: json[index].bytes, as: UTF8.self) : "{}"
                earlier.append(ArchivedVersion(replacedAt: versions[index + 1].createdAt?.iso8601Text, text: versions[index].text,
                                               cw: versions[index].contentWarning, json: text))
            }
            do throws(ArchiveError) {
                kept += try store.keepHistory(earlier, of: status.rowid, editedAt: status.editedAt)
            } catch {
                throw .archive(error)
            }
        }
        return kept
    }

    /// Every account of `kind`, page after page, with how each edge is set.
    private func readAccounts(_ kind: ArchiveAccountKind, owner: UserReference, budget: inout RequestBudget,
                              progress: (Int) -> Void) async throws(ArchiveSyncStop) -> [ArchivedRelation] {
        var edges: [ArchivedRelation] = []
        var seen = Set<String>()
        var cursors = Set<String>()
        var cursor: String?
        repeat {
            try await pause(&budget, first: cursor == nil)
            let page = try await ArchiveSyncStop.asking { [users, cursor] () async throws(RequestError) -> UserPage in
                switch kind {
                case .following: try await users.accounts(.following, of: owner, count: 80, cursor: cursor)
                case .followers: try await users.accounts(.followers, of: owner, count: 80, cursor: cursor)
                case .mutes: try await users.ownAccounts(.mutes, count: 80, cursor: cursor)
                case .blocks: try await users.ownAccounts(.blocks, count: 80, cursor: cursor)
                case .lists: UserPage(users: [])
                }
            }
            for user in page.users {
                guard let id = user.identifier, seen.insert(id).inserted else { continue }
                edges.append(Self.relation(user, page.relationships[id], kind: kind))
            }
            progress(edges.count)
            if let next = page.next, !cursors.insert(next).inserted { throw .walk(.repeating(pages: cursors.count)) }
            cursor = page.users.isEmpty ? nil : page.next
        } while cursor != nil
        return edges
    }

    /// Every list with its members.
    private func readLists(budget: inout RequestBudget, progress: (Int) -> Void) async throws(ArchiveSyncStop) -> [ArchivedList] {
        try await pause(&budget, first: true)
        let lists = try await ArchiveSyncStop.asking { () async throws(RequestError) in try await self.lists() }
        var kept: [ArchivedList] = []
        for list in lists {
            try await pause(&budget, first: false)
            let members = try await ArchiveSyncStop.asking { () async throws(RequestError) in try await listMembers(listID: list.id) }
            kept.append(ArchivedList(id: list.id, title: list.title, repliesPolicy: list.repliesPolicy, exclusive: list.exclusive,
                                     members: members.map { Self.relation($0, nil, kind: .lists) }))
            progress(kept.count)
        }
        return kept
    }

    /// The pause the budget asks for before a request (none before the first); Ctrl-C first.
    func pause(_ budget: inout RequestBudget, first: Bool) async throws(ArchiveSyncStop) {
        if Task.isCancelled { throw .cancelled }
        let wait = budget.pauseBeforeNextRequest()
        if !first, wait > .zero {
            do { try await Task.sleep(for: wait) } catch { throw .cancelled }
        }
    }

    /// The edge to `user` as the archive keeps it, with what the relationship says of it.
    static func relation(_ user: User, _ relationship: Relationship?, kind: ArchiveAccountKind) -> ArchivedRelation {
        let json = user.serverJSON.map { String(decoding: $0.bytes, as: UTF8.self) }
        var edge = ArchivedRelation(targetID: user.identifier ?? "", acct: user.screenName, displayName: user.displayName ?? user.name,
                                    json: json)
        switch kind {
        case .following:
            edge.showBoosts = relationship?.showingReblogs
            edge.notify = relationship?.notifying
            edge.languages = relationship?.languages.flatMap { $0.isEmpty ? nil : $0 }
        case .mutes:
            edge.hideNotifications = relationship?.mutingNotifications
            edge.expiresAt = user.serverJSON?.value?["mute_expires_at"]?.string
        case .followers, .blocks, .lists:
            break
        }
        return edge
    }
}
