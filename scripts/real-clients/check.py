"""Real clients against a running wsh-sandbox: Mastodon.py, toot and the Weibo SDKs.

Run by scripts/check-real-clients, once per sandbox flavour (the server the
sandbox's Mastodon side imitates: mastodon, gotosocial, pleroma, akkoma, sharkey):

    python check.py BASE_URL FLAVOUR SINAWEIBOPY3_DIR

Prints one line per call, `PASS name: detail` or `FAIL name: why`, and exits 1
if any failed. What it asserts is what a user of each client would notice:
ids of the flavour's style, pages that follow each other, writes that land.
"""

import html
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse

import requests

BASE, FLAVOUR, SINAWEIBOPY3 = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
OOB = "urn:ietf:wg:oauth:2.0:oob"
APPROVER = "1700000001"  # account 2, as the Swift tests approve
# Each flavour's ids: Mastodon's snowflakes, GoToSocial's ULIDs, Pleroma's and
# Akkoma's flake ids, Sharkey's aid-style ids.
ID_PATTERN = {
    "mastodon": re.compile(r"^[0-9]+$"),
    "gotosocial": re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$"),
    "pleroma": re.compile(r"^[0-9A-Za-z]{18}$"),
    "akkoma": re.compile(r"^[0-9A-Za-z]{18}$"),
    "sharkey": re.compile(r"^[0-9a-z]{16}$"),
}[FLAVOUR]
failures = 0


def check(name, call, verify=lambda result: None):
    """Runs `call`; PASS when it returns and `verify` (which raises or returns a note) accepts it."""
    global failures
    try:
        result = call()
        note = verify(result)
        if note is None and isinstance(result, str):
            note = result
        print(f"PASS {FLAVOUR} {name}" + (f": {note}" if note else ""), flush=True)
        return result
    except Exception as error:  # every failure is one line, the run goes on
        failures += 1
        detail = f"{type(error).__name__}: {error}".splitlines()[0][:300]
        print(f"FAIL {FLAVOUR} {name}: {detail}", flush=True)
        if os.environ.get("CHECK_VERBOSE"):
            traceback.print_exc()
        return None


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def styled(value):
    """Mastodon.py may hand a numeric id back as an int; the server's id is its string."""
    text = str(value)
    expect(ID_PATTERN.match(text), f"id {text!r} is not a {FLAVOUR} id")
    return text


def approve(authorize_url, user=APPROVER):
    """Plays the browser: opens the authorize page, then POSTs its approve form as `user`."""
    page = requests.get(authorize_url, timeout=10)
    expect(page.status_code == 200, f"authorize page: HTTP {page.status_code}")
    parts = urllib.parse.urlsplit(authorize_url)
    form = dict(urllib.parse.parse_qsl(parts.query))
    form.update(user=user, approve="1")
    action = f"{parts.scheme}://{parts.netloc}{parts.path}"
    answer = requests.post(action, data=form, allow_redirects=False, timeout=10)
    if answer.status_code in (301, 302, 303):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(answer.headers["Location"]).query)
        return query["code"][0]
    found = re.search(r'<code id="code">([^<]*)<', answer.text)
    expect(found, f"approve: HTTP {answer.status_code}, no code on the page")
    return html.unescape(found.group(1))


# MARK: Mastodon.py

def mastodon_py():
    from mastodon import Mastodon

    scopes = ["read", "write", "follow"]
    app = check("Mastodon.create_app",
                lambda: Mastodon.create_app("wsh real-client check", scopes=scopes, redirect_uris=OOB,
                                            api_base_url=BASE),
                lambda keys: expect(all(keys), "no client id or secret"))
    if not app:
        return
    client = Mastodon(client_id=app[0], client_secret=app[1], api_base_url=BASE)
    started = time.monotonic()

    def login():
        # allow_http: Mastodon.py refuses OAuth over plain HTTP unless told (it names the flag for testing).
        url = client.auth_request_url(redirect_uris=OOB, scopes=scopes, allow_http=True)
        return client.log_in(code=approve(url), redirect_uri=OOB, scopes=scopes, allow_http=True)

    token = check("Mastodon.log_in(code=…)", login, lambda token: expect(token, "no token") or "a token")
    if not token:
        return
    me = check("Mastodon.account_verify_credentials", client.account_verify_credentials,
               lambda account: expect(str(account.id) and account.acct, "no account"))
    home = check("Mastodon.timeline_home", lambda: client.timeline_home(limit=5),
                 lambda page: f"{len(page)} statuses, first {styled(page[0].id)}" if page else expect(False, "empty"))
    public = check("Mastodon.timeline_public", lambda: client.timeline_public(limit=20),
                   lambda page: f"{len(page)} statuses" if [styled(s.id) for s in page] else expect(False, "empty"))
    if not public:
        return
    first = public[0]
    check("Mastodon.status", lambda: client.status(first.id),
          lambda status: expect(str(status.id) == str(first.id) and status.content == first.content,
                                "another status came back"))
    replied = next((s for s in public if s.replies_count > 0), first)

    def context_ok(context):
        expect(len(context.descendants) == replied.replies_count, f"{len(context.descendants)} descendants, "
               f"replies_count {replied.replies_count}")
        for reply in context.descendants:
            styled(reply.id)
            styled(reply.in_reply_to_id)
        return f"{len(context.descendants)} replies"

    check("Mastodon.status_context", lambda: client.status_context(replied.id), context_ok)
    check("Mastodon.account", lambda: client.account(first.account.id),
          lambda account: expect(str(account.id) == str(first.account.id) and account.acct == first.account.acct,
                                 "another account came back") or styled(account.id))

    posted = check("Mastodon.status_post", lambda: client.status_post("Hello from Mastodon.py #wsh"),
                   lambda status: styled(status.id) and expect("Hello from Mastodon.py" in status.content,
                                                               "the text is not in content"))
    check("Mastodon.status_favourite", lambda: client.status_favourite(first.id),
          lambda status: expect(status.favourited is True, "not favourited"))
    check("Mastodon.status_reblog", lambda: client.status_reblog(first.id),
          lambda boost: styled(boost.id) and expect(str(boost.reblog.id) == str(first.id), "reblog is another status"))
    if posted:
        check("Mastodon.status_delete", lambda: client.status_delete(posted.id),
              lambda status: expect(str(status.id) == str(posted.id), "another status was deleted"))
        check("Mastodon.status after delete is 404", lambda: _not_found(lambda: client.status(posted.id)))

    # fetch_next from the first page to the end: every public status once, newest first.
    def walk():
        seen, page, pages = [], client.timeline_public(limit=40), 0
        while page:
            seen += [str(s.id) for s in page]
            pages += 1
            page = client.fetch_next(page)
        expect(len(seen) == len(set(seen)), "a status came twice")
        expect(seen == sorted(seen, key=sort_key, reverse=True), "pages are not newest first")
        everything = requests.get(f"{BASE}/api/v1/instance", timeout=10).json()["stats"]["status_count"]
        expect(0 < len(seen) <= everything, f"{len(seen)} statuses of {everything}")
        return f"{len(seen)} statuses in {pages} pages, no repeats, in order"

    check("Mastodon.fetch_next to the end", walk)
    check("Mastodon.fetch_previous of the first page", lambda: client.fetch_previous(public),
          lambda page: expect(page == [] or all(sort_key(str(s.id)) > sort_key(str(first.id)) for s in page),
                              "prev holds older statuses"))
    elapsed = time.monotonic() - started
    # Mastodon.py's default ratelimit_method is "wait": it sleeps only when
    # X-RateLimit-Remaining runs out. Mastodon's window (300 per 5 minutes)
    # never runs out here, so a call costs milliseconds.
    check("Mastodon.py default rate limiting costs no sleep",
          lambda: elapsed, lambda seconds: expect(seconds < 10, f"{seconds:.1f} s for the calls above")
          or f"{seconds:.2f} s for all the calls above")
    mastodon_py_edits(client, me)
    paced = Mastodon(access_token=token, api_base_url=BASE, ratelimit_method="pace")

    def pace():
        begun = time.monotonic()
        for _ in range(5):
            paced.timeline_home(limit=1)
        return (time.monotonic() - begun) / 5

    check("Mastodon.py ratelimit_method='pace' per call", pace,
          lambda seconds: expect(seconds < 2, f"{seconds:.1f} s per call") or f"{seconds:.2f} s per call")
    mastodon_py_relations(client, me)
    bookmarks_and_lists(client, public)
    if me:
        mastodon_notifications(client, me)
    mastodon_streaming(client)
    mastodon_py_posting(client, first)
    mastodon_py_extras(client)
    mastodon_py_faithful(client, me, first)


def mastodon_py_faithful(client, me, first):
    """Issue 34's endpoints as Mastodon.py calls them: a reply that is a status,
    update_credentials, favourited_by/reblogged_by, filters v2, custom emojis."""
    root = check("Mastodon.status_post (a root to reply to)", lambda: client.status_post("root #wsh"),
                 lambda status: styled(status.id))
    if root and me:
        reply = check("Mastodon.status_reply (a reply is a status)", lambda: client.status_reply(root, "a reply"),
                      lambda status: expect(str(status.in_reply_to_id) == str(root.id), "in_reply_to_id") or styled(status.id))
        if reply:
            check("Mastodon.account_statuses has the reply", lambda: client.account_statuses(me.id, limit=5),
                  lambda page: expect(any(str(s.id) == str(reply.id) for s in page), "the reply is missing") or "there")
            check("Mastodon.status_context of the root lists it", lambda: client.status_context(root.id),
                  lambda context: expect([str(s.id) for s in context.descendants] == [str(reply.id)],
                                         f"{len(context.descendants)} descendants") or "one descendant")
    check("Mastodon.account_update_credentials",
          lambda: client.account_update_credentials(display_name="wsh tester", note="notes\nhere",
                                                    fields=[("Site", "https://example.org")]),
          lambda account: expect(account.display_name == "wsh tester" and account.source.note == "notes\nhere"
                                 and account.fields[0].name == "Site", "not updated") or account.display_name)
    if first:
        client.status_favourite(first.id)
        check("Mastodon.status_favourited_by", lambda: client.status_favourited_by(first.id),
              lambda accounts: expect(me and any(str(a.id) == str(me.id) for a in accounts), "the favourite is missing")
              or f"{len(accounts)} accounts")
        check("Mastodon.status_reblogged_by", lambda: client.status_reblogged_by(first.id),
              lambda accounts: f"{len(accounts)} accounts")
    mastodon_py_filters(client, me)
    check("Mastodon.custom_emojis", client.custom_emojis,
          lambda emojis: expect(emojis and emojis[0].shortcode == "wsh", "no :wsh:") or emojis[0].shortcode)


def mastodon_py_filters(client, me):
    """Filters v2 as Mastodon 4 applies them: every status the keywords match carries the
    filter in `filtered` (the filter naming its contexts and action), in each context:
    home, public, a status and its thread, a notification's status, an account's statuses;
    a `hide` filter too, for the client to leave the status out."""
    word = "wshfilterword"
    contexts = ["home", "public", "notifications", "thread", "account"]
    made = check("Mastodon.create_filter_v2",
                 lambda: client.create_filter_v2("wsh words", contexts, filter_action="warn",
                                                 keywords_attributes=[{"keyword": word, "whole_word": True}]),
                 lambda f: expect(f.keywords and f.keywords[0].keyword == word and f.context == contexts, "not as made")
                 or f.filter_action)
    if not made:
        return

    def carries(status, action="warn"):
        expect(status is not None, "the status is not there")
        results = status.filtered or []
        expect(any(str(r.filter.id) == str(made.id) and r.filter.filter_action == action
                   and [m.lower() for m in r.keyword_matches] == [word] for r in results), f"filtered {results}")
        return f"filtered by {made.title!r} ({action}), keyword_matches {results[0].keyword_matches}"

    def find(page, status_id):
        return next((s for s in page if str(s.id) == str(status_id)), None)

    flagged = check("Mastodon.status_post (a status the filter matches)", lambda: client.status_post(f"a {word} here"))
    if not flagged:
        return
    check("Mastodon.timeline_home carries filtered (home)", lambda: client.timeline_home(limit=5),
          lambda page: carries(find(page, flagged.id)))
    check("Mastodon.timeline_public carries filtered (public)", lambda: client.timeline_public(limit=5),
          lambda page: carries(find(page, flagged.id)))
    check("Mastodon.account_statuses carries filtered (account)", lambda: client.account_statuses(me.id, limit=5),
          lambda page: carries(find(page, flagged.id)))
    check("Mastodon.status carries filtered (thread)", lambda: client.status(flagged.id), carries)
    answer = client.status_reply(flagged, f"another {word}")
    check("Mastodon.status_context carries filtered (thread)", lambda: client.status_context(flagged.id),
          lambda context: carries(find(context.descendants, answer.id)))
    # Another account (account 1, the sandbox's own token) mentions this one with the word.
    requests.post(f"{BASE}/api/v1/statuses", headers={"Authorization": "Bearer sandbox-token"}, timeout=10,
                  data={"status": f"@{me.acct} a {word} for you"})
    check("Mastodon.notifications carries filtered in its status (notifications)",
          lambda: client.notifications(types=["mention"], limit=1), lambda page: carries(page[0].status if page else None))
    check("Mastodon.update_filter_v2(filter_action='hide')", lambda: client.update_filter_v2(made.id, filter_action="hide"),
          lambda f: expect(f.filter_action == "hide", f.filter_action) or "hide")
    check("Mastodon.timeline_home keeps a hidden status, carrying the hide filter for the client",
          lambda: client.timeline_home(limit=5), lambda page: carries(find(page, flagged.id), "hide"))
    check("Mastodon.filters_v2", client.filters_v2, lambda filters: expect(len(filters) == 1, f"{len(filters)}") or "one")
    check("Mastodon.delete_filter_v2", lambda: client.delete_filter_v2(made.id))
    check("Mastodon.status after delete_filter_v2 carries none", lambda: client.status(flagged.id),
          lambda status: expect(not status.filtered, f"filtered {status.filtered}") or "filtered []")


def mastodon_notifications(client, me):
    """Notifications and conversations, as the logged-in account (account 2): another
    account (account 1, the sandbox's own token) favourites and messages it first."""
    other = {"Authorization": "Bearer sandbox-token"}
    own = check("Mastodon.account_statuses (own, to be favourited)",
                lambda: client.account_statuses(me.id, exclude_reblogs=True, limit=1),
                lambda page: expect(page, "account 2 has no status") or styled(page[0].id))
    if not own:
        return
    requests.post(f"{BASE}/api/v1/statuses/{own[0].id}/favourite", headers=other, timeout=10)
    notifications = check("Mastodon.notifications", lambda: client.notifications(limit=10),
                          lambda page: expect(page and page[0].type == "favourite"
                                              and str(page[0].status.id) == str(own[0].id),
                                              f"first is {page[0].type if page else None}, not the favourite just made")
                          or f"{len(page)}, first {styled(page[0].id)}")
    check("Mastodon.notifications(types=[mention])", lambda: client.notifications(types=["mention"], limit=10),
          lambda page: expect(page and all(n.type == "mention" for n in page), "a type other than mention")
          or f"{len(page)} mentions")
    check("Mastodon.notifications(id=…)", lambda: client.notifications(id=notifications[0].id) if notifications else None,
          lambda one: expect(str(one.id) == str(notifications[0].id), "another notification"))
    if notifications:
        def dismiss():
            client.notifications_dismiss(notifications[0].id)
            return client.notifications(limit=10)

        if FLAVOUR == "gotosocial":
            # Mastodon.py reads GoToSocial's version (0.16.0) as a Mastodon below 2.9.2 and
            # sends the pre-3.0 POST notifications/dismiss, which GoToSocial does not serve:
            # a real GoToSocial answers 404 too, so that answer is the one to see here.
            from mastodon import MastodonNotFoundError

            def refused():
                try:
                    dismiss()
                except MastodonNotFoundError as error:
                    return f"404 as GoToSocial answers the pre-3.0 route Mastodon.py sends: {error.args[-1]}"
                raise AssertionError("dismissed: GoToSocial has no POST notifications/dismiss")
            check("Mastodon.notifications_dismiss", refused)
        else:
            check("Mastodon.notifications_dismiss", dismiss,
                  lambda page: expect(all(str(n.id) != str(notifications[0].id) for n in page), "still listed")
                  or "gone")

    def clear():
        client.notifications_clear()
        return client.notifications(limit=10)
    check("Mastodon.notifications_clear", clear, lambda page: expect(not page, f"{len(page)} left") or "none left")

    def seeded(page):
        expect(len(page) >= 2 and all(c.last_status.visibility == "direct" and c.accounts for c in page),
               f"{len(page)} conversations")
        expect(any(c.unread for c in page) and any(not c.unread for c in page), "not some unread, some read")
        return f"{len(page)} from the seed, {sum(c.unread for c in page)} unread"

    before = check("Mastodon.conversations (the seed's)", lambda: client.conversations(limit=10), seeded)
    if before:
        threaded = next((c for c in before if c.last_status.in_reply_to_id), None)
        check("Mastodon.status_context of a conversation's last status", lambda: client.status_context(threaded.last_status.id),
              lambda context: expect(context.ancestors and all(s.visibility == "direct" for s in context.ancestors),
                                     "no direct ancestors") or f"{len(context.ancestors)} ancestors")
    requests.post(f"{BASE}/api/v1/statuses", headers=other, timeout=10,
                  data={"status": f"@{me.acct} psst", "visibility": "direct"})
    conversations = check("Mastodon.conversations", lambda: client.conversations(limit=5),
                          lambda page: expect(page and page[0].unread and page[0].last_status.visibility == "direct",
                                              "no unread direct conversation")
                          or f"{len(page)}, with {page[0].accounts[0].acct}")
    if conversations:
        check("Mastodon.conversations_read", lambda: client.conversations_read(conversations[0].id),
              lambda conversation: expect(not conversation.unread, "still unread"))
        check("Mastodon.conversations after conversations_read", lambda: client.conversations(limit=10),
              lambda page: expect(not page[0].unread and str(page[0].id) == str(conversations[0].id), "unread again")
              or "read, still first")
        # Mastodon.py has no call for DELETE /api/v1/conversations/:id: through its session, as a user of it would.
        check("DELETE /api/v1/conversations/:id (Mastodon.py's session)",
              lambda: client.session.delete(f"{BASE}/api/v1/conversations/{conversations[0].id}",
                                            headers={"Authorization": "Bearer " + client.access_token}, timeout=10),
              lambda answer: expect(answer.status_code == 200 and all(
                  str(c.id) != str(conversations[0].id) for c in client.conversations(limit=10)), f"HTTP {answer.status_code}")
              or "gone from the list")


def mastodon_streaming(client):
    """The streaming API: health, then a public and a user stream that must each hear one
    update; a status is posted every half second until the listener does (20 s at most)."""
    import threading
    from mastodon import StreamListener

    check("Mastodon.stream_healthy", client.stream_healthy, lambda healthy: expect(healthy, "not healthy") or "OK")
    if FLAVOUR == "gotosocial":
        # GoToSocial streams over a WebSocket only; Mastodon.py reads server-sent events, which a
        # real GoToSocial does not serve: its stream is refused there too, and that is what to see here.
        for name in ("stream_public", "stream_user"):
            def refused(name=name):
                # Listening in the foreground: Mastodon.py raises at once when the server refuses the
                # stream; a stream that opened instead would block, so it listens on a thread of its own.
                outcome = {}

                def listen():
                    try:
                        getattr(client, name)(StreamListener(), run_async=False)
                    except Exception as error:
                        outcome["error"] = error
                listener = threading.Thread(target=listen, daemon=True)
                listener.start()
                listener.join(20)
                expect("error" in outcome,
                       "a server-sent event stream: GoToSocial serves its streaming API over a WebSocket only")
                return f"refused as GoToSocial refuses server-sent events: {type(outcome['error']).__name__}"
            check(f"Mastodon.{name} (GoToSocial: WebSocket only)", refused)
        return
    for name in ("stream_public", "stream_user"):
        def one_update(name=name):
            heard, updates = threading.Event(), []

            class Listener(StreamListener):
                def on_update(self, status):
                    updates.append(status)
                    heard.set()

            handle = getattr(client, name)(Listener(), run_async=True, reconnect_async=False)
            try:
                deadline = time.monotonic() + 20
                while not heard.is_set() and time.monotonic() < deadline:
                    client.status_post("streamed at %.3f" % time.monotonic())
                    heard.wait(0.5)
            finally:
                handle.close()
            expect(updates, "no update within 20 s")
            return f"update {styled(updates[0].id)}: {updates[0].content[:40]}"
        check(f"Mastodon.{name} (a listener hears one update)", one_update)


def mastodon_py_relations(client, me):
    """Search, followers/following, blocks and mutes, as a Mastodon.py user would call them."""
    public = client.timeline_public(limit=20)
    other = next((s.account for s in public if me and str(s.account.id) != str(me.id)), None)
    if not other:
        return
    name = other.acct
    check("Mastodon.search_v2 (accounts by name prefix)", lambda: client.search_v2(name[:4], result_type="accounts"),
          lambda found: expect(any(a.acct == name for a in found.accounts), f"{name} not found")
          or f"{len(found.accounts)} accounts for {name[:4]!r}")
    host = urllib.parse.urlsplit(BASE).netloc
    check("Mastodon.search_v2 (resolve name@host)", lambda: client.search_v2(f"@{name}@{host}", resolve=True),
          lambda found: expect([a.acct for a in found.accounts] == [name], f"{[a.acct for a in found.accounts]}")
          or f"@{name}@{host}")
    word = next((w for s in public for w in re.findall(r"[A-Za-z]{4,}", html.unescape(re.sub("<[^>]+>", " ", s.content)))), "wsh")
    check("Mastodon.search_v2 (statuses by text)", lambda: client.search_v2(word, result_type="statuses"),
          lambda found: expect(found.statuses and all(word.lower() in s.content.lower() for s in found.statuses),
                               f"statuses for {word!r}: {len(found.statuses)}") or f"{len(found.statuses)} statuses with {word!r}")
    tagged = next((t.name for s in public for t in s.tags), None)
    if tagged:
        check("Mastodon.search_v2 (hashtags agree with statuses' tags)", lambda: client.search_v2(tagged, result_type="hashtags"),
              lambda found: expect(any(t.name == tagged for t in found.hashtags), f"#{tagged} not found")
              or f"#{tagged}, {found.hashtags[0].history[0].uses} uses")
    check("Mastodon.account_search", lambda: client.account_search(name, limit=5),
          lambda found: expect(found and found[0].acct == name, "no exact match first") or f"{len(found)} accounts")
    check("Mastodon.account_follow", lambda: client.account_follow(other.id),
          lambda relationship: expect(relationship.following is True, "not following"))
    check("Mastodon.account_followers (the follow shows)", lambda: client.account_followers(other.id),
          lambda found: expect(any(str(a.id) == str(me.id) for a in found), "I am not among the followers")
          or f"{len(found)} followers")
    check("Mastodon.account_following", lambda: client.account_following(me.id),
          lambda found: expect(any(str(a.id) == str(other.id) for a in found), f"{name} is not followed")
          or f"{len(found)} followed")
    check("Mastodon.account_block", lambda: client.account_block(other.id),
          lambda relationship: expect(relationship.blocking is True and relationship.following is False,
                                      f"blocking {relationship.blocking}, following {relationship.following}"))
    check("Mastodon.blocks", client.blocks,
          lambda found: expect([str(a.id) for a in found] == [str(other.id)], "the block is not listed") or name)
    check("Mastodon.account_unblock", lambda: client.account_unblock(other.id),
          lambda relationship: expect(relationship.blocking is False, "still blocking"))
    # Blocking ended the follow; follow again so that only the mute keeps them off the home timeline.
    client.account_follow(other.id)
    check("Mastodon.account_mute", lambda: client.account_mute(other.id, notifications=False, duration=3600),
          lambda relationship: expect(relationship.muting is True and relationship.muting_notifications is False,
                                      f"muting {relationship.muting}, notifications {relationship.muting_notifications}"))
    check("Mastodon.mutes", client.mutes,
          lambda found: expect([str(a.id) for a in found] == [str(other.id)] and found[0].mute_expires_at,
                               "the mute is not listed with its end") or f"{name} until {found[0].mute_expires_at}")
    check("Mastodon.timeline_home leaves a muted account out although followed", lambda: client.timeline_home(limit=40),
          lambda page: expect(all(str(s.account.id) != str(other.id) for s in page), "a muted account's status"))
    check("Mastodon.account_relationships", lambda: client.account_relationships(other.id),
          lambda found: expect(found[0].muting is True and found[0].blocking is False, f"{found[0]}") or "muting, not blocking")
    check("Mastodon.account_unmute", lambda: client.account_unmute(other.id),
          lambda relationship: expect(relationship.muting is False, "still muting"))
    check("Mastodon.timeline_home shows them again after unmute", lambda: client.timeline_home(limit=40),
          lambda page: expect(any(str(s.account.id) == str(other.id) for s in page), "their statuses stay hidden"))
    client.account_unfollow(other.id)


def bookmarks_and_lists(client, public):
    """Tags, local, bookmarks, favourites and lists through Mastodon.py, as a user would call them."""
    tagged = next((s for s in public if s.tags), None) or next(
        (s for s in client.timeline_public(limit=40, max_id=public[-1].id) if s.tags), None)

    def hashtag():
        expect(tagged, "no public status lists a tag")
        name = tagged.tags[0].name
        page, pages = client.timeline_hashtag(name, limit=40), 0
        while page and pages < 20:
            for status in page:
                expect(any(t.name.lower() == name.lower() for t in status.tags), f"status {status.id} lacks #{name}")
            if any(str(s.id) == str(tagged.id) for s in page):
                return f"#{name} finds status {tagged.id}"
            page, pages = client.fetch_next(page), pages + 1
        raise AssertionError(f"#{name} (listed in status {tagged.id}'s tags) does not find it")

    check("Mastodon.timeline_hashtag (a tag from a status's tags)", hashtag)
    check("Mastodon.timeline_local", lambda: client.timeline_local(limit=5),
          lambda page: expect(page, "empty") or f"{len(page)} statuses")
    marked = [str(s.id) for s in public[:3]]
    check("Mastodon.status_bookmark", lambda: [client.status_bookmark(i) for i in marked],
          lambda statuses: expect(all(s.bookmarked is True for s in statuses), "not bookmarked") or f"{len(statuses)} statuses")

    def bookmarks_paged():
        first = client.bookmarks(limit=2)
        expect([str(s.id) for s in first] == marked[::-1][:2], f"first page {[s.id for s in first]}")
        following = client.fetch_next(first)
        expect([str(s.id) for s in following or []] == marked[::-1][2:], f"next page {[s.id for s in following or []]}")
        return "newest bookmark first, fetch_next by the bookmarks' own ids"

    check("Mastodon.bookmarks + fetch_next", bookmarks_paged)
    check("Mastodon.favourites", lambda: client.favourites(limit=40),
          lambda page: expect(str(public[0].id) in [str(s.id) for s in page], "the status favourited above is missing")
          or f"{len(page)} statuses")
    check("Mastodon.status_unbookmark", lambda: client.status_unbookmark(marked[0]),
          lambda status: expect(status.bookmarked is False, "still bookmarked")
          or expect(marked[0] not in [str(s.id) for s in client.bookmarks()], "still in bookmarks") or "gone from bookmarks")
    made = check("Mastodon.list_create", lambda: client.list_create("wsh check"),
                 lambda made: expect(made.title == "wsh check", made.title) or styled(made.id))
    if not made:
        return
    check("Mastodon.lists", client.lists, lambda lists: expect(any(l.id == made.id for l in lists), "the new list is missing")
          or f"{len(lists)} lists")
    check("Mastodon.list_update", lambda: client.list_update(made.id, title="wsh checked"),
          lambda updated: expect(updated.title == "wsh checked", updated.title))
    author = public[0].account
    client.account_follow(author.id)
    check("Mastodon.list_accounts_add", lambda: client.list_accounts_add(made.id, [author.id]))
    check("Mastodon.list_accounts", lambda: client.list_accounts(made.id),
          lambda accounts: expect([str(a.id) for a in accounts] == [str(author.id)], "not the member added") or author.acct)
    check("Mastodon.timeline_list", lambda: client.timeline_list(made.id, limit=5),
          lambda page: expect(page and all(s.account.id == author.id for s in page), "not the member's statuses")
          or f"{len(page)} statuses by {author.acct}")
    check("Mastodon.list_accounts_delete", lambda: client.list_accounts_delete(made.id, [author.id]),
          lambda _: expect(client.list_accounts(made.id) == [], "still a member") or "removed")
    check("Mastodon.list_delete", lambda: client.list_delete(made.id),
          lambda _: expect(all(l.id != made.id for l in client.lists()), "still listed") or "gone")


def mastodon_py_edits(client, me):
    """Editing (status_update, status_history, status_source) and scheduling (status_post
    with scheduled_at, scheduled_statuses, scheduled_status, scheduled_status_update,
    scheduled_status_delete), as a Mastodon.py user does them."""
    from datetime import datetime, timedelta, timezone

    posted = check("Mastodon.status_post (to edit)", lambda: client.status_post("before the edit", spoiler_text="cw"),
                   lambda status: styled(status.id))
    if posted:
        check("Mastodon.status_update", lambda: client.status_update(posted.id, "after the edit", spoiler_text="cw"),
              lambda status: expect(str(status.id) == str(posted.id) and "after the edit" in status.content
                                    and status.edited_at is not None, "not edited in place") or "edited_at set")
        check("Mastodon.status_history", lambda: client.status_history(posted.id),
              lambda versions: expect(["before the edit" in v.content for v in versions] == [True, False]
                                      and "after the edit" in versions[-1].content, "not the original first")
              or f"{len(versions)} versions, the original first")
        check("Mastodon.status_source", lambda: client.status_source(posted.id),
              lambda source: expect(source.text == "after the edit" and source.spoiler_text == "cw",
                                    f"{source.text!r} / {source.spoiler_text!r}"))
    later = datetime.now(timezone.utc) + timedelta(hours=1)
    scheduled = check("Mastodon.status_post(scheduled_at=…)",
                      lambda: client.status_post("Hello later from Mastodon.py", scheduled_at=later),
                      lambda item: styled(item.id) and expect(item.params.text == "Hello later from Mastodon.py"
                                                              and abs((item.scheduled_at - later).total_seconds()) < 1,
                                                              "not a ScheduledStatus for that time"))
    check("Mastodon.status_post(scheduled_at=in 2 minutes) is refused",
          lambda: _refused(lambda: client.status_post("too soon", scheduled_at=datetime.now(timezone.utc)
                                                      + timedelta(minutes=2))))
    if not scheduled:
        return
    check("Mastodon.scheduled_statuses", client.scheduled_statuses,
          lambda items: expect([str(i.id) for i in items] == [str(scheduled.id)], f"{len(items)} scheduled") or "1 scheduled")
    check("Mastodon.scheduled_status", lambda: client.scheduled_status(scheduled.id),
          lambda item: expect(str(item.id) == str(scheduled.id), "another scheduled status"))
    moved_to = later + timedelta(days=1)
    check("Mastodon.scheduled_status_update", lambda: client.scheduled_status_update(scheduled.id, moved_to),
          lambda item: expect(abs((item.scheduled_at - moved_to).total_seconds()) < 1, f"at {item.scheduled_at}"))
    check("Mastodon.scheduled_status_delete", lambda: client.scheduled_status_delete(scheduled.id),
          lambda _: expect(client.scheduled_statuses() == [], "still scheduled") or "none left")


def mastodon_py_extras(client):
    """Quotes (Mastodon 4.4+), custom emojis and profile fields, as Mastodon.py parses them."""
    def pages():
        page = client.timeline_public(limit=40)
        statuses = list(page)
        for _ in range(2):
            page = client.fetch_next(page)
            if not page:
                break
            statuses += page
        return statuses

    statuses = check("Mastodon.timeline_public + fetch_next (quotes, emojis)", pages,
                     lambda found: f"{len(found)} statuses") or []
    quoting = [s for s in statuses if s.get("quote")]

    def quotes_ok(_):
        states = {s.quote.state for s in quoting}
        expect("accepted" in states and len(states) > 1, f"quote states {states}")
        for status in quoting:
            if status.quote.state == "accepted":
                styled(status.quote.quoted_status.id)
            else:
                expect(status.quote.quoted_status is None, f"a {status.quote.state} quote carries its status")
        return f"{len(quoting)} quotes, states {', '.join(sorted(states))}"

    accepted = next((s for s in quoting if s.quote.state == "accepted"), None)
    if accepted:
        check("Mastodon.status (a quote)", lambda: client.status(accepted.id),
              lambda status: expect(str(status.quote.quoted_status.id) == str(accepted.quote.quoted_status.id),
                                    "another quoted status") or quotes_ok(status))
    emoji = next((s for s in statuses if s.emojis), None)
    if emoji:
        check("Mastodon.status (custom emoji)", lambda: client.status(emoji.id),
              lambda status: expect(status.emojis[0].shortcode == "wsh" and ":wsh:" in status.content,
                                    f"emojis {status.emojis}") or f":{status.emojis[0].shortcode}: {status.emojis[0].url}")
    fielded = next((s.account for s in statuses if any(f.name == "Website" for f in s.account.fields)), None)
    if fielded:
        def fields_ok(account):
            website = next(f for f in account.fields if f.name == "Website")
            expect(website.verified_at is not None, "the website is not verified")
            expect(account.emojis and account.emojis[0].shortcode == "wsh", f"emojis {account.emojis}")
            return f"{len(account.fields)} fields, {website.name} verified at {str(website.verified_at)[:10]}"
        check("Mastodon.account (fields, emojis)", lambda: client.account(fielded.id), fields_ok)
    return fielded


def _refused(call):
    from mastodon import MastodonAPIError
    try:
        call()
    except MastodonAPIError as error:
        return str(error).splitlines()[0][:80]
    raise AssertionError("accepted")


# The smallest PNG there is: a 1x1 transparent pixel.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


def mastodon_py_posting(client, first):
    """Media with alt text, a status with options, a reply, a poll and a vote, as Mastodon.py sends them."""
    from mastodon import Mastodon

    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:
        file.write(PNG)
    try:
        media = check("Mastodon.media_post (PNG, description)",
                      lambda: client.media_post(file.name, description="one transparent pixel"),
                      lambda media: styled(media.id) and expect(media.description == "one transparent pixel",
                                                                f"description {media.description!r}")
                      or f"type {media.type}, url {'null (processing)' if media.url is None else 'set'}")
    finally:
        os.unlink(file.name)
    if media:
        check("Mastodon.media (processed)", lambda: client.media(media.id),
              lambda shown: expect(shown.url, "still no url") or "url set")

        def with_media_ok(status):
            attached = status.media_attachments
            expect(len(attached) == 1 and str(attached[0].id) == str(media.id), "the media is not attached")
            expect(attached[0].description == "one transparent pixel", "the alt text was lost")
            expect(status.spoiler_text == "a pixel" and status.visibility == "unlisted", "spoiler or visibility lost")
            return "media, spoiler_text and visibility kept"

        check("Mastodon.status_post(media_ids=…, spoiler_text=…, visibility=…)",
              lambda: client.status_post("a pixel for you", media_ids=[media.id], spoiler_text="a pixel",
                                         visibility="unlisted"), with_media_ok)
    poll_status = check("Mastodon.status_post(poll=make_poll(…))",
                        lambda: client.status_post("tea or coffee?", poll=client.make_poll(["tea", "coffee", "water"],
                                                                                             expires_in=3600, multiple=True)),
                        lambda status: expect(status.poll and len(status.poll.options) == 3, "no poll")
                        or f"poll {styled(status.poll.id)}")
    if poll_status:
        poll_id = poll_status.poll.id
        check("Mastodon.poll", lambda: client.poll(poll_id),
              lambda poll: expect([o.title for o in poll.options] == ["tea", "coffee", "water"] and not poll.expired,
                                  "another poll came back") or "3 options, open")
        check("Mastodon.poll_vote", lambda: client.poll_vote(poll_id, [0, 2]),
              lambda poll: expect(poll.voted and poll.own_votes == [0, 2] and poll.votes_count == 2,
                                  f"voted {poll.voted}, own_votes {poll.own_votes}") or "own_votes [0, 2]")
    check("Mastodon.status_reply", lambda: client.status_reply(first, "a reply from Mastodon.py"),
          lambda status: styled(status.id) and expect(str(status.in_reply_to_id) == str(first.id),
                                                      "in_reply_to_id is another status"))


def sort_key(id_text):
    """The server's order of ids: numeric for snowflakes, lexical (equal lengths) for the others."""
    return int(id_text) if FLAVOUR == "mastodon" else id_text


def _not_found(call):
    from mastodon import MastodonNotFoundError
    try:
        call()
    except MastodonNotFoundError:
        return "404"
    raise AssertionError("answered")


# MARK: toot

def toot():
    binary = os.path.join(os.path.dirname(sys.executable), "toot")
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_CONFIG_HOME=home, HOME=home, BROWSER="true", TERM="dumb", NO_COLOR="1")

        def login():
            # `toot login` prints the authorize URL, asks whether to open a
            # browser, then reads the code: answer as a person would.
            process = subprocess.Popen([binary, "login", "--instance", BASE], env=env, text=True,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            url, seen = None, []
            for line in process.stdout:
                seen.append(line)
                if "/oauth/authorize" in line:
                    url = line.strip()
                    break
            expect(url, "no login URL: " + "".join(seen)[-300:])
            code = approve(url)
            output, _ = process.communicate(f"n\n{code}\n", timeout=30)
            expect(process.returncode == 0 and "Successfully logged in" in output,
                   f"exit {process.returncode}: {output.strip()[-300:]}")
            return url

        if not check("toot login", login, lambda url: "authorized at " + urllib.parse.urlsplit(url).path):
            return

        def run(*arguments, stdin=""):
            done = subprocess.run([binary, *arguments], env=env, input=stdin, capture_output=True, text=True,
                                  timeout=60)
            expect(done.returncode == 0, f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}")
            return done.stdout

        statuses = requests.get(f"{BASE}/api/v1/timelines/home?limit=5",
                                headers={"Authorization": "Bearer " + _toot_token(home)}, timeout=10).json()

        def shows_home(output):
            for status in statuses[:3]:
                expect(str(status["id"]) in output, f"status {status['id']} is not shown")
            return f"{len(output.splitlines())} lines, the home timeline's ids"

        check("toot timeline --once", lambda: run("timeline", "--once", "--count", "5"), shows_home)
        public = requests.get(f"{BASE}/api/v1/timelines/public?limit=3", timeout=10).json()
        check("toot timeline --public --once", lambda: run("timeline", "--public", "--once", "--count", "3"),
              lambda output: expect(all(str(s["id"]) in output for s in public), "the public timeline's ids are not shown")
              or "the public timeline's ids")
        check("toot whoami", lambda: run("whoami"),
              lambda output: expect("@" in output, "no account shown") or output.splitlines()[0].strip())
        toot_relations(run, public)
        toot_fields(run)
        toot_posting(run, home)
        toot_bookmarks_and_lists(run, statuses, public, _toot_token(home))
        # Notifications: another account (account 1) favourites one of toot's account's statuses first.
        token = {"Authorization": "Bearer " + _toot_token(home)}
        me = requests.get(f"{BASE}/api/v1/accounts/verify_credentials", headers=token, timeout=10).json()
        own = requests.get(f"{BASE}/api/v1/accounts/{me['id']}/statuses?exclude_reblogs=true&limit=1", timeout=10).json()
        for action in ("unfavourite", "favourite"):  # anew, should the Mastodon.py check have favourited it already
            requests.post(f"{BASE}/api/v1/statuses/{own[0]['id']}/{action}", timeout=10,
                          headers={"Authorization": "Bearer sandbox-token"})
        check("toot notifications --json", lambda: run("notifications", "--json"),
              lambda output: expect(json.loads(output)[0]["type"] == "favourite", "the favourite is not first")
              or f"{len(json.loads(output))} notifications, the favourite first")
        check("toot notifications --type mention", lambda: run("notifications", "--type", "mention"),
              lambda output: expect("mentioned you" in output and "favourited" not in output, output[-200:])
              or "the mention only")
        check("toot notifications --clear", lambda: run("notifications", "--clear"),
              lambda output: expect(requests.get(f"{BASE}/api/v1/notifications", headers=token, timeout=10).json() == [],
                                    "notifications left") or "none left")
        toot_scheduled(run, home)
        toot_faithful(run, home)


def toot_relations(run, public):
    """toot's account commands: each finds the account through v2 search (resolve=true)."""
    me = run("whoami").split()[0].lstrip("@")
    name = next((s["account"]["acct"] for s in public if s["account"]["acct"] != me), None)
    if not name:
        return
    check("toot search", lambda: run("search", name),
          lambda output: expect("@" + name in output, f"@{name} not shown") or f"@{name} found")
    check("toot whois", lambda: run("whois", name),
          lambda output: expect("@" + name in output, "no account shown") or output.splitlines()[0].strip())
    check("toot follow", lambda: run("follow", name), lambda output: output.strip())
    check("toot following", lambda: run("following", me),
          lambda output: expect(name in output, f"{name} not listed") or f"{len(output.splitlines())} lines")
    check("toot followers", lambda: run("followers", name),
          lambda output: expect(me in output, f"{me} not listed") or f"{len(output.splitlines())} lines")
    check("toot unfollow", lambda: run("unfollow", name), lambda output: output.strip())
    check("toot block", lambda: run("block", name), lambda output: output.strip())
    check("toot blocked", lambda: run("blocked"), lambda output: expect(name in output, "not listed") or name)
    check("toot unblock", lambda: run("unblock", name), lambda output: output.strip())
    check("toot mute", lambda: run("mute", name), lambda output: output.strip())
    check("toot muted", lambda: run("muted"), lambda output: expect(name in output, "not listed") or name)
    check("toot unmute", lambda: run("unmute", name), lambda output: output.strip())


def toot_fields(run):
    """`toot whois` of an account with profile fields: each field, and a verified one marked."""
    url, name = f"{BASE}/api/v1/timelines/public?limit=40", None
    for _ in range(3):
        answer = requests.get(url, timeout=10)
        name = next((s["account"]["acct"] for s in answer.json()
                     if any(f["name"] == "Website" for f in s["account"]["fields"])), None)
        if name or "next" not in answer.links:
            break
        url = answer.links["next"]["url"]
    if not name:
        return
    check("toot whois (fields)", lambda: run("whois", name),
          lambda output: expect("Website:" in output and "✓ Verified" in output and ":wsh:" in output,
                                output[-300:]) or "Website ✓ Verified, Mood :wsh:")


def toot_bookmarks_and_lists(run, home, public, token):
    """`toot bookmark(s)`, `toot lists …` and `toot timeline --tag/--local/--list`."""
    target = str(public[0]["id"])
    check("toot bookmark", lambda: run("bookmark", target))
    check("toot bookmarks --once", lambda: run("bookmarks", "--once", "--count", "5"),
          lambda output: expect(target in output, "the bookmarked status is not shown") or "shows the bookmark")
    check("toot unbookmark", lambda: run("unbookmark", target))
    tagged = next((s for s in public if s["tags"]), None) or next(
        (s for s in requests.get(f"{BASE}/api/v1/timelines/public?limit=40", timeout=10).json() if s["tags"]), None)
    if tagged:
        tag = tagged["tags"][0]["name"]
        check("toot timeline --tag --once", lambda: run("timeline", "--tag", tag, "--once", "--count", "5"),
              lambda output: expect(output.strip(), "nothing shown") or f"#{tag}")
    check("toot timeline --public --local --once", lambda: run("timeline", "--public", "--local", "--once", "--count", "3"),
          lambda output: expect(str(public[0]["id"]) in output, "the local timeline's newest is not shown") or "local")
    headers = {"Authorization": "Bearer " + token}
    me = requests.get(f"{BASE}/api/v1/accounts/verify_credentials", headers=headers, timeout=10).json()["id"]
    # Another account: one on the timelines read before, else account 1 (the other checks
    # may have filled the newest statuses with this account's own posts).
    author = next((s["account"] for s in public + home if s["account"]["id"] != me), None) or requests.get(
        f"{BASE}/api/v1/accounts/verify_credentials", headers={"Authorization": "Bearer sandbox-token"}, timeout=10).json()
    check("toot lists create", lambda: run("lists", "create", "toot check"))
    check("toot lists list", lambda: run("lists", "list"),
          lambda output: expect("toot check" in output, "the new list is not shown") or "shows it")
    requests.post(f"{BASE}/api/v1/accounts/{author['id']}/follow", headers=headers, timeout=10)
    # toot finds an account by v2 search (`toot lists add` and `remove` need it); without
    # it the member is added through the API, and the rest is toot's.
    searchable = requests.get(f"{BASE}/api/v2/search?q={author['acct']}&type=accounts", headers=headers,
                              timeout=10).status_code == 200
    if searchable:
        check("toot lists add", lambda: run("lists", "add", "toot check", author["acct"]))
    else:
        lists = requests.get(f"{BASE}/api/v1/lists", headers=headers, timeout=10).json()
        made = next(l["id"] for l in lists if l["title"] == "toot check")
        requests.post(f"{BASE}/api/v1/lists/{made}/accounts", data={"account_ids[]": author["id"]}, headers=headers,
                      timeout=10)
    check("toot lists accounts", lambda: run("lists", "accounts", "toot check"),
          lambda output: expect(author["acct"] in output, f"{author['acct']} is not shown") or author["acct"])
    check("toot timeline --list --once", lambda: run("timeline", "--list", "toot check", "--once", "--count", "3"),
          lambda output: expect(output.strip(), "nothing shown") or f"{len(output.splitlines())} lines")
    if searchable:
        check("toot lists remove", lambda: run("lists", "remove", "toot check", author["acct"]))
    check("toot lists delete", lambda: run("lists", "delete", "toot check"))


def toot_scheduled(run, home):
    """`toot post --scheduled-in/--scheduled-at`: a ScheduledStatus the server lists (toot has no edit)."""
    from datetime import datetime, timedelta, timezone

    def listed():
        return requests.get(f"{BASE}/api/v1/scheduled_statuses",
                            headers={"Authorization": "Bearer " + _toot_token(home)}, timeout=10).json()

    check("toot post --scheduled-in", lambda: run("post", "--scheduled-in", "2 hours", "Hello later from toot"),
          lambda output: expect("Toot scheduled for" in output and
                                any(s["params"]["text"] == "Hello later from toot" for s in listed()),
                                output.strip()[-200:]) or output.strip())
    at = (datetime.now(timezone.utc) + timedelta(days=1)).replace(microsecond=0).isoformat()
    check("toot post --scheduled-at", lambda: run("post", "--scheduled-at", at, "Hello tomorrow from toot"),
          lambda output: expect(any(s["params"]["text"] == "Hello tomorrow from toot" for s in listed()),
                                "not among the scheduled statuses") or output.strip())


def toot_posting(run, home):
    """toot upload, post with media, alt text, visibility, a spoiler and a poll, and polls show/vote."""
    import json
    token = _toot_token(home)
    path = os.path.join(home, "pixel.png")
    with open(path, "wb") as file:
        file.write(PNG)
    check("toot upload --description", lambda: run("upload", path, "--description", "a pixel from toot"),
          lambda output: expect("Successfully uploaded media ID" in output and "type 'image'" in output,
                                output.strip()[:200]) or output.strip().splitlines()[0][:80])

    def newest_own():
        account = requests.get(f"{BASE}/api/v1/accounts/verify_credentials",
                               headers={"Authorization": "Bearer " + token}, timeout=10).json()
        return requests.get(f"{BASE}/api/v1/accounts/{account['id']}/statuses?limit=1",
                            headers={"Authorization": "Bearer " + token}, timeout=10).json()[0]

    def posted_with_media(_output):
        status = newest_own()
        attached = status["media_attachments"]
        expect(len(attached) == 1 and attached[0]["description"] == "a pixel from toot", f"media {attached}")
        expect(status["visibility"] == "unlisted" and status["spoiler_text"] == "pixels", "visibility or spoiler lost")
        return "media with its description, visibility, spoiler_text"

    check("toot post --media --description --visibility --spoiler-text",
          lambda: run("post", "a pixel via toot", "--media", path, "--description", "a pixel from toot",
                      "--visibility", "unlisted", "--spoiler-text", "pixels"), posted_with_media)

    def posted_poll(_output):
        status = newest_own()
        expect(status["poll"] and [o["title"] for o in status["poll"]["options"]] == ["yes", "no"], "no poll")
        return f"poll {status['poll']['id']}"

    if check("toot post --poll-option --poll-expires-in",
             lambda: run("post", "shall we?", "--poll-option", "yes", "--poll-option", "no",
                         "--poll-expires-in", "1 hour"), posted_poll):
        poll_id = newest_own()["poll"]["id"]
        check("toot polls vote", lambda: run("polls", "vote", str(poll_id), "1", "--json"),
              lambda output: expect(json.loads(output)["own_votes"] == [1], output[:200]) or "own_votes [1]")
        check("toot polls show", lambda: run("polls", "show", str(poll_id), "--json"),
              lambda output: expect(json.loads(output)["votes_count"] == 1, output[:200]) or "votes_count 1")


def toot_faithful(run, home):
    """Issue 34's endpoints through toot's own commands: a reply that is a status
    (`post --reply-to`, `thread`, `status`), `favourite`/`unfavourite`, `reblog`,
    `reblogged-by`, `unreblog`, `timelines favourites`, `update-account`
    (update_credentials) and a list's `replies_policy` (`lists create --replies-policy`)."""
    token = {"Authorization": "Bearer " + _toot_token(home)}
    me = requests.get(f"{BASE}/api/v1/accounts/verify_credentials", headers=token, timeout=10).json()

    def newest_own():
        return requests.get(f"{BASE}/api/v1/accounts/{me['id']}/statuses?limit=1", headers=token, timeout=10).json()[0]

    check("toot post (a root)", lambda: run("post", "a root from toot"))
    root = newest_own()
    check("toot post --reply-to (a reply is a status)", lambda: run("post", "--reply-to", str(root["id"]), "a reply from toot"),
          lambda _: expect(newest_own()["in_reply_to_id"] == root["id"], "the newest own status is not the reply")
          or "in its author's statuses")
    reply = newest_own()
    check("toot thread --json", lambda: run("thread", str(root["id"]), "--json"),
          lambda output: expect([s["id"] for s in json.loads(output)["descendants"]] == [reply["id"]], output[:200])
          or "the reply is its one descendant")
    check("toot status --json (the reply)", lambda: run("status", str(reply["id"]), "--json"),
          lambda output: expect(json.loads(output)["in_reply_to_id"] == root["id"], output[:200]) or "in_reply_to_id the root")
    other = requests.get(f"{BASE}/api/v1/timelines/public?limit=20", timeout=10).json()
    target = next(s for s in other if s["account"]["id"] != me["id"])
    check("toot favourite --json", lambda: run("favourite", str(target["id"]), "--json"),
          lambda output: expect(json.loads(output)["favourited"] is True, output[:200]) or "favourited")
    check("toot timelines favourites --json", lambda: run("timelines", "favourites", "--json", "--no-pager", "--no-clear"),
          lambda output: expect(target["id"] in [s["id"] for s in json.loads(output)], output[:200]) or "listed")
    check("toot unfavourite --json", lambda: run("unfavourite", str(target["id"]), "--json"),
          lambda output: expect(json.loads(output)["favourited"] is False, output[:200]) or "not favourited")
    check("toot reblog", lambda: run("reblog", str(target["id"])))
    check("toot reblogged-by --json", lambda: run("reblogged-by", str(target["id"]), "--json"),
          lambda output: expect(me["id"] in [a["id"] for a in json.loads(output)], output[:200]) or f"@{me['acct']} among them")
    check("toot unreblog", lambda: run("unreblog", str(target["id"])))
    check("toot update-account --display-name --note --json",
          lambda: run("update-account", "--display-name", "toot tester", "--note", "from toot", "--json"),
          lambda output: expect(json.loads(output)["display_name"] == "toot tester"
                                and json.loads(output)["source"]["note"] == "from toot", output[:200]) or "toot tester")
    check("toot lists create --replies-policy list --json",
          lambda: run("lists", "create", "toot replies", "--replies-policy", "list", "--json"),
          lambda output: expect(json.loads(output)["replies_policy"] == "list", output[:200]) or "replies_policy list")
    check("toot lists delete (the replies_policy list)", lambda: run("lists", "delete", "toot replies"))


def _toot_token(home):
    import json
    with open(os.path.join(home, "toot", "config.json")) as file:
        users = json.load(file)["users"]
    return next(iter(users.values()))["access_token"]


# MARK: Weibo SDKs

def weibo_sdk():
    """lxyu's `weibo` (requests-based `Client`)."""
    import weibo
    redirect = "http://127.0.0.1:9/cb"
    client = weibo.Client("sandbox-app", "sandbox-secret", redirect)
    client.site = BASE + "/"
    client.authorization_url = client.site + "oauth2/authorize"
    client.token_url = client.site + "oauth2/access_token"
    client.api_url = client.site + "2/"
    check("weibo Client.set_code (OAuth2)", lambda: client.set_code(approve(client.authorize_url)),
          lambda _: expect(client.access_token and str(client.uid) == APPROVER, f"uid {client.uid}"))
    public = check("weibo statuses/public_timeline", lambda: client.get("statuses/public_timeline", count=5),
                   lambda answer: expect(len(answer["statuses"]) == 5, "not 5 statuses")
                   or f"{answer['total_number']} in all")
    if public:
        first = public["statuses"][0]
        check("weibo statuses/show", lambda: client.get("statuses/show", id=first["id"]),
              lambda status: expect(status["id"] == first["id"], "another status"))
    check("weibo users/show", lambda: client.get("users/show", uid=APPROVER),
          lambda user: expect(str(user["id"]) == APPROVER, "another user"))
    posted = check("weibo statuses/update", lambda: client.post("statuses/update", status="Hello from weibo 0.2"),
                   lambda status: expect(status["text"] == "Hello from weibo 0.2", "text differs"))
    if posted:
        check("weibo statuses/destroy", lambda: client.post("statuses/destroy", id=posted["id"]),
              lambda status: expect(status["id"] == posted["id"], "another status"))
    weibo_sdk_relations(client)


def weibo_sdk_relations(client):
    """Weibo's follow graph and topic search through the same client."""
    friends = check("weibo friendships/friends", lambda: client.get("friendships/friends", uid=APPROVER, count=200),
                    lambda answer: expect(answer["users"] and answer["total_number"] == len(answer["users"]),
                                          "no users, or total_number differs") or f"{len(answer['users'])} followed")
    if friends:
        followed = friends["users"][0]
        check("weibo friendships/followers", lambda: client.get("friendships/followers", uid=followed["idstr"]),
              lambda answer: expect(any(str(u["id"]) == APPROVER for u in answer["users"]), "the follower is missing")
              or f"{answer['total_number']} followers")
        check("weibo friendships/friends by cursor", lambda: client.get("friendships/friends", uid=APPROVER, count=1,
                                                                           cursor=1),
              lambda answer: expect([u["id"] for u in answer["users"]] == [friends["users"][1]["id"]], "another page")
              if len(friends["users"]) > 1 else None)
    check("weibo search/topics", lambda: client.get("search/topics", q="Swift", count=5),
          lambda answer: expect(answer["statuses"] and all("swift" in s["text"].lower() for s in answer["statuses"]),
                                "no statuses with the query") or f"{len(answer['statuses'])} statuses")


def sinaweibopy3():
    """sinaweibopy3's `APIClient`, from its own directory (it is also `weibo.py`)."""
    import collections
    import collections.abc
    # sinaweibopy3 1.3 predates Python 3.10, which moved `collections.Iterable`:
    # any user of it on a current Python needs this alias.
    collections.Iterable = collections.abc.Iterable
    sys.modules.pop("weibo", None)
    sys.path.insert(0, SINAWEIBOPY3)
    import weibo as sdk
    sys.path.remove(SINAWEIBOPY3)
    expect(hasattr(sdk, "APIClient"), "not sinaweibopy3")
    redirect = "http://127.0.0.1:9/cb"
    client = sdk.APIClient("sandbox-app", "sandbox-secret", redirect)
    # It knows only https://api.weibo.com: point it at the sandbox.
    client.auth_url = BASE + "/oauth2/"
    client.api_url = BASE + "/2/"

    def login():
        token = client.request_access_token(approve(client.get_authorize_url()))
        client.set_access_token(token.access_token, token.expires)
        return token

    check("sinaweibopy3 request_access_token (OAuth2)", login,
          lambda token: expect(str(token.uid) == APPROVER, f"uid {token.uid}"))
    check("sinaweibopy3 statuses.public_timeline.get", lambda: client.statuses.public_timeline.get(count=5),
          lambda answer: expect(len(answer.statuses) == 5, "not 5 statuses") or f"{answer.total_number} in all")
    check("sinaweibopy3 statuses__home_timeline", lambda: client.statuses__home_timeline(count=3),
          lambda answer: expect(len(answer.statuses) == 3, "not 3 statuses"))
    posted = check("sinaweibopy3 statuses.update.post",
                   lambda: client.statuses.update.post(status="Hello from sinaweibopy3"),
                   lambda status: expect(status.text == "Hello from sinaweibopy3", "text differs"))
    if posted:
        check("sinaweibopy3 comments.create.post",
              lambda: client.comments.create.post(id=posted.id, comment="first"),
              lambda comment: expect(comment.status.id == posted.id, "on another status"))
        check("sinaweibopy3 statuses.destroy.post", lambda: client.statuses.destroy.post(id=posted.id),
              lambda status: expect(status.id == posted.id, "another status"))
    check("sinaweibopy3 account.rate_limit_status.get", lambda: client.account.rate_limit_status.get(),
          lambda limits: expect(limits.limit_time_unit == "HOURS", limits.limit_time_unit))


def nodeinfo():
    software = FLAVOUR

    def read():
        links = requests.get(BASE + "/.well-known/nodeinfo", timeout=10).json()["links"]
        return requests.get(links[0]["href"], timeout=10).json()

    check("nodeinfo", read, lambda document: expect(document["software"]["name"] == software,
                                                    document["software"]) or
          f"{document['software']['name']} {document['software']['version']}")


if __name__ == "__main__":
    nodeinfo()
    mastodon_py()
    toot()
    if FLAVOUR == "mastodon":  # the Weibo side is the same whatever the Mastodon side imitates
        weibo_sdk()
        sinaweibopy3()
    sys.exit(1 if failures else 0)
