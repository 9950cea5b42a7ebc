#!/usr/bin/python3
"""The classroom page in a real Chromium, driven through Selenium as a person would.

Each test starts the built wsh with `--web 0` (a free port), types commands into
its stdin as a teacher types them at the prompt, and reads the page: the teacher's
on loopback, a student's behind the join key, a reloaded one, the saved file, and a
presenter's. Screenshots at 1024x768 and 1920x1080, light and dark, go to
$WSH_SCREENSHOTS (default .build/screenshots).

Run by scripts/test-browser (which scripts/test calls); needs chromium,
chromium-driver and python3-selenium (scripts/install-deps --browser).
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WSH = os.environ.get("WSH_BIN") or os.path.join(ROOT, ".build", "debug", "wsh")
SHOTS = os.environ.get("WSH_SCREENSHOTS") or os.path.join(ROOT, ".build", "screenshots")
WAIT = 20  # seconds an expected change may take before a test fails


class Wsh:
    """A running wsh with the classroom page served, fed lines on stdin."""

    def __init__(self, *arguments):
        self.stderr_lines = []
        self.changed = threading.Condition()
        self.process = subprocess.Popen(
            [WSH, "--web", "0", *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1, env={**os.environ, "NO_COLOR": "1"})
        # stdout is drained too, so wsh never blocks on a full pipe.
        for stream, keep in ((self.process.stderr, True), (self.process.stdout, False)):
            threading.Thread(target=self.drain, args=(stream, keep), daemon=True).start()
        self.teacher = self.wait_for_line(r"web: (http://127\.0\.0\.1:\d+/)")
        self.student = self.wait_for_line(r"students join at (http://\S+/join/[0-9a-f]+/)")

    def drain(self, stream, keep):
        for line in stream:
            if keep:
                with self.changed:
                    self.stderr_lines.append(line)
                    self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for_line(self, pattern):
        """The first group of `pattern` in a stderr line, waiting for it."""
        deadline = time.monotonic() + WAIT
        with self.changed:
            while True:
                for line in self.stderr_lines:
                    match = re.search(pattern, line)
                    if match:
                        return match.group(1)
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    break
                self.changed.wait(min(left, 0.5))
        raise AssertionError("wsh never printed %r; stderr: %s" % (pattern, "".join(self.stderr_lines)))

    def type(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                # A lesson stepped from the page waits for the page, not for stdin.
                self.process.terminate()
                self.process.wait()



def browser(width=1920, height=1080, theme=None):
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=%d,%d" % (width, height), "--hide-scrollbars"):
        options.add_argument(flag)
    if theme:
        options.add_argument("--force-dark-mode" if theme == "dark" else "--force-light-mode")
    service = Service(executable_path="/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_window_size(width, height)
    return driver


def wait(driver, condition, message):
    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(lambda d: condition(d), message)


def texts(driver, selector):
    return [element.text for element in driver.find_elements(By.CSS_SELECTOR, selector)]


def line_count(driver):
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-lines") or 0)


def line_number(driver, command):
    """The number of the timeline's last line `command` once it is done, else None."""
    return driver.execute_script("""
        const items = [...document.querySelectorAll('#timeline li')].reverse();
        const item = items.find(li => li.firstChild && li.firstChild.textContent === arguments[0] && li.dataset.done === 'true');
        return item ? item.dataset.line : null;""", command)


def wait_for_done(driver, command):
    """Waits until the timeline shows `command` finished; its line's number."""
    return wait(driver, lambda d: line_number(d, command), "the page never showed %r done" % command)


def select_line(driver, command):
    """Clicks `command` in the timeline, as a student would, and waits for it to show."""
    number = wait_for_done(driver, command)
    def clicked(d):
        try:
            d.find_element(By.CSS_SELECTOR, '#timeline li[data-line="%s"]' % number).click()
        except StaleElementReferenceException:
            return False
        return d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == number
    wait(driver, clicked, "could not select %r" % command)


def show_code(driver, card):
    """Opens `card`'s code (Enter on it when focused, else a click) and waits for the panel to be ready."""
    event = card.get_attribute("data-id")
    card.click()
    wait(driver, lambda d: d.find_element(By.ID, "code-panel").get_attribute("data-event") == event
         and d.find_element(By.ID, "code-panel").get_attribute("data-state") in ("ready", "failed"),
         "the code panel never showed event %s" % event)
    return driver.find_element(By.ID, "code-panel")


def assert_shows_its_function(test, driver, card):
    """`card` (a DataController event) opens its function's Swift source, its line marked."""
    function, line = card.get_attribute("data-function"), card.get_attribute("data-source-line")
    test.assertTrue(card.get_attribute("data-file").startswith("Sources/WshDataController/"), card.get_attribute("data-file"))
    panel = show_code(driver, card)
    test.assertEqual(panel.get_attribute("data-state"), "ready", panel.text)
    name = function.split("(")[0]
    test.assertIn(name, driver.find_element(By.ID, "code-title").text)
    code = texts(driver, "#code li")
    test.assertRegex(code[0], r"\b(func|init)\b.*" + re.escape(name) if name != "init" else r"\binit\b")
    test.assertEqual(code[-1].split()[-1], "}", code[-1])
    marked = driver.find_elements(By.CSS_SELECTOR, "#code li.mark")
    test.assertEqual(len(marked), 1)
    test.assertEqual(marked[0].get_attribute("data-line"), line)
    # The panel stands beside the lanes, inside the window.
    box = driver.execute_script("""
        const r = document.getElementById('code-panel').getBoundingClientRect(), l = document.getElementById('lanes').getBoundingClientRect();
        return [r.left, r.right, l.right, window.innerWidth];""")
    test.assertGreaterEqual(box[0], box[2] - 1, "the code panel covers the lanes")
    test.assertLessEqual(box[1], box[3] + 1, "the code panel runs off the window")


# Every line break inside a label of the diagram, read from where each character is drawn; `bad` lists those that
# cut a word: a break is allowed after a space, / or , ; before . ? & ( ; between camelCase words; beside CJK.
BREAKS = r"""
  const allowed = (a, b) => /[\s\/,]/.test(a) || /[.?&(]/.test(b) || /[\p{Ll}\p{Nd}]/u.test(a) && /\p{Lu}/u.test(b)
    || /[\u2e80-\ua4cf\uac00-\ud7a3\uff00-\uff60]/.test(a + b);
  const bad = [];
  let count = 0;
  for (const label of document.querySelectorAll('#lanes .ev, #lanes .lane-head')) {
    const chars = [];
    const walk = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect && rect.width > 0) chars.push({ c: node.data[i], top: rect.top });
      }
    }
    for (let i = 1; i < chars.length; i++) {
      if (chars[i].top > chars[i - 1].top + 2) {
        count++;
        if (!allowed(chars[i - 1].c, chars[i].c)) bad.push(label.textContent + " | " + chars[i - 1].c + "/" + chars[i].c);
      }
    }
  }
  return { bad, count };
"""

# Each arrow's ends on the lifelines of its sender and receiver (the centres of their names), within 3 px.
ARROWS_OFF_THEIR_LIFELINES = r"""
  const centre = {};
  for (const head of document.querySelectorAll('#lanes .lane-head')) {
    const r = head.getBoundingClientRect();
    centre[head.textContent] = (r.left + r.right) / 2;
  }
  const bad = [];
  for (const message of document.querySelectorAll('#lanes .msg')) {
    const r = message.querySelector('.arrow').getBoundingClientRect();
    const [from, to] = [centre[message.dataset.from], centre[message.dataset.to]];
    const [start, end] = from < to ? [r.left, r.right] : [r.right, r.left];
    if (Math.abs(start - from) > 3 || Math.abs(end - to) > 3) bad.push([message.dataset.from, message.dataset.to, start, from, end, to].join(" "));
  }
  return bad;
"""

# Whether each selector's element shows at least 12 px of itself inside the window.
IN_VIEW = r"""
  return arguments[0].map(selector => {
    const e = document.querySelector(selector);
    if (!e) return selector + ' missing';
    const r = e.getBoundingClientRect();
    return Math.min(r.bottom, innerHeight) - Math.max(r.top, 0) >= 12 && r.left >= 0 && r.right <= innerWidth + 1;
  });
"""


class ClassroomTests(unittest.TestCase):
    def setUp(self):
        self.wsh = Wsh()
        self.drivers = []

    def tearDown(self):
        for driver in self.drivers:
            driver.quit()
        self.wsh.close()

    def open(self, url, **size):
        driver = browser(**size)
        self.drivers.append(driver)
        driver.get(url)
        wait(driver, lambda d: d.find_element(By.ID, "connection").text == "live", "the page never connected")
        return driver

    def test_student_sees_the_request_the_rows_added_and_the_history_after_undo(self):
        teacher = self.open(self.wsh.teacher)
        student = self.open(self.wsh.student)
        for line in ("fetch 3", "detail 1", "favorite 1", "undo"):
            self.wsh.type(line)
        for page in (teacher, student):
            wait_for_done(page, "undo")
        # The fetch's request line, in the Request lane, on the student's page.
        select_line(student, "fetch 3")
        # The request as an arrow to the Request lifeline, its answer as one back.
        requests = texts(student, '#lanes .msg[data-to="Request"] .ev[data-layer="Request"]')
        self.assertTrue(any(text.replace("\n", "").startswith("GET ") and "public_timeline.json?count=3" in text.replace("\n", "")
                            for text in requests), requests)
        answers = texts(student, '#lanes .msg.answer[data-from="Request"] .ev[data-layer="Request"]')
        self.assertTrue(any(text.startswith("200 ·") for text in answers), answers)
        self.assertTrue(texts(student, '#lanes .ev[data-layer="Server"]'), "no sandbox route in the Server lane")
        self.assertIn("3 items", " ".join(texts(student, '#lanes .ev[data-layer="Model"]')))
        # The rows it added, in the state diff, and the rows marked new in the state.
        diff = student.find_element(By.CSS_SELECTOR, '#state-diff [data-kind="rows_added"]').text
        self.assertRegex(diff, r"^\+ rows 3: \d+, \d+, \d+$")
        self.assertEqual(len(student.find_elements(By.CSS_SELECTOR, "#state .row.new")), 3)
        # The favourite's request, then the history after undo: 2 applied, the favourite undone.
        select_line(student, "favorite 1")
        self.assertTrue(any("POST" in text and "favorites/create.json" in text
                            for text in texts(student, '#lanes .ev[data-layer="Request"]')))
        select_line(student, "undo")
        position = student.find_element(By.ID, "history-position")
        self.assertEqual(position.get_attribute("data-position"), "2")
        self.assertEqual(position.get_attribute("data-total"), "3")
        undone = student.find_elements(By.CSS_SELECTOR, '#history li[data-applied="false"]')
        self.assertEqual([item.text.split("\n")[0] for item in undone], ["favorite 1"])
        # The teacher's page shows the same.
        select_line(teacher, "undo")
        self.assertEqual(teacher.find_element(By.ID, "history-position").get_attribute("data-position"), "2")

    def test_the_page_serves_the_script_and_style_in_the_repository_and_runs_them(self):
        with urllib.request.urlopen(self.wsh.teacher, timeout=5) as response:
            html = response.read()
        nonce = re.search(rb'<script nonce="([^"]+)">', html).group(1)
        for name, element in (("classroom.css", b"style"), ("classroom.js", b"script")):
            with open(os.path.join(ROOT, "Sources", "WshWeb", "Page", name), "rb") as handle:
                code = handle.read()
            self.assertTrue(b"<%s nonce=\"%s\">%s</%s>" % (element, nonce, code, element) in html,
                            "the page's %s is not Sources/WshWeb/Page/%s: rebuild wsh" % (element.decode(), name))
        # The script ran: only it sets the connection pill to "live".
        self.open(self.wsh.teacher)

    def test_a_page_reloaded_mid_session_catches_up(self):
        page = self.open(self.wsh.teacher)
        self.wsh.type("fetch 3")
        wait_for_done(page, "fetch 3")
        page.refresh()
        self.wsh.type("detail 2")
        wait(page, lambda d: d.find_element(By.ID, "connection").text == "live", "no reconnection after the reload")
        wait_for_done(page, "detail 2")
        # What came before the reload is there too, and the open detail's state.
        wait_for_done(page, "fetch 3")
        select_line(page, "detail 2")
        self.assertIn("StatusDetailView", page.find_element(By.ID, "views").text)
        self.assertIn("+ screen detail of status", page.find_element(By.ID, "state-diff").text)

    def test_a_page_refused_for_want_of_a_seat_says_why_and_follows_once_one_is_free(self):
        host, port = re.match(r"http://([^:/]+):(\d+)/", self.wsh.teacher).groups()
        # This machine's 8 event streams, taken by connections that never read past the status.
        takers = [socket.create_connection((host, int(port)), timeout=WAIT) for _ in range(8)]
        for taker in takers:
            taker.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        for taker in takers:
            self.assertEqual(taker.recv(12), b"HTTP/1.1 200")
        page = browser()
        self.drivers.append(page)
        page.get(self.wsh.teacher)
        wait(page, lambda d: "8 event streams from this machine already" in d.find_element(By.ID, "connection").text,
             "the refused page does not say why")
        os.makedirs(SHOTS, exist_ok=True)
        page.save_screenshot(os.path.join(SHOTS, "refused-1920x1080.png"))
        for taker in takers:
            taker.close()
        self.wsh.type("fetch 3")
        wait(page, lambda d: d.find_element(By.ID, "connection").text == "live", "the page never followed once a seat was free")
        wait_for_done(page, "fetch 3")

    def test_every_command_that_shows_something_names_its_view(self):
        page = self.open(self.wsh.teacher)
        for line in ("fetch 3", "list", "history", "state", "limits", "led"):
            self.wsh.type(line)
        wait_for_done(page, "led")
        for command, view in (("list", "TimelineListView (3 rows)"), ("history", "HistoryView (1 operation)"),
                              ("state", "StateView"), ("limits", "LimitsView"), ("led", "LEDView")):
            select_line(page, command)
            self.assertIn(view, page.find_element(By.ID, "views").text, command)
            lane = " ".join(text.replace("\n", " ") for text in texts(page, '#lanes .ev[data-layer="View"]'))
            self.assertIn("render " + view, lane, command)

    def test_a_student_page_has_no_controls_and_a_wrong_key_gets_403(self):
        page = self.open(self.wsh.student)
        self.assertEqual(page.find_element(By.ID, "role").text, "student · read-only")
        self.assertFalse(page.find_element(By.ID, "next").is_displayed())
        self.assertFalse(page.find_element(By.ID, "back").is_displayed())
        base = self.wsh.teacher.rstrip("/")
        for path in ("/join/0123456789abcdef0123456789abcdef/", "/join/", "/join",
                     "/join/%s/events" % ("f" * 32)):
            with self.assertRaises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + path, timeout=5)
            self.assertEqual(refused.exception.code, 403, path)
        # No lesson is presented: the control door is shut for everyone, the key or not.
        request = urllib.request.Request(base + "/control?key=x", data=b"next", method="POST")
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        self.assertEqual(refused.exception.code, 403)

    def test_the_saved_page_opens_offline_with_the_same_content(self):
        live = self.open(self.wsh.teacher)
        for line in ("fetch 3", "detail 1"):
            self.wsh.type(line)
        wait_for_done(live, "detail 1")
        folder = tempfile.mkdtemp()
        saved = os.path.join(folder, "lesson.html")
        self.wsh.type("web save %s" % saved)
        self.wsh.wait_for_line(r"web: saved (\d+) events")
        with open(saved, encoding="utf-8") as handle:
            html = handle.read()
        self.assertNotRegex(html, r"(src|href)\s*=\s*[\"']?https?:", "the saved page loads something")
        # Offline: no server behind it, a file URL.
        self.wsh.close()
        page = browser()
        self.drivers.append(page)
        page.get("file://" + saved)
        wait(page, lambda d: d.find_element(By.ID, "connection").text.startswith("saved"), "the saved page did not load")
        self.assertEqual(page.find_element(By.ID, "role").text, "saved session")
        select_line(page, "fetch 3")
        select_line(live, "fetch 3")
        for selector in ("#lanes", "#state", "#state-diff", "#history"):
            self.assertEqual(page.find_element(By.CSS_SELECTOR, selector).text,
                             live.find_element(By.CSS_SELECTOR, selector).text, selector)
        # The same commands, but for `web save` itself, which was still running when the file was written.
        saved_lines, live_lines = texts(page, "#timeline li"), texts(live, "#timeline li")
        self.assertEqual(saved_lines[:-1], live_lines[:len(saved_lines) - 1])
        self.assertTrue(saved_lines[-1].startswith("web save "), saved_lines[-1])
        # The code behind an event, from the sources the file carries (the server is gone).
        select_line(page, "fetch 3")
        assert_shows_its_function(self, page, page.find_element(By.CSS_SELECTOR, '#lanes .ev[data-layer="DataController"][data-file]'))
        os.makedirs(SHOTS, exist_ok=True)
        self.assertTrue(page.save_screenshot(os.path.join(SHOTS, "saved-lesson-code-1920x1080.png")))
        carried = json.loads(re.search(r'<script type="application/json" id="wsh-sources">(.*?)</script>', html, re.S).group(1))
        self.assertTrue(carried and all(name.startswith("Sources/") for name in carried), list(carried))
        self.assertLess(len(carried), 10, "the lesson carries files its events do not name")

    def test_an_event_shows_the_code_behind_it_and_a_request_its_exchange(self):
        os.makedirs(SHOTS, exist_ok=True)
        self.wsh.type("fetch 3")
        self.wsh.type("detail 1")
        for width, height, theme in ((1024, 768, "light"), (1920, 1080, "dark")):
            page = browser(width, height)
            self.drivers.append(page)
            page.get(self.wsh.teacher + "?theme=" + theme)
            wait_for_done(page, "detail 1")
            select_line(page, "fetch 3")
            card = page.find_element(By.CSS_SELECTOR, '#lanes .ev[data-layer="DataController"][data-file]')
            assert_shows_its_function(self, page, card)
            self.assertTrue(page.save_screenshot(os.path.join(SHOTS, "code-panel-%dx%d-%s.png" % (width, height, theme))))
            # The Request event, opened from the keyboard: the exchange, and no token anywhere on the page.
            request = page.find_element(By.CSS_SELECTOR, '#lanes .ev[data-layer="Request"]')
            page.execute_script("arguments[0].focus()", request)
            event = request.get_attribute("data-id")
            request.send_keys("\n")
            wait(page, lambda d: d.find_element(By.ID, "code-panel").get_attribute("data-event") == event
                 and d.find_element(By.ID, "code-panel").get_attribute("data-state") == "ready", "Enter did not open the request")
            exchange = page.find_element(By.ID, "exchange").text
            self.assertRegex(exchange, r"GET http://\S+\n→ HTTP 200")
            self.assertIn("content-type", exchange)
            self.assertIn("the answer's first lines", exchange)
            self.assertTrue(page.find_elements(By.CSS_SELECTOR, "#code li.mark"))
            self.assertTrue(page.save_screenshot(os.path.join(SHOTS, "request-exchange-%dx%d-%s.png" % (width, height, theme))))
            self.assertNotIn("sandbox-token", page.page_source)
            self.assertNotIn("sandbox-token", json.dumps(page.execute_script("return window.wshPage.events()")))
            # Escape closes it; the lanes take the room back.
            request.send_keys("\ue00c")
            wait(page, lambda d: not d.find_element(By.ID, "code-panel").is_displayed(), "Escape did not close the panel")
        # A student, with the join key, is served wsh's own files (compressed, in base64) as the teacher is.
        with urllib.request.urlopen(self.wsh.student + "source?file=Sources/WshWeb/ClassroomSources.swift", timeout=5) as answer:
            self.assertEqual(answer.status, 200)
            self.assertTrue(answer.read().startswith(b"H4sI"), "not gzip in base64")
        # A file that is not wsh's own is not served.
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(self.wsh.teacher + "source?file=/etc/passwd", timeout=5)
        self.assertEqual(refused.exception.code, 404)
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(self.wsh.teacher.rstrip("/") + "/join/%s/source?file=Package.swift" % ("0" * 32), timeout=5)
        self.assertEqual(refused.exception.code, 403)

    def test_a_saved_lesson_opens_on_the_last_command_that_ran(self):
        live = self.open(self.wsh.teacher)
        for line in ("fetch 3", "detail 1"):
            self.wsh.type(line)
        number = wait_for_done(live, "detail 1")
        saved = os.path.join(tempfile.mkdtemp(), "lesson.html")
        self.wsh.type("web save %s" % saved)
        self.wsh.wait_for_line(r"web: saved (\d+) events")
        self.wsh.close()
        page = browser()
        self.drivers.append(page)
        page.get("file://" + saved)
        wait(page, lambda d: d.find_element(By.ID, "connection").text.startswith("saved"), "the saved page did not load")
        # Not on `web save`, which was still running when the file was written: on the detail, with its lanes.
        wait(page, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == number,
             "the saved lesson did not open on the last command that ran")
        self.assertEqual(page.find_element(By.ID, "command-title").text, "wsh> detail 1")
        self.assertTrue(texts(page, '#lanes .ev[data-layer="ViewModel"]'), "the lanes are empty")
        self.assertIn("StatusDetailView", page.find_element(By.ID, "views").text)
        self.assertNotIn("running", page.find_element(By.ID, "command-meta").text)
        os.makedirs(SHOTS, exist_ok=True)
        page.save_screenshot(os.path.join(SHOTS, "saved-opens-on-last-command-1920x1080.png"))

    def test_each_line_shows_its_state_and_history_rebuilt_from_snapshots_and_changes(self):
        # Over 50 lines, so that the state and history come as changes between two snapshots, and a page
        # loaded late starts from one: it, the page open from the start and the saved file show every line alike.
        early = self.open(self.wsh.teacher)
        cycle = ("fetch 3", "detail 1", "back", "favorite 1", "undo", "redo", "undo", "more")
        commands = [cycle[n % len(cycle)] for n in range(64)] + ["echo end"]
        for line in commands:
            self.wsh.type(line)
        wait_for_done(early, "echo end")
        late = self.open(self.wsh.student)
        wait_for_done(late, "echo end")
        saved = os.path.join(tempfile.mkdtemp(), "lesson.html")
        self.wsh.type("web save %s" % saved)
        self.wsh.wait_for_line(r"web: saved (\d+) events")
        kinds = early.execute_script("return [...new Set(window.wshPage.events().map(e => e.type))]")
        self.assertIn("snapshot", kinds)
        held = early.execute_script(
            "return window.wshPage.events().filter(e => e.type === 'state' && e.patch).length")
        self.assertGreater(held, 10, "the state did not come as changes")
        page = browser()
        self.drivers.append(page)
        page.get("file://" + saved)
        wait(page, lambda d: d.find_element(By.ID, "connection").text.startswith("saved"), "the saved page did not load")
        total = None
        # The late page was sent its window from a snapshot on: the lines it holds.
        late_lines = set(int(n) for n in late.execute_script("return [...window.wshPage.lines().keys()]"))
        self.assertTrue({52, 53, 58, 65} <= late_lines, sorted(late_lines))
        for number in (3, 5, 6, 40, 52, 53, 58, 65):
            shown = []
            for driver in (early, late, page):
                if driver is late and number not in late_lines:
                    shown.append(None)
                    continue
                item = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#timeline li[data-line="%d"]' % number),
                            "no line %d" % number)
                item.click()
                wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == str(number),
                     "could not select line %d" % number)
                shown.append([driver.find_element(By.CSS_SELECTOR, s).text for s in ("#state", "#state-diff", "#history", "#history-position")])
            if shown[1] is not None:
                self.assertEqual(shown[0], shown[1], "line %d: the late page differs" % number)
            self.assertEqual(shown[0], shown[2], "line %d: the saved page differs" % number)
            self.assertTrue(shown[0][0], "line %d shows no state" % number)
            if number == 65:
                total = early.find_element(By.ID, "history-position").get_attribute("data-total")
        self.assertTrue(total and int(total) > 10, total)

    def test_screenshots_light_and_dark_from_1024x768_to_4k(self):
        os.makedirs(SHOTS, exist_ok=True)
        for line in ("fetch 5", "detail 2", "favorite 2", "undo", "mute pixel_kafka68"):
            self.wsh.type(line)
        for width, height, themes in ((1024, 768, ("light", "dark")), (1920, 1080, ("light", "dark")), (3840, 2160, ("dark",))):
            for theme in themes:
                page = browser(width, height)
                self.drivers.append(page)
                page.get(self.wsh.teacher + "?theme=" + theme)
                wait_for_done(page, "mute pixel_kafka68")
                select_line(page, "fetch 5")
                self.assertEqual(page.execute_script("return document.documentElement.dataset.theme"), theme)
                path = os.path.join(SHOTS, "classroom-%dx%d-%s.png" % (width, height, theme))
                self.assertTrue(page.save_screenshot(path))
                self.assertGreater(os.path.getsize(path), 20_000, path)
                # Nothing runs out of its lane or off the page sideways.
                overflow = page.execute_script("""
                    const bad = [];
                    if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push('page ' + document.documentElement.scrollWidth);
                    const lanes = document.getElementById('lanes').getBoundingClientRect();
                    for (const card of document.querySelectorAll('#lanes .ev')) {
                      const cell = card.parentElement.getBoundingClientRect(), box = card.getBoundingClientRect();
                      if (box.left < cell.left - 1 || box.right > cell.right + 1 || box.right > lanes.right + 1) bad.push(card.textContent);
                    }
                    return bad;""")
                self.assertEqual(overflow, [], "%dx%d %s" % (width, height, theme))

    def test_the_diagram_at_1024x768_breaks_no_word_joins_caller_and_callee_and_keeps_state_and_history_in_view(self):
        for line in ("fetch 5", "detail 2", "favorite 2", "undo", "mute pixel_kafka68"):
            self.wsh.type(line)
        page = self.open(self.wsh.teacher + "?theme=light", width=1024, height=768)
        wait_for_done(page, "mute pixel_kafka68")
        for command in ("fetch 5", "favorite 2", "detail 2"):
            select_line(page, command)
            breaks = page.execute_script(BREAKS)
            self.assertEqual(breaks["bad"], [], command)
            if command == "fetch 5":
                # Not vacuous: the long labels of a fetch do wrap at 1024 px.
                self.assertGreater(breaks["count"], 5, command)
            self.assertEqual(page.execute_script(ARROWS_OFF_THEIR_LIFELINES), [], command)
        select_line(page, "fetch 5")
        # A call and its answer: the ViewModel calls the DataController, which returns to it (dashed); the request
        # goes from the DataController to the Request lifeline and to the sandbox's Server, and back.
        for selector in ('.msg[data-from="Shell"][data-to="ViewModel"]:not(.answer)',
                         '.msg[data-from="ViewModel"][data-to="DataController"]:not(.answer)',
                         '.msg.answer[data-from="DataController"][data-to="ViewModel"]',
                         '.msg[data-from="DataController"][data-to="Request"]:not(.answer)',
                         '.msg[data-from="Request"][data-to="Server"]:not(.answer)',
                         '.msg.answer[data-from="Request"][data-to="DataController"]',
                         '.msg[data-from="DataController"][data-to="Model"]',
                         '.msg.answer[data-from="Model"][data-to="DataController"]'):
            self.assertTrue(page.find_elements(By.CSS_SELECTOR, "#lanes " + selector), selector)
        answer = page.find_element(By.CSS_SELECTOR, '#lanes .msg.answer[data-from="DataController"] .arrow')
        self.assertEqual(answer.value_of_css_property("border-top-style"), "dashed")
        # The ViewModel's change notification names the ViewModel's code that sent it.
        change = page.find_element(By.CSS_SELECTOR, '#lanes .msg[data-from="ViewModel"][data-to="Shell"] .ev[data-file]')
        self.assertEqual(change.get_attribute("data-file"), "Sources/WshViewModel/Session/SessionViewModel.swift")
        panel = show_code(page, change)
        self.assertEqual(panel.get_attribute("data-state"), "ready")
        self.assertIn("notify(", page.find_element(By.CSS_SELECTOR, "#code li.mark").text)
        page.find_element(By.ID, "code-close").click()
        # The state and the history are in view without scrolling, and stay in view while the diagram scrolls.
        for scroll in (0, 600):
            page.execute_script("window.scrollTo(0, arguments[0])", scroll)
            shown = page.execute_script(IN_VIEW, ["#state", "#history-position", "#history li"])
            self.assertEqual(shown, [True, True, True], "scrolled %d: %s" % (scroll, shown))
        page.execute_script("window.scrollTo(0, 0)")
        self.assertEqual(page.execute_script("return window.scrollY"), 0)
        os.makedirs(SHOTS, exist_ok=True)
        page.save_screenshot(os.path.join(SHOTS, "diagram-1024x768-light.png"))

    def test_each_step_has_an_address_and_the_arrows_and_slider_walk_them_live_and_saved(self):
        commands = ("fetch 3", "detail 1", "back", "favorite 2", "undo")
        for line in commands:
            self.wsh.type(line)
        live = self.open(self.wsh.teacher)
        wait_for_done(live, "undo")
        live.get(self.wsh.teacher + "#step-3")
        wait(live, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == "3", "#step-3 did not open step 3")
        self.assertEqual(live.find_element(By.ID, "command-title").text, "wsh> back")
        live.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait(live, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == "4", "→ did not move to step 4")
        self.assertEqual(live.find_element(By.ID, "command-title").text, "wsh> favorite 2")
        self.assertTrue(live.current_url.endswith("#step-4"), live.current_url)
        live.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
        wait(live, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == "3", "← did not move back")
        # The slider: dragged to step 1.
        live.execute_script("const s = document.getElementById('scrub'); s.value = '1'; s.dispatchEvent(new Event('input'));")
        wait(live, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == "1", "the slider did not move")
        self.assertEqual(live.find_element(By.ID, "command-title").text, "wsh> fetch 3")
        # A new command while a step is chosen does not take the page away from it.
        self.wsh.type("list")
        wait_for_done(live, "list")
        self.assertEqual(live.find_element(By.TAG_NAME, "body").get_attribute("data-selected"), "1")
        # The same in a saved lesson, opened from file://.
        saved = os.path.join(tempfile.mkdtemp(), "lesson.html")
        self.wsh.type("web save %s" % saved)
        self.wsh.wait_for_line(r"web: saved (\d+) events")
        page = browser()
        self.drivers.append(page)
        page.get("file://" + saved + "#step-3")
        wait(page, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == "3", "the saved #step-3 did not open step 3")
        page.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait(page, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == "4", "→ in the saved lesson")
        self.assertEqual(page.find_element(By.ID, "command-title").text, "wsh> favorite 2")
        self.assertTrue(texts(page, '#lanes .msg[data-to="Request"] .ev'), "the saved step has no request arrow")

    def test_replay_from_step_2_makes_a_fresh_session_the_class_follows(self):
        teacher = self.open(self.wsh.teacher)
        student = self.open(self.wsh.student)
        for line in ("fetch 5", "detail 2", "favorite 2", "back", "mute pixel_kafka68"):
            self.wsh.type(line)
        wait_for_done(student, "mute pixel_kafka68")
        # What the class saw after step 2, before the replay.
        select_line(student, "detail 2")
        before = [student.find_element(By.CSS_SELECTOR, s).text for s in ("#state", "#history", "#history-position")]
        self.assertFalse(student.find_element(By.ID, "replay").is_displayed(), "a student can replay")
        teacher.get(self.wsh.teacher + "#step-2")
        wait(teacher, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == "2", "#step-2")
        button = teacher.find_element(By.ID, "replay")
        wait(teacher, lambda d: button.is_enabled(), "Replay from here stays disabled: %s" % button.get_attribute("title"))
        button.click()
        # Every page follows the new branch: a note that says so, then the replayed steps 1 and 2 and nothing after.
        for page in (student, teacher):
            wait(page, lambda d: d.find_element(By.ID, "branch").is_displayed(), "no branch note")
            wait(page, lambda d: [li.get_attribute("data-line") for li in d.find_elements(By.CSS_SELECTOR, "#timeline li")
                                  if li.get_attribute("data-done") == "true"][-2:] == ["1", "2"]
                 and line_count(d) == 3, "the page did not follow the replay to step 2")
            self.assertIn("replayed steps 1–2", page.find_element(By.ID, "branch").text)
            self.assertEqual(page.find_element(By.ID, "command-title").text, "wsh> detail 2")
            after = [page.find_element(By.CSS_SELECTOR, s).text for s in ("#state", "#history", "#history-position")]
            self.assertEqual(after, before)
        # The teacher goes on in the new branch, and the class with it.
        self.wsh.type("fetch 3")
        wait_for_done(student, "fetch 3")
        self.assertEqual(student.find_element(By.TAG_NAME, "body").get_attribute("data-selected"), "3")
        os.makedirs(SHOTS, exist_ok=True)
        student.save_screenshot(os.path.join(SHOTS, "replayed-branch-1920x1080.png"))

    def test_zoom_grows_the_content_not_the_controls(self):
        page = self.open(self.wsh.teacher)
        self.wsh.type("fetch 3")
        wait_for_done(page, "fetch 3")
        size = lambda selector: page.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector(arguments[0])).fontSize)", selector)
        before = (size("#command-title"), size("#next"))
        for _ in range(5):
            page.find_element(By.ID, "zoom-in").click()
        after = (size("#command-title"), size("#next"))
        self.assertGreater(after[0], before[0] * 1.3)
        self.assertEqual(after[1], before[1])


class PresenterTests(unittest.TestCase):
    def test_next_and_back_step_a_lesson(self):
        folder = tempfile.mkdtemp()
        lesson = os.path.join(folder, "lesson.wsh")
        with open(lesson, "w", encoding="utf-8") as handle:
            handle.write("# First the public timeline.\nfetch 3\n# Then the first status.\ndetail 1\n")
        wsh = Wsh("--present", lesson)
        driver = browser()
        try:
            driver.get(wsh.teacher)
            wait(driver, lambda d: d.find_element(By.ID, "connection").text == "live", "the page never connected")
            self.assertTrue(driver.find_element(By.ID, "next").is_displayed())
            wait(driver, lambda d: "First the public timeline." in d.find_element(By.ID, "narration").text,
                 "the lesson's narration is not shown")
            self.assertEqual(driver.find_element(By.ID, "lesson-next").text, "next: fetch 3")
            driver.find_element(By.ID, "next").click()
            wait_for_done(driver, "fetch 3")
            wait(driver, lambda d: d.find_element(By.ID, "lesson-next").text == "next: detail 1", "Next did not move on")
            driver.find_element(By.ID, "next").click()
            wait_for_done(driver, "detail 1")
            # Back undoes the last step and shows it again.
            driver.find_element(By.ID, "back").click()
            wait_for_done(driver, "undo")
            wait(driver, lambda d: d.find_element(By.ID, "lesson-next").text == "next: detail 1", "Back did not step back")
            self.assertIn("detail of status", " ".join(texts(driver, "#state-diff .removed")))
            os.makedirs(SHOTS, exist_ok=True)
            self.assertTrue(driver.save_screenshot(os.path.join(SHOTS, "classroom-presenting-1920x1080.png")))
            # The student's page of the same lesson cannot step it.
            student = browser()
            try:
                student.get(wsh.student)
                wait(student, lambda d: d.find_element(By.ID, "connection").text == "live", "the student page never connected")
                self.assertFalse(student.find_element(By.ID, "next").is_displayed())
                key = driver.execute_script("return JSON.parse(document.getElementById('wsh-settings').textContent).controlKey")
                self.assertIsNone(student.execute_script(
                    "return JSON.parse(document.getElementById('wsh-settings').textContent).controlKey"))
                # A page of another origin holding the key is refused too.
                request = urllib.request.Request(wsh.teacher + "control?key=" + key, data=b"next", method="POST",
                                                 headers={"Origin": "http://evil.example"})
                with self.assertRaises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(request, timeout=5)
                self.assertEqual(refused.exception.code, 403)
            finally:
                student.quit()
        finally:
            driver.quit()
            wsh.close()


class LessonTests(unittest.TestCase):
    def test_every_lesson_runs_with_the_page_served(self):
        folder = os.path.join(ROOT, "examples", "lessons")
        lessons = sorted(name for name in os.listdir(folder) if name.endswith(".wsh"))
        self.assertTrue(lessons)
        for name in lessons:
            run = subprocess.run([WSH, "--web", "0", os.path.join(folder, name)], capture_output=True, text=True,
                                 timeout=120, stdin=subprocess.DEVNULL)
            self.assertEqual(run.returncode, 0, "%s: %s" % (name, run.stderr[-2000:]))
            self.assertRegex(run.stderr, r"web: http://127\.0\.0\.1:\d+/")


if __name__ == "__main__":
    runner = unittest.TextTestRunner(verbosity=2)
    result = runner.run(unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(0 if result.wasSuccessful() else 1)
