"""Opens documents in headless Chromium as a victim of an attacker's upload would, and prints as
JSON what ran: every alert, the window's name, the console's messages.

    probe_documents.py CHROMIUM CHROMEDRIVER PAGE_URL DOCUMENT_URL...

Run by HeadlessChromium.swift with a Python that imports selenium. Each DOCUMENT_URL is opened
as the top-level document; then PAGE_URL, a page that embeds the documents (in <img>, <object>
and <iframe>, each element with an id). In each, the pointer moves over the middle of the
document (or of each embedding element) and clicks there, so that hover and click handlers
would fire. The caller's own recording server tells which requests reached an attacker; this
script reports what the browser itself saw. Alerts are accepted as they come and their text
recorded, so that one alert cannot hide the next.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import (NoAlertPresentException, UnexpectedAlertPresentException,
                                        WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

# How long what a document started (a timer, a fetch, an animation's begin) may take to show.
SETTLE_SECONDS = 0.5


def start(chromium, chromedriver):
    """A headless Chromium whose console selenium can read."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    # --no-sandbox: the tests may run as root, which Chromium's sandbox refuses.
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=800,800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.set_capability("unhandledPromptBehavior", "accept")
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


class Probe:
    """One browser, and what it has seen so far."""

    def __init__(self, driver):
        self.driver = driver
        self.alerts = []
        self.errors = []

    def attempt(self, step):
        """Runs `step`, recording any alert that interrupts it; its result, or None when it
        failed (the error recorded)."""
        for _ in range(10):
            try:
                return step()
            except UnexpectedAlertPresentException as alert:
                self.alerts.append(alert.alert_text)
            except WebDriverException as error:
                self.errors.append(error.msg)
                return None
        return None

    def drain_alerts(self):
        """Accepts and records the alerts open now."""
        while True:
            try:
                alert = self.driver.switch_to.alert
            except NoAlertPresentException:
                return
            self.alerts.append(alert.text)
            alert.accept()

    def point_and_click(self, element):
        """Moves the pointer over the middle of `element`, then clicks there."""
        self.attempt(lambda: ActionChains(self.driver).move_to_element(element).pause(0.1).click().perform())

    def report(self, url):
        """What the browser made of the document at `url`, once it has settled."""
        time.sleep(SETTLE_SECONDS)
        self.drain_alerts()
        name = self.attempt(lambda: self.driver.execute_script("return window.name"))
        console = self.attempt(lambda: self.driver.get_log("browser")) or []
        report = {"url": url, "alerts": self.alerts, "name": name, "errors": self.errors,
                  "console": [{"level": entry["level"], "message": entry["message"]} for entry in console]}
        self.alerts, self.errors = [], []
        return report

    def clear_name(self):
        """Empties `window.name` on a blank page: the name outlives navigations, so a document
        that set it must not be blamed on the next one."""
        self.attempt(lambda: self.driver.get("about:blank"))
        self.attempt(lambda: self.driver.execute_script("window.name = ''"))
        self.drain_alerts()

    def open_document(self, url):
        """Opens `url` as the top-level document, points at its middle and clicks."""
        self.clear_name()
        self.attempt(lambda: self.driver.get(url))
        self.drain_alerts()
        root = self.attempt(lambda: self.driver.find_element(By.XPATH, "/*"))
        if root is not None:
            self.point_and_click(root)
        return self.report(url)

    def open_page(self, url):
        """Opens the embedding page, points at each element with an id and clicks."""
        self.clear_name()
        self.attempt(lambda: self.driver.get(url))
        self.drain_alerts()
        elements = self.attempt(lambda: self.driver.find_elements(By.CSS_SELECTOR, "[id]")) or []
        for element in elements:
            self.point_and_click(element)
            # A click on an <a> in a frame navigates the frame, not this page: come back to it.
            self.attempt(lambda: self.driver.switch_to.default_content())
        return self.report(url)


def main():
    chromium, chromedriver, page, *documents = sys.argv[1:]
    driver = start(chromium, chromedriver)
    try:
        probe = Probe(driver)
        opened = [probe.open_document(url) for url in documents]
        print(json.dumps({"documents": opened, "page": probe.open_page(page)}))
    finally:
        driver.quit()


main()
