/// The archive's tables, one migration per schema version.
///
/// The version is `PRAGMA user_version`. A file at a version below
/// `current` is migrated forward in one transaction when opened for
/// writing; a file above it was written by a newer wsh and is opened for
/// reading only, as accounts.json is (see AccountStore).
enum ArchiveSchema {
    /// The version this wsh writes.
    static let current = 3

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
        // `ArchiveStore.migrate` from `search`.
        """
        CREATE VIRTUAL TABLE search_words USING fts5 (words, tokenize = 'unicode61');
        """,
        // 3: no index on `author`. A sync commits a page at a time, and the fifty or so authors of a page
        // touched as many leaf pages of it, each written whole to the WAL at each commit: a quarter of a
        // sync's writes, for an index no query of wsh's used. `accounts` lists the authors; a query by
        // author reads the table.
        """
        DROP INDEX IF EXISTS statuses_author;
        """,
    ]
}
