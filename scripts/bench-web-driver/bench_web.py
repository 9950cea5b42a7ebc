#!/usr/bin/python3
"""scripts/bench-web's measurements (see there): a real Chromium through Selenium."""
import os
import re
import statistics
import subprocess
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WSH = os.environ["WSH"]
COMMANDS = int(os.environ.get("BENCH_COMMANDS", "100"))
SESSION = int(os.environ.get("BENCH_SESSION", "10000"))
GOAL_MS = 50


class Session:
    """wsh reading commands on stdin, with `arguments` (e.g. --web 0), its stderr kept."""

    def __init__(self, *arguments, timed=False):
        command = (["/usr/bin/time", "-f", "peak-rss %M"] if timed else []) + [WSH, *arguments]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = []
        self.changed = threading.Condition()
        threading.Thread(target=self.drain, daemon=True).start()

    def drain(self):
        for line in self.process.stderr:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()

    def wait_for(self, pattern, timeout=60):
        deadline = time.monotonic() + timeout
        with self.changed:
            while time.monotonic() < deadline:
                for line in self.lines:
                    match = re.search(pattern, line)
                    if match:
                        return match.group(1)
                self.changed.wait(0.2)
        raise SystemExit("bench-web: wsh never printed %r: %s" % (pattern, "".join(self.lines[-5:])))

    def type(self, text):
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def finish(self):
        self.process.stdin.close()
        self.process.wait(timeout=600)
        time.sleep(0.1)
        return int(self.wait_for(r"peak-rss (\d+)")) if any("peak-rss" in l for l in self.lines) else None


def browser():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1920,1080"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def summary(values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return statistics.median(values), p95, values[-1]


def latency():
    wsh = Session("--web", "0")
    url = wsh.wait_for(r"web: (http://127\.0\.0\.1:\d+/)")
    driver = browser()
    try:
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "connection").text == "live")
        # Arrival: an EventSource of the page's own; shown: the timeline item turning done.
        driver.execute_script("""
            window.bench = { arrived: [], shown: [] };
            const source = new EventSource('/events?after=' + Number.MAX_SAFE_INTEGER);
            source.onmessage = (e) => { const event = JSON.parse(e.data);
              if (event.type === 'done') window.bench.arrived.push(Date.now() - event.t); };
            const seen = new Set();
            new MutationObserver(() => {
              for (const item of document.querySelectorAll('#timeline li[data-done="true"]')) {
                const n = Number(item.dataset.line);
                if (seen.has(n)) continue;
                seen.add(n);
                const line = window.wshPage.lines().get(n);
                if (line && line.endedAt) window.bench.shown.push(Date.now() - line.endedAt);
              }
            }).observe(document.getElementById('timeline'), { subtree: true, attributes: true, childList: true });
        """)
        curl = subprocess.Popen(["curl", "-sN", url + "events?after=999999999"], stdout=subprocess.PIPE, text=True)
        curl_latencies = []

        def read_curl():
            for line in curl.stdout:
                if line.startswith("data:") and '"type":"done"' in line:
                    arrived = time.time() * 1000
                    t = float(re.search(r'"t":([0-9.e+]+)', line).group(1))
                    curl_latencies.append(arrived - t)
        threading.Thread(target=read_curl, daemon=True).start()
        time.sleep(0.5)
        for n in range(COMMANDS):
            wsh.type("fetch 3\n" if n % 2 == 0 else "detail 1\n")
            time.sleep(0.05)  # one command at a time, as a teacher types: each measured alone
        WebDriverWait(driver, 60).until(lambda d: d.execute_script("return window.bench.shown.length") >= COMMANDS)
        arrived = driver.execute_script("return window.bench.arrived")
        shown = driver.execute_script("return window.bench.shown")
        curl.terminate()
        return summary(arrived), summary(shown), summary(curl_latencies) if curl_latencies else None
    finally:
        driver.quit()
        wsh.type("exit\n")
        wsh.process.wait(timeout=60)


def long_session():
    script = "".join(("fetch 3\n", "detail 1\n", "back\n")[n % 3] for n in range(SESSION))
    plain = Session(timed=True)
    plain.type(script)
    plain_rss = plain.finish()

    web = Session("--web", "0", timed=True)
    url = web.wait_for(r"web: (http://127\.0\.0\.1:\d+/)")
    driver = browser()
    try:
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "connection").text == "live")
        started = time.monotonic()
        web.type(script)
        last = str(SESSION)
        WebDriverWait(driver, 1200, poll_frequency=1).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == last and
            d.find_element(By.CSS_SELECTOR, '#timeline li[data-line="%s"]' % last).get_attribute("data-done") == "true")
        elapsed = time.monotonic() - started
        held = driver.execute_script("return window.wshPage.events().length")
        items = driver.execute_script("return document.querySelectorAll('#timeline li').length")
        # A click on an older command: how long until the page shows it.
        target = driver.find_elements(By.CSS_SELECTOR, "#timeline li")[len(driver.find_elements(By.CSS_SELECTOR, "#timeline li")) // 2]
        number = target.get_attribute("data-line")
        clicked = time.monotonic()
        target.click()
        WebDriverWait(driver, 30, poll_frequency=0.01).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-selected") == number)
        click_ms = (time.monotonic() - clicked) * 1000
        heap = driver.execute_script("return performance.memory ? performance.memory.usedJSHeapSize : null")
    finally:
        driver.quit()
    web_rss = web.finish()
    return plain_rss, web_rss, held, items, click_ms, heap, elapsed


def main():
    print("bench-web: %s, %d commands for latency, a session of %d commands" % (WSH, COMMANDS, SESSION))
    (a_med, a_p95, a_max), (s_med, s_p95, s_max), curl = latency()
    print("")
    print("| from a command's end to | median | p95 | worst | goal |")
    print("|---|---|---|---|---|")
    print("| the event in Chromium (EventSource) | %.1f ms | %.1f ms | %.1f ms | ≤ %d ms %s |" % (a_med, a_p95, a_max, GOAL_MS, "✓" if a_max <= GOAL_MS else "✗"))
    print("| the command shown done on the page | %.1f ms | %.1f ms | %.1f ms | — |" % (s_med, s_p95, s_max))
    if curl:
        print("| the event read by curl -N (no browser) | %.1f ms | %.1f ms | %.1f ms | — |" % curl)
    plain_rss, web_rss, held, items, click_ms, heap, elapsed = long_session()
    print("")
    print("| a session of %d commands | value |" % SESSION)
    print("|---|---|")
    print("| wsh peak RSS, no page | %.1f MB |" % (plain_rss / 1024))
    print("| wsh peak RSS, page served and open | %.1f MB (+%.1f MB) |" % (web_rss / 1024, (web_rss - plain_rss) / 1024))
    print("| events the page holds (its window) | %d |" % held)
    print("| commands in the page's timeline | %d |" % items)
    print("| a click on an older command until it shows | %.0f ms |" % click_ms)
    if heap:
        print("| the page's JavaScript heap | %.1f MB |" % (heap / 1048576))
    print("| the whole session, page open | %.1f s |" % elapsed)


if __name__ == "__main__":
    main()
