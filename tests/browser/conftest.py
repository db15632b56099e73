"""The browser and the page (with its screenshot under ``test-artifacts/standings/``) are the standings'
page tests' fixtures."""

from services.standings.tests.browser.test_pages import browser, page

__all__ = ["browser", "page"]
