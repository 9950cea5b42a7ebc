import FoundationEssentials

/// Generated quote states and profile extras on the Mastodon side: a pure
/// function of the ordinal or the user's index (so of the seed), nothing stored.
extension Timeline {
    /// The state of the quote by `status` of the status with `quotedOrdinal`:
    /// `deleted` once that status is gone; otherwise about 1 generated quote
    /// in 4 waits for approval, was refused or cannot be shown; the rest are accepted.
    func quoteState(of status: SandboxStatus, quoting quotedOrdinal: Int) -> String {
        if isDeleted(ordinal: quotedOrdinal) { return "deleted" }
        guard status.ordinal <= data.statuses.count else { return "accepted" }
        // A multiplicative hash of the ordinal, 0 to 31: reposts fall on no pattern of ordinals.
        switch (UInt64(status.ordinal) &* 0x9E37_79B9_7F4A_7C15) >> 59 {
        case 0, 1, 2: return "pending"
        case 3, 4: return "revoked"
        case 5: return "deleted"
        case 6: return "unauthorized"
        case 7: return "rejected"
        default: return "accepted"
        }
    }

    /// About 1 account in 7 links a website (verified) and shows the `:wsh:` emoji in a field.
    func hasGeneratedProfileExtras(_ user: SandboxUser) -> Bool {
        user.index % 7 == 2
    }
}
