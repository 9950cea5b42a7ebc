#!/usr/bin/python3
"""The archive's offline site (`archive export html`) in a real Chromium, as a person reads it.

wsh syncs a timeline from its embedded sandbox into a fresh archive, keeps the
media (`archive media`) and writes the site; then wsh exits, and the sandbox,
the only server the pictures came from, is gone with it. The site is opened
from file:// and read: every picture shows, every avatar too, no image asks a
server for anything, and the search box finds a status and takes you to it.

Run by scripts/test-browser; needs chromium, chromium-driver and python3-selenium.
"""
import os
import subprocess
import sys
import tempfile
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classroom_test import ROOT, SHOTS, WSH, browser, wait  # noqa: E402


class OfflineSiteTests(unittest.TestCase):
    def test_the_site_shows_its_kept_pictures_and_finds_a_status_with_the_server_gone(self):
        folder = tempfile.mkdtemp(prefix="wsh-site-")
        archive = os.path.join(folder, "archive.sqlite")
        site = os.path.join(folder, "site")
        script = "; ".join([
            "archive sync public --limit 200 --archive %s" % archive,
            "archive media --archive %s" % archive,
            "archive export html %s --archive %s" % (site, archive),
        ])
        run = subprocess.run([WSH, "--dialect", "mastodon", "-c", script], capture_output=True, text=True, timeout=300,
                             stdin=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        kept = subprocess.run(["sqlite3", archive, "SELECT count(*) FROM media_files WHERE sha256 IS NOT NULL"],
                              capture_output=True, text=True).stdout.strip()
        self.assertGreater(int(kept or 0), 0, "archive media kept nothing: " + run.stderr[-2000:])
        # wsh has exited: its embedded sandbox, where every picture came from, is gone.

        driver = browser(1280, 900)
        try:
            driver.get("file://" + os.path.join(site, "index.html"))
            pages = driver.find_elements(By.CSS_SELECTOR, "ol.pages a")
            self.assertTrue(pages, "the index lists no page")
            shown = 0
            for number in range(1, len(pages) + 1):
                driver.get("file://%s/page-%d.html" % (site, number))
                wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page never loaded")
                images = driver.execute_script("""
                    return [...document.images].map(i => ({src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0,
                                                           cls: i.className}));""")
                for image in images:
                    self.assertFalse(image["src"].startswith("http"), "an image asks a server: %s" % image["src"])
                    self.assertTrue(image["src"].startswith("media/"), image["src"])
                    # Every picture and avatar on the page is drawn from the folder.
                    wait(driver, lambda d, src=image["src"]: d.execute_script(
                        "const i = [...document.images].find(i => i.getAttribute('src') === arguments[0]);"
                        "return i.complete && i.naturalWidth > 0;", src), "%s never showed" % image["src"])
                shown += len([image for image in images if image["cls"] == "media"])
            self.assertGreater(shown, 0, "no page shows a kept picture")
            os.makedirs(SHOTS, exist_ok=True)
            driver.get("file://%s/page-1.html" % site)
            driver.save_screenshot(os.path.join(SHOTS, "archive-site-1280.png"))

            # The search box, from file://: a word of a status on a later page takes you to it.
            last = len(pages)
            driver.get("file://%s/page-%d.html" % (site, last))
            article = driver.find_elements(By.CSS_SELECTOR, "article.status")[-1]
            anchor = article.get_attribute("id")
            words = [word for word in article.find_element(By.TAG_NAME, "p").text.split() if len(word) >= 4]
            self.assertTrue(words, "no word to look for in %s" % article.text)
            driver.get("file://%s/index.html" % site)
            box = driver.find_element(By.ID, "query")
            box.send_keys(words[0] + Keys.ENTER)
            links = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results a"), "the search found nothing")
            target = [link for link in links if link.get_attribute("href").endswith("#" + anchor)]
            self.assertTrue(target, "the search for %r did not list %s" % (words[0], anchor))
            target[0].click()
            wait(driver, lambda d: d.current_url.endswith("page-%d.html#%s" % (last, anchor)), "the link did not open the status")
            self.assertTrue(driver.execute_script(
                "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                "return r.top >= 0 && r.top < window.innerHeight;", anchor), "the status is not in view")
        finally:
            driver.quit()


if __name__ == "__main__":
    runner = unittest.TextTestRunner(verbosity=2)
    result = runner.run(unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(0 if result.wasSuccessful() else 1)
