"""Real clients against a running wsh-sandbox: Mastodon.py, toot and the Weibo SDKs.

Run by scripts/check-real-clients, once per id style:

    python check.py BASE_URL ID_STYLE SINAWEIBOPY3_DIR

Prints one line per call, `PASS name: detail` or `FAIL name: why`, and exits 1
if any failed. What it asserts is what a user of each client would notice:
ids of the server's style, pages that follow each other, writes that land.
"""

import html
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse

import requests

BASE, STYLE, SINAWEIBOPY3 = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
OOB = "urn:ietf:wg:oauth:2.0:oob"
APPROVER = "1700000001"  # account 2, as the Swift tests approve
ID_PATTERN = {
    "snowflake": re.compile(r"^[0-9]+$"),
    "ulid": re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$"),
    "flake": re.compile(r"^[0-9A-Za-z]{18}$"),
}[STYLE]
failures = 0


def check(name, call, verify=lambda result: None):
    """Runs `call`; PASS when it returns and `verify` (which raises or returns a note) accepts it."""
    global failures
    try:
        result = call()
        note = verify(result)
        if note is None and isinstance(result, str):
            note = result
        print(f"PASS {STYLE} {name}" + (f": {note}" if note else ""), flush=True)
        return result
    except Exception as error:  # every failure is one line, the run goes on
        failures += 1
        detail = f"{type(error).__name__}: {error}".splitlines()[0][:300]
        print(f"FAIL {STYLE} {name}: {detail}", flush=True)
        if os.environ.get("CHECK_VERBOSE"):
            traceback.print_exc()
        return None


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def styled(value):
    """Mastodon.py may hand a numeric id back as an int; the server's id is its string."""
    text = str(value)
    expect(ID_PATTERN.match(text), f"id {text!r} is not a {STYLE} id")
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
    paced = Mastodon(access_token=token, api_base_url=BASE, ratelimit_method="pace")

    def pace():
        begun = time.monotonic()
        for _ in range(5):
            paced.timeline_home(limit=1)
        return (time.monotonic() - begun) / 5

    check("Mastodon.py ratelimit_method='pace' per call", pace,
          lambda seconds: expect(seconds < 2, f"{seconds:.1f} s per call") or f"{seconds:.2f} s per call")
    mastodon_py_posting(client, first)


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
    return int(id_text) if STYLE == "snowflake" else id_text


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
        toot_posting(run, home)


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
    software = {"snowflake": "mastodon", "ulid": "gotosocial", "flake": "pleroma"}[STYLE]

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
    if STYLE == "snowflake":  # the Weibo side is the same whatever the Mastodon ids
        weibo_sdk()
        sinaweibopy3()
    sys.exit(1 if failures else 0)
