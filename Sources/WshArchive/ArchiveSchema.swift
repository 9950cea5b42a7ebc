/// The archive's tables, one migration per schema version.
///
/// The version is `PRAGMA user_version`. A file at a version below
/// `current` is migrated forward in one transaction when opened for
/// writing; a file above it was written by a newer wsh and is opened for
/// reading only, as accounts.json is (see AccountStore).
enum ArchiveSchema {
    /// The version this wsh writes.
    static let current = 4

    /// `migrations[n]` takes a file from version n to n + 1.
    static let migrations: [String] = [
        """
        CREATE TABLE statuses (
            rowid INTEGER PRIMARY KEY,
            server TEXT NOT NULL,          -- the API's base URL, e.g. https://mastodon.social/
            account TEXT NOT NULL,         -- the account that saw it (its name in wsh's accounts, else its uid)
            api TEXT NOT NULL,             -- mastodon or weibo: how json reads
            id TEXT NOT NULL,              -- the server's status id
            id_number INTEGER,             -- id as a number, for ordering (NULL when not numeric)
            author_id TEXT,
            author TEXT,                   -- @name (screen name or acct)
            created_at TEXT,               -- ISO 8601, UTC
            text TEXT NOT NULL DEFAULT '', -- the text as plain text
            cw TEXT,                       -- content warning (Mastodon's spoiler_text)
            visibility TEXT,
            language TEXT,
            replies_count INTEGER,
            reposts_count INTEGER,
            favourites_count INTEGER,
            in_reply_to_id TEXT,
            boost_of_id TEXT,              -- the id of the status this boosts or reposts
            url TEXT,
            edited_at TEXT,
            deleted_at TEXT,               -- when a sync found it gone from the server; never dropped
            archived_at TEXT NOT NULL,
            json TEXT NOT NULL,            -- the server's JSON for the status, whole
            UNIQUE (server, account, id)
        );
        CREATE INDEX statuses_time ON statuses (server, account, id_number);
        CREATE INDEX statuses_author ON statuses (author);
        CREATE TABLE accounts (
            server TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT,                     -- @name
            display_name TEXT,
            json TEXT,
            PRIMARY KEY (server, id)
        );
        CREATE TABLE media (
            status INTEGER NOT NULL REFERENCES statuses (rowid),
            position INTEGER NOT NULL,
            type TEXT,
            url TEXT,
            alt TEXT,                      -- the description a screen reader reads
            PRIMARY KEY (status, position)
        );
        CREATE TABLE tags (
            status INTEGER NOT NULL REFERENCES statuses (rowid),
            tag TEXT NOT NULL,
            PRIMARY KEY (status, tag)
        );
        CREATE TABLE mentions (
            status INTEGER NOT NULL REFERENCES statuses (rowid),
            name TEXT NOT NULL,
            PRIMARY KEY (status, name)
        );
        CREATE TABLE edits (
            status INTEGER NOT NULL REFERENCES statuses (rowid),
            edited_at TEXT,                -- when this version was replaced (NULL: the original)
            text TEXT,
            cw TEXT,
            json TEXT NOT NULL,            -- the version as the server sent it
            replaced_at TEXT NOT NULL      -- when a sync saw the newer version
        );
        CREATE INDEX edits_status ON edits (status);
        CREATE TABLE source_statuses (
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            source TEXT NOT NULL,          -- as fetch names it: home, public, user @name, tag #name, notifications…
            status INTEGER NOT NULL REFERENCES statuses (rowid),
            PRIMARY KEY (server, account, source, status)
        ) WITHOUT ROWID;
        CREATE TABLE cursors (
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            source TEXT NOT NULL,
            newest_id TEXT,                -- the newest status it has
            oldest_id TEXT,                -- the oldest
            back_cursor TEXT,              -- where the walk back goes on (NULL: not started, or done)
            back_done INTEGER NOT NULL DEFAULT 0,
            gap_cursor TEXT,               -- a catch-up walk that was interrupted: where it goes on
            gap_floor TEXT,                -- … down to this id
            gap_top TEXT,                  -- … and the newest id it started from
            last_sync TEXT,
            PRIMARY KEY (server, account, source)
        );
        CREATE VIRTUAL TABLE search USING fts5 (text, cw, alt, tokenize = 'trigram');
        """,
        // 2: words of one or two characters found through an index (ArchiveWords); filled by
        // `ArchiveStore.migrate` from `search`. Since schema 4 with an index of prefixes of one and two
        // characters: a query of one Chinese character is a prefix of the two-character words (`"天"*`), and
        // one of two Latin letters of the words they start (`"go"*`); without it FTS5 merges every such
        // word's list (at a million statuses 75 ms for 天 and 24 ms for go; with it, 11 and 6). A file
        // made before has its table copied into one with the index (`ArchiveStore.migrate`, at 4).
        """
        CREATE VIRTUAL TABLE search_words USING fts5 (words, tokenize = 'unicode61', prefix = '1 2');
        """,
        // 3: no index on `author`. A sync commits a page at a time, and the fifty or so authors of a page
        // touched as many leaf pages of it, each written whole to the WAL at each commit: a quarter of a
        // sync's writes, for an index no query of wsh's used. `accounts` lists the authors; a query by
        // author reads the table.
        """
        DROP INDEX IF EXISTS statuses_author;
        """,
        // 4: an account's data beyond its timelines: who it follows, who follows it, whom it mutes and
        // blocks (each edge with when a sync first and last saw it), its lists and their members, its
        // notifications, the files of kept media, and what `expire` planned and deleted. Nothing is
        // rebuilt: `statuses` gains one column, and every row of a version-3 file stays as it was.
        """
        ALTER TABLE statuses ADD COLUMN deleted_by_me TEXT;  -- when wsh deleted it on the server (expire); the row stays
        ALTER TABLE statuses ADD COLUMN history_edited_at TEXT;  -- the edit whose whole history (the server's) is in edits
        CREATE TABLE relations (
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            kind TEXT NOT NULL,            -- following, followers, mutes or blocks
            target_id TEXT NOT NULL,       -- the other account's id on the server
            acct TEXT,                     -- its address as the server wrote it: name, or name@domain
            first_seen TEXT NOT NULL,      -- the first sync that saw this edge
            last_seen TEXT NOT NULL,       -- the last sync that saw it; older than the kind's last sync: gone
            show_boosts INTEGER,           -- following: the follow shows their boosts (1/0; NULL: not known)
            notify INTEGER,                -- following: notify on their new posts
            languages TEXT,                -- following: the languages followed, comma-separated (NULL: all)
            hide_notifications INTEGER,    -- mutes: their notifications are hidden too
            expires_at TEXT,               -- mutes: when the mute ends (NULL: never)
            PRIMARY KEY (server, account, kind, target_id)
        ) WITHOUT ROWID;
        CREATE TABLE servers (             -- what a sync learnt of each server
            server TEXT PRIMARY KEY,
            domain TEXT,                   -- the domain of its own accounts' addresses (user@domain)
            seen_at TEXT NOT NULL
        );
        CREATE TABLE relation_syncs (      -- each complete read of a kind, so two syncs can be compared
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            kind TEXT NOT NULL,            -- as in relations, or lists
            synced_at TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (server, account, kind, synced_at)
        ) WITHOUT ROWID;
        CREATE TABLE lists (
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            id TEXT NOT NULL,
            title TEXT NOT NULL,
            replies_policy TEXT,
            exclusive INTEGER,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            PRIMARY KEY (server, account, id)
        ) WITHOUT ROWID;
        CREATE TABLE list_members (
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            list_id TEXT NOT NULL,
            target_id TEXT NOT NULL,
            acct TEXT,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            PRIMARY KEY (server, account, list_id, target_id)
        ) WITHOUT ROWID;
        CREATE TABLE notifications (
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            id TEXT NOT NULL,
            type TEXT NOT NULL,            -- mention, favourite, reblog, follow, poll, status, update…
            created_at TEXT,
            from_id TEXT,                  -- the account it is from
            from_acct TEXT,
            status_id TEXT,                -- the status it is about, if any (kept in statuses)
            json TEXT NOT NULL,
            PRIMARY KEY (server, account, id)
        ) WITHOUT ROWID;
        CREATE TABLE media_files (         -- a kept copy of a remote file, named by its content's hash
            url TEXT PRIMARY KEY,
            kind TEXT NOT NULL,            -- attachment, avatar, header or emoji
            sha256 TEXT,                   -- NULL: not kept (yet)
            bytes INTEGER,
            type TEXT,                     -- the media type it was checked to be
            kept_at TEXT,
            failure TEXT,                  -- why the last try did not keep it
            tries INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE expire_runs (         -- one expire --confirmed: its rules and when it listed
            id INTEGER PRIMARY KEY,
            server TEXT NOT NULL,
            account TEXT NOT NULL,
            rules TEXT NOT NULL,           -- the options, as given
            listed_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE expire_items (        -- what a run listed to delete; deleted_at is set as each goes
            run INTEGER NOT NULL REFERENCES expire_runs (id),
            status INTEGER NOT NULL REFERENCES statuses (rowid),
            deleted_at TEXT,
            failure TEXT,
            PRIMARY KEY (run, status)
        ) WITHOUT ROWID;
        """,
    ]
}
