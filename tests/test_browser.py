"""The memory browser at `/`, in a real headless Chromium (Debian's, driven by selenium) against
a real `memlens serve` over a memory of two real recordings: the day's recordings with their
frames, an answer that links to the moment it cites, and /docs working with no internet."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import httpx
import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="the test extra installs selenium (make test does)")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as seen  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

STATIC = Path(__file__).resolve().parents[1] / "service" / "static"


def waiting(browser, seconds: float) -> WebDriverWait:
    """A wait that looks again when the page re-drew what it was reading (a list replaced)."""
    return WebDriverWait(browser, seconds, ignored_exceptions=(StaleElementReferenceException,))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from eval.media import CALL_AUDIO, TED_CLIP, fetch
    from memlens import Memlens

    home = tmp_path_factory.mktemp("browser-home")
    with Memlens(home=home) as m:
        m.ingest(fetch(TED_CLIP), start=datetime(2026, 3, 2, 10, 0))
        m.ingest(fetch(CALL_AUDIO), start=datetime(2026, 3, 2, 13, 0))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "memlens.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                               env={**os.environ, "MEMLENS_HOME": str(home)}, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            if httpx.get(f"{url}/health").json()["ready"]:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline and process.poll() is None, "the server did not start"
        time.sleep(0.3)
    yield url
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "Debian's chromium and chromium-driver are not installed: run scripts/setup.sh"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(flag)
    chrome = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver))
    yield chrome
    chrome.quit()


def test_the_page_loads_nothing_from_elsewhere():
    for name in ("index.html", "app.js", "style.css"):
        assert "://" not in (STATIC / name).read_text(), name  # no CDN, no remote font: it works offline


def test_the_day_shows_its_recordings_and_their_frames(server, browser):
    browser.get(server + "/")
    wait = waiting(browser, 60)
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#recordings li")) == 2)
    assert browser.find_element(By.ID, "day").get_attribute("value") == "2026-03-02"
    wait.until(lambda b: next(li for li in b.find_elements(By.CSS_SELECTOR, "#recordings li") if "talk" in li.text)
               .click() or True)
    wait.until(lambda b: any("TED" in m.text for m in b.find_elements(By.CSS_SELECTOR, "#moments .moment")))
    wait.until(lambda b: b.execute_script(
        "return [...document.querySelectorAll('#moments img')].some(i => i.complete && i.naturalWidth > 0)"))


def test_an_answer_links_to_the_moment_it_cites(server, browser):
    browser.get(server + "/")
    wait = waiting(browser, 120)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#recordings li"))
    browser.find_element(By.ID, "question").send_keys("who was on the call?")
    browser.execute_script("document.getElementById('asked-at').value = '2026-03-02T18:00:00'")
    browser.find_element(By.ID, "ask-button").click()
    answer = wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "#answer .answer-text")))
    assert "Sheila" in answer.text and "Diane" in answer.text
    assert browser.find_elements(By.CSS_SELECTOR, "#answer .moment")
    browser.find_element(By.CSS_SELECTOR, "#answer a.moment-link").click()
    cited = wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "#moments .moment.cited")))
    assert cited.text and browser.find_element(By.CSS_SELECTOR, "#recordings li.open").text.count("call")
    assert browser.find_element(By.ID, "error").text == ""


def test_api_docs_render_offline(server, browser):
    page = httpx.get(server + "/docs").text
    assert "cdn" not in page.lower() and "/static-docs/swagger-ui-bundle.js" in page
    browser.get(server + "/docs")
    waiting(browser, 60).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".swagger-ui .opblock"))
    assert "/ask" in browser.find_element(By.CSS_SELECTOR, ".swagger-ui").text


def test_frames_of_another_namespace_or_unknown_recordings_are_404(server):
    assert httpx.get(server + "/frames/not-a-video?t=1").status_code == 404
