"""Loads a web page in headless Chromium, then reloads it, and prints as JSON what the browser
made of each load: every <img> and every request it sent.

    load_page.py PAGE_URL CHROMIUM CHROMEDRIVER

Run by HeadlessChromium.swift with a Python that imports selenium. The browser is the binary
and the driver given (selenium-manager never looks for, nor downloads, another), with a device
pixel ratio of 2 (srcset picks its 2x candidates) and an sRGB display (screenshots hold the
colours the page shows). The page's <img> elements say they are done by setting data-event
to "load" or "error" in their onload and onerror attributes; those with a data-screenshot
attribute are captured too, in device pixels. Requests come from Chromium's DevTools network
events, so they carry the headers the browser sent and what its cache answered.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

IMAGES = """
return Array.from(document.images, image => ({
    id: image.id, currentSrc: image.currentSrc, event: image.dataset.event || null,
    naturalWidth: image.naturalWidth, naturalHeight: image.naturalHeight,
    screenshot: "screenshot" in image.dataset}))
"""


def start(chromium, chromedriver):
    """A headless Chromium whose DevTools network events selenium can read."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    # --no-sandbox: the tests may run as root, which Chromium's sandbox refuses.
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=800,1200",
                     "--force-device-scale-factor=2", "--force-color-profile=srgb"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


def images(driver):
    """Every <img> of the page once each has had its load or error event."""
    WebDriverWait(driver, 15).until(lambda d: all(image["event"] for image in d.execute_script(IMAGES)))
    found = driver.execute_script(IMAGES)
    for image in found:
        image["screenshot"] = driver.find_element(By.ID, image["id"]).screenshot_as_base64 if image["screenshot"] else None
    return found


def requests(driver):
    """The requests sent since the last call, in order: URL, Accept, the answer's status (as
    received: 304 for a revalidation) and MIME type, and whether the browser's cache gave it
    (no answer when the request failed)."""
    by_id = {}
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        request = by_id.setdefault(params.get("requestId"), {})
        if message["method"] == "Network.requestWillBeSent":
            request["url"] = params["request"]["url"]
        elif message["method"] == "Network.requestWillBeSentExtraInfo":
            # The headers as sent: requestWillBeSent's lack those the network stack adds, Accept among them.
            request["accept"] = params["headers"].get("Accept")
        elif message["method"] == "Network.responseReceivedExtraInfo":
            # The status as received: responseReceived gives a revalidated answer's as 200.
            request["status"] = params["statusCode"]
        elif message["method"] == "Network.responseReceived":
            response = params["response"]
            request.setdefault("status", response["status"])
            request["mimeType"] = response["mimeType"]
            if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
                request["fromCache"] = True
        elif message["method"] == "Network.requestServedFromCache":
            request["fromCache"] = True
    return [dict(request, fromCache=request.get("fromCache", False)) for request in by_id.values() if "url" in request]


def main():
    page, chromium, chromedriver = sys.argv[1:4]
    driver = start(chromium, chromedriver)
    try:
        loads = []
        for navigate in (lambda: driver.get(page), driver.refresh):
            navigate()
            loads.append({"images": images(driver), "requests": requests(driver)})
        print(json.dumps({"loads": loads}))
    finally:
        driver.quit()


main()
