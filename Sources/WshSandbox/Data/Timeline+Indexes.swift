import FoundationEssentials

/// The timelines as indexes (ordinals in order), so that a page is a slice
/// found by binary search, never a scan over every status (DESIGN.md §18).
///
/// Each index joins what the generated data holds (`DataSet`, made once) to
/// what writes added (`posted…`, kept up to date by `post` and `edit`). An
/// index may hold more than its timeline shows: deleted statuses, and those
/// an edit changed; a page's filter leaves them out as it reads.
extension Timeline {
    /// The candidates for the public timeline: statuses that were public and
    /// no boost and no reply to another account when made (a boost is never
    /// edited, visibility never changes).
    var publicIndex: OrdinalIndex {
        OrdinalIndex([data.publicOrdinals, postedPublic])
    }

    /// The statuses that had the tag `name` (any case) when made or in an edit.
    func tagIndex(_ name: String) -> OrdinalIndex {
        let key = name.lowercased()
        return OrdinalIndex([data.tagOrdinals[key] ?? [], postedTagged[key] ?? []])
    }

    /// The statuses of `user`, deleted ones included.
    func userIndex(_ user: Int) -> OrdinalIndex {
        guard data.ordinalsByUser.indices.contains(user) else { return OrdinalIndex([postedByUser[user] ?? []]) }
        return OrdinalIndex([data.ordinalsByUser[user], postedByUser[user] ?? []])
    }

    /// The statuses of any of `authors` (a home or list timeline), deleted ones included.
    func authorsIndex(_ authors: some Sequence<Int>) -> OrdinalIndex {
        OrdinalIndex(authors.flatMap { userIndex($0).sources })
    }

    /// True when the status with `ordinal` (from `publicIndex`, or `tagIndex(tag)`)
    /// is on the public timeline for a viewer hiding `hidden`: no boost, public,
    /// not deleted; with pictures for `onlyMedia`; with `tag` when given.
    func isOnPublicTimeline(_ ordinal: Int, hidden: Set<Int>, onlyMedia: Bool, tag: String?) -> Bool {
        guard !isDeleted(ordinal: ordinal) else { return false }
        if tag == nil, !onlyMedia, ordinal <= data.statuses.count, edits[ordinal] == nil {
            // A generated status in the index, never edited, is public and no boost:
            // only its author can hide it, and that is known without making its text.
            return hidden.isEmpty || !hidden.contains(data.authorIndex(ofOrdinal: ordinal))
        }
        guard let status = status(ordinal: ordinal), !isBoost(status), !hidden.contains(status.authorIndex) else {
            return false
        }
        if let visibility = status.mastodon?.visibility, visibility != "public" { return false }
        if onlyMedia && status.pictureKeys.isEmpty { return false }
        if let tag, !Hashtags.text(status.text, has: tag) { return false }
        return true
    }

    /// Adds a new status (the newest) to the indexes of what writes add.
    mutating func index(posted status: SandboxStatus) {
        postedByUser[status.authorIndex, default: []].append(status.ordinal)
        // Mastodon's public timeline leaves out replies to others (a thread's self-replies stay).
        if !isBoost(status), Self.isThreadOrNoReply(status), (status.mastodon?.visibility ?? "public") == "public" {
            postedPublic.append(status.ordinal)
        }
        indexTags(of: status.text, ordinal: status.ordinal)
    }

    /// Adds the status with `ordinal` to the index of each tag `text` has.
    mutating func indexTags(of text: String, ordinal: Int) {
        guard text.contains("#") else { return }
        for name in Hashtags.names(in: text) {
            OrdinalIndex.insert(ordinal, into: &postedTagged[name.lowercased(), default: []])
        }
    }
}
